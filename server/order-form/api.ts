// The order-form JSON API (spec 1 §7) and its price quotes: the same domain functions as the wizard pages.
// Paths: /api/order-form/new | load | {id}/load | {id}/<call>; /api/price-quote/{estimateId}/pdf | email.
import { fail, invalid, ok, type Result } from "#common/result";
import { deliveryTierOf } from "#common/order-form/constants";
import {
  type BasicDetails,
  type Details,
  type ManuscriptDetails,
  type ReworkBasicDetails,
  basicDetailsBody,
  binPriceQuery,
  bundleChoiceBody,
  bundleInterestBody,
  bundleQuestionsBody,
  deliveryTierBody,
  detailsBody,
  emptyBody,
  journalBody,
  manuscriptDetailsBody,
  quantityBody,
  quotePdfQuery,
  referralEmailsBody,
  reworkBasicDetailsBody,
  selectedServiceBody,
  stepBody,
  updateWordCountBody,
} from "#common/order-form/schemas";
import { endpoint, reply, seeOther, type ApiReply, type EndpointTable, type HandlerInput } from "../http/api/endpoint";
import { cookies } from "../http/cookies";
import { multipartBody } from "../http/multipart";
import type { Scope } from "../scope";
import { getUserView } from "../accounts/account";
import { availableBundles, getBinPrice, getCatalogue, type BundleAnswers } from "../catalogue";
import { checkUploadRateLimit, parseUploadRequest, UploadError } from "../documents/storage";
import { paths } from "#common/paths";
import {
  answersOf,
  binServiceOf,
  canOpen,
  convertQuote,
  currentDraftOf,
  emailQuote,
  findOrderForm,
  OrderFormClosedError,
  findQuote,
  generatePriceQuote,
  newDraftKey,
  openDraft,
  orderFormLoadView,
  orderFormView,
  ownerOf,
  quotePdf,
  saveOrderForm,
  saveReworkBasicDetails,
  startRework,
  type OrderFormRow,
  type StepName,
  applyPromoCode,
  chooseBundle,
  fileOwner,
  manuscriptDetails,
  removePromoCode,
  saveBundleAnswers,
  saveCurrency,
  saveDeliveryTier,
  saveDetails,
  saveGetStarted,
  saveJournal,
  saveManuscriptDetails,
  saveReferralEmails,
  saveServiceQuantity,
  saveServices,
  stepContext,
  type SaveResult,
} from "./index";

async function respond(scope: Scope, form: OrderFormRow, status = 200, setCookies?: string[]): Promise<ApiReply> {
  return reply({ orderForm: await orderFormView(scope, form) }, { status, cookies: setCookies });
}

/** The answer of the load calls: the form with what the wizard's pages offer (spec 1 §3; issue 22 item 4). */
async function respondLoaded(scope: Scope, form: OrderFormRow, status = 200, setCookies?: string[]): Promise<ApiReply> {
  return reply({ orderForm: await orderFormLoadView(scope, form) }, { status, cookies: setCookies });
}

/** The form as the API shows it with a message for the visitor (`coupon-applied-message`…). */
async function withMessage(scope: Scope, form: OrderFormRow, message: string) {
  return ok({ orderForm: await orderFormView(scope, form), messages: [message] });
}

const UNKNOWN_TIER = "order:errors.delivery-tier-unknown";

const errorReply = (error: string, status = 400) => reply({ error }, { status });

interface FormCall<B, Q> extends HandlerInput<B, Q> {
  form: OrderFormRow;
}

/**
 * A call on one order form: another user's or another browser's form is 404, a placed form 409 (except
 * for payments, which answer the placed order again).
 */
function onForm<B, Q>(handler: (call: FormCall<B, Q>) => Promise<Result<unknown> | ApiReply>, options: { placed?: boolean } = {}) {
  return async (input: HandlerInput<B, Q>) => {
    const form = await findOrderForm(input.scope.app.db, input.params.id, ownerOf(input.scope));
    if (!form) return fail("not-found");
    if (form.status !== "draft" && !options.placed) return fail("order-form-placed");
    // Placed by a concurrent request after the check above: the guarded write changed nothing (issue 10 §13).
    return handler({ ...input, form }).catch((error: unknown) => {
      if (error instanceof OrderFormClosedError) return fail("order-form-placed");
      throw error;
    });
  };
}

/** A step's save on one form: the form as the API shows it, or the Result's error (400 `{ error, fieldErrors }` with short codes). */
function savesStep<B, Q>(save: (call: FormCall<B, Q>) => Promise<SaveResult>) {
  return onForm<B, Q>(async (call) => {
    const r = await save(call);
    return r.ok ? respond(call.scope, r.value) : r;
  });
}

const ID = "/api/order-form/:id";

export const orderFormApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/order-form/new",
    auth: "optional",
    summary:
      "The visitor's order form in progress, or a new one (201; an anonymous visitor gets the draft cookie), as {id}/load answers it.",
    async handler({ scope: request }) {
      // An anonymous visitor without a draft cookie gets a new key, and the form is made for it.
      const created = !request.userId && !request.draftKey ? newDraftKey() : null;
      const scope = created ? { ...request, draftKey: created } : request;
      const setCookies = created ? [cookies.draft.serialize(created, scope.secure)] : undefined;
      // A visitor's currency: CNY on the China site, else USD (the user's own when signed in).
      const { form, created: isNew } = await openDraft(scope, (site) => (site.identity === "CN" ? "CNY" : "USD"));
      return respondLoaded(scope, form, isNew ? 201 : 200, setCookies);
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/order-form/load",
    auth: "optional",
    summary: "The visitor's order form in progress, as {id}/load answers it (404 when there is none).",
    async handler({ scope }) {
      const form = await currentDraftOf(scope);
      return form ? respondLoaded(scope, form) : fail("not-found");
    },
  }),
  // Spec 2: the re-edit page's Continue link. The wizard's /new?rework= opens (or resumes) the rework form;
  // the path without a language is sent on to the visitor's language by the language redirect.
  ...["reedit", "rework"].map((word) =>
    endpoint({
      method: "GET",
      path: `/api/order-form/${word}/:externalId`,
      auth: "none",
      summary: "Browser navigation: 303 to the wizard, which opens (or resumes) the rework form of the order (spec 2).",
      handler: ({ params }) => seeOther(paths.submitAnyLang("new", { rework: params.externalId })),
    }),
  ),
  endpoint({
    method: "POST",
    path: "/api/order-form/rework/:externalId",
    auth: "user",
    body: emptyBody,
    summary: "Opens (or resumes) the rework form of one of the user's orders (201; another user's order is 404).",
    async handler({ scope, params }) {
      const rework = await startRework(scope, params.externalId);
      return rework ? respond(scope, rework, 201) : fail("not-found");
    },
  }),
  endpoint({
    method: "GET",
    path: `${ID}/load`,
    auth: "optional",
    summary:
      "One order form of the visitor: prices, steps, files, discounts, and what the wizard offers (availableServices, serviceGroups with price and priceLabel, customerGoals, manuscriptLanguages, detectedLanguageId, calculatedWordCount, holidays, duplicateOrder).",
    handler: onForm(async ({ scope, form }) => respondLoaded(scope, form), { placed: true }),
  }),
  endpoint({
    method: "GET",
    path: `${ID}/document-details`,
    auth: "optional",
    summary: "What the analysis of the uploaded manuscript found: language and word count (once received).",
    handler: onForm(
      async ({ scope, form }) => {
        const d = await manuscriptDetails(scope, form);
        return ok({
          documentDetailsReceived: d.documentDetailsReceived,
          manuscriptLanguageId: d.manuscriptLanguageId,
          wordCount: d.wordCount,
          // Why no values will come (ADR 019): the client stops waiting and says so.
          analysisFailed: d.analysisFailed,
          analysisError: d.analysisError,
        });
      },
      { placed: true },
    ),
  }),
  endpoint({
    method: "GET",
    path: `${ID}/applicable-promotional-code-benefits`,
    auth: "optional",
    summary: "The discounts the order form's promo code gives, and the code.",
    handler: onForm(
      async ({ scope, form }) => {
        const view = await orderFormView(scope, form);
        return ok({ applicablePromotionalCodeBenefits: view.discounts, promoCode: form.promo_code });
      },
      { placed: true },
    ),
  }),
  endpoint({
    method: "GET",
    path: `${ID}/get-bin-price`,
    auth: "optional",
    query: binPriceQuery,
    summary: "The word bin and price of the form's editing or translation service for ?newWordCount=.",
    handler: onForm(
      async ({ scope, form, query }) => {
        const r = getBinPrice(await getCatalogue(scope.app), {
          serviceSlug: binServiceOf(form),
          wordCount: Number(query.newWordCount ?? null),
          currencyIso: form.currency_iso.trim(),
          now: new Date(),
        });
        return r.ok ? ok({ newService: { newWordBin: r.newWordBin, price: r.price } }) : errorReply(r.error);
      },
      { placed: true },
    ),
  }),
  endpoint({
    method: "POST",
    path: `${ID}/files`,
    auth: "optional",
    body: "stream",
    summary: "Uploads files (multipart, field mainFiles; checked by content): 201 with the files, 400 when all are refused.",
    handler: onForm(async ({ scope, form, webRequest }) => {
      const limit = await checkUploadRateLimit(scope.app, { userId: scope.userId, ip: scope.ip });
      if (!limit.allowed) return fail("rate-limited");
      try {
        const r = await parseUploadRequest(scope.app, multipartBody(webRequest()), {
          ...fileOwner(ownerOf(scope)),
          orderFormId: form.id,
          uploaderIp: scope.ip,
        });
        return reply(
          { files: r.files.map((f) => ({ identity: f.id, name: f.originalName, kind: f.kind })), rejected: r.rejected },
          { status: r.files.length ? 201 : 400 },
        );
      } catch (error) {
        if (error instanceof UploadError) return errorReply(error.code, error.status ?? 400);
        throw error;
      }
    }),
  }),
  endpoint({
    method: "PUT",
    path: `${ID}/discount-code/:code`,
    auth: "optional",
    summary: "Applies a promo code (one per order): messages coupon-applied-message or best-discount-applied.",
    handler: onForm(async ({ scope, form, params }) => {
      const r = await applyPromoCode(scope, form, params.code);
      if (!r.ok) return r;
      return withMessage(scope, r.value.form, r.value.message);
    }),
  }),
  endpoint({
    method: "DELETE",
    path: `${ID}/discount-code/:code`,
    auth: "optional",
    summary: "Removes the promo code {code} (404 promo-code-not-applied when the form has another code or none).",
    handler: onForm(async ({ scope, form, params }) => {
      // Only the code named in the path: a stale page removing an old code must not take off the current one.
      if (!form.promo_code || form.promo_code.toLowerCase() !== params.code.trim().toLowerCase()) return fail("promo-code-not-applied");
      return withMessage(scope, await removePromoCode(scope, form), "coupon-removed-message");
    }),
  }),
  endpoint({
    method: "PUT",
    path: `${ID}/service-options/:service/quantity`,
    auth: "optional",
    body: quantityBody,
    summary: "The quantity of a per-unit service (figures, tables): 1 to 25.",
    handler: savesStep(({ scope, form, params, body }) => saveServiceQuantity(scope, form, params.service, body.quantity)),
  }),
  endpoint({
    method: "PUT",
    path: `${ID}/basic-details`,
    auth: "optional",
    body: basicDetailsBody,
    summary: "Saves the get-started step: goal, word count, language (files first, or uploadFilesLater).",
    // The API's goal defaults to a manuscript (spec 1 §7); the page's radio buttons must be answered.
    handler: savesStep<BasicDetails, undefined>(({ scope, form, body }) =>
      saveGetStarted(scope, form, { ...body, customerGoal: body.customerGoal ?? "manuscript" }),
    ),
  }),
  endpoint({
    method: "PUT",
    path: `${ID}/rework-basic-details`,
    auth: "optional",
    body: reworkBasicDetailsBody,
    summary: "Saves the rework start screen: revised manuscript, word count, language, instructions (spec 2).",
    handler: savesStep<ReworkBasicDetails, undefined>(({ scope, form, body }) => saveReworkBasicDetails(scope, form, body)),
  }),
  endpoint({
    method: "PUT",
    path: `${ID}/selected-service`,
    auth: "optional",
    body: selectedServiceBody,
    summary: "Chooses the services (by identity or slug) and the delivery tier; the price comes from the server.",
    handler: savesStep(async ({ scope, form, body }) => {
      const refs = Array.isArray(body.serviceIdentities)
        ? body.serviceIdentities
        : Array.isArray(body.serviceSlugs)
          ? body.serviceSlugs
          : [];
      const catalogue = await getCatalogue(scope.app);
      const serviceSlugs = refs
        .map(String)
        .map((s) => catalogue.services.find((c) => c.slug === s || c.identity === s)?.slug)
        .filter((s): s is string => Boolean(s));
      const tier = body.deliveryTier === undefined ? (body.rush === true ? "rush" : "standard") : deliveryTierOf(body.deliveryTier);
      if (!tier) return invalid({ deliveryTier: UNKNOWN_TIER });
      const step = form.customer_goal === "multimedia" ? "multimedia-services" : "manuscript-services";
      return saveServices(
        scope,
        form,
        { serviceSlugs, declineEditing: body.declineEditing === true, rush: tier === "rush", express: tier === "express" },
        step,
      );
    }),
  }),
  endpoint({
    method: "PUT",
    path: `${ID}/referral-emails`,
    auth: "optional",
    body: referralEmailsBody,
    summary: "Colleagues to refer: 1 to 10 addresses in total, an array or comma-separated.",
    handler: onForm(async ({ scope, form, body }) => {
      const r = await saveReferralEmails(scope, form, body.referralEmails ?? []);
      if (!r.ok) return r;
      return withMessage(scope, r.value, "referral-email-save-success");
    }),
  }),
  endpoint({
    method: "POST",
    path: `${ID}/service-bundle-interest`,
    auth: "optional",
    body: bundleInterestBody,
    summary: "Whether the visitor wants to see service bundles.",
    handler: onForm(async ({ scope, form, body }) =>
      respond(scope, await saveOrderForm(scope.app.db, form, { bundle_interest: body.interested !== false })),
    ),
  }),
  endpoint({
    method: "POST",
    path: `${ID}/service-bundle-questions`,
    auth: "optional",
    body: bundleQuestionsBody,
    summary: "Answers to the bundle questions; returns the bundles on offer.",
    handler: onForm(async ({ scope, form, body }) => {
      const r = await saveBundleAnswers(scope, form, (body.answers ?? {}) as BundleAnswers);
      if (!r.ok) return r;
      const catalogue = await getCatalogue(scope.app);
      const view = await orderFormView(scope, r.value.form);
      const bundles = availableBundles(catalogue, answersOf(r.value.form)).map((b) => ({
        id: b.id,
        slug: b.slug,
        nameKey: b.nameKey,
        primaryService: b.primaryServiceSlug,
        services: b.addOnSlugs,
        discount: { percent: b.discountBp / 100 },
      }));
      if (!bundles.length)
        return ok({
          error: "service-bundle-no-bundles-error",
          availableServiceBundles: [],
          steps: view.steps,
          currentStep: view.currentStep,
        });
      return ok({ availableServiceBundles: bundles, steps: view.steps, currentStep: view.currentStep });
    }),
  }),
  endpoint({
    method: "POST",
    path: `${ID}/service-bundle`,
    auth: "optional",
    body: bundleChoiceBody,
    summary: "Chooses a bundle (or none, bundleId null) and its delivery.",
    handler: onForm(async ({ scope, form, body }) => {
      // Spec 1 §2: the bundle's delivery is none, rush or express, mutually exclusive.
      if (body.express === true && body.rush === true) return invalid({ delivery: "order:errors.rush-and-express" });
      const named =
        body.delivery === undefined || body.delivery === null
          ? "standard"
          : body.delivery === "none"
            ? "standard"
            : deliveryTierOf(body.delivery);
      if (!named) return invalid({ delivery: UNKNOWN_TIER });
      const delivery = body.express === true ? "express" : body.rush === true ? "rush" : named;
      const r = await chooseBundle(scope, form, { bundleId: body.bundleId === null ? null : Number(body.bundleId ?? body.id), delivery });
      if (!r.ok) return r;
      const view = await orderFormView(scope, r.value);
      return ok({ order: view, orderForm: view, steps: view.steps });
    }),
  }),
  endpoint({
    method: "PUT",
    path: `${ID}/generate-price-quote`,
    auth: "optional",
    body: emptyBody,
    summary: "Makes a price quote of the form (valid 30 days): its estimateId and PDF link.",
    handler: onForm(async ({ scope, form }) => {
      const r = await generatePriceQuote(scope, form);
      if (!r.ok) return r;
      return ok({
        order: await orderFormView(scope, form),
        estimateId: r.value.estimateId,
        pdf: paths.api.priceQuotePdf(r.value.estimateId),
      });
    }),
  }),
  endpoint({
    method: "POST",
    path: `${ID}/convert-quote`,
    auth: "optional",
    body: emptyBody,
    summary: "Back from a quote to the order, at the details step.",
    handler: onForm(async ({ scope, form }) => {
      const view = await orderFormView(scope, await convertQuote(scope, form));
      return ok({ order: view, orderForm: view, redirectUri: paths.submit(scope.lang, "details") });
    }),
  }),
  endpoint({
    method: "PUT",
    path: `${ID}/manuscript-details`,
    auth: "optional",
    body: manuscriptDetailsBody,
    summary: "Word count and language of the manuscript.",
    handler: savesStep<ManuscriptDetails, undefined>(({ scope, form, body }) => saveManuscriptDetails(scope, form, body)),
  }),
  endpoint({
    method: "PUT",
    path: `${ID}/update-word-count`,
    auth: "optional",
    body: updateWordCountBody,
    summary: "A new word count: the price moves to its word bin.",
    handler: onForm(async ({ scope, form, body }) => {
      const r = await saveManuscriptDetails(scope, form, { wordCount: body.newWordCount }, { languageRequired: false });
      if (!r.ok) return r;
      // A word count the selected service cannot take blocks payment (noServiceOption / veryLongWordCount).
      const view = await orderFormView(scope, r.value);
      return ok({ order: view, orderForm: view });
    }),
  }),
  endpoint({
    method: "PUT",
    path: `${ID}/update-delivery-tier`,
    auth: "optional",
    body: deliveryTierBody,
    summary: "The delivery tier: standard, rush or express (refused when the services cannot take it).",
    handler: savesStep(async ({ scope, form, body }) => {
      // `rushed` alone is the older call; a tier that is named must be one of the three (a "turbo" is a 400, not standard).
      const tier = body.deliveryTier === undefined ? (body.rushed === true ? "rush" : "standard") : deliveryTierOf(body.deliveryTier);
      if (!tier) return invalid({ deliveryTier: UNKNOWN_TIER });
      return saveDeliveryTier(scope, form, tier);
    }),
  }),
  endpoint({
    method: "PUT",
    path: `${ID}/step`,
    auth: "optional",
    body: stepBody,
    summary: "Moves back to an earlier step (steps cannot be skipped forward: step-not-open).",
    handler: onForm(async ({ scope, form, body }) => {
      const step = String(body.step ?? "") as StepName;
      const ctx = await stepContext(scope, form);
      // Moving back (or to the step after a completed one) only: steps cannot be skipped forward.
      const toDetails = step === "details" && form.current_step === "additional-services";
      if (!canOpen(step, form, ctx) && !toDetails) return errorReply("step-not-open");
      return respond(scope, await saveOrderForm(scope.app.db, form, { current_step: toDetails ? "details" : form.current_step }));
    }),
  }),
  endpoint({
    method: "PUT",
    path: `${ID}/journal`,
    auth: "optional",
    body: journalBody,
    summary: "The target journal: a name and an optional http(s) address.",
    handler: savesStep(({ scope, form, body }) => saveJournal(scope, form, body)),
  }),
  endpoint({
    method: "PUT",
    path: `${ID}/details`,
    auth: "optional",
    body: detailsBody,
    summary: "Saves the details step (title, area of study, style of English, journal), or the currency alone.",
    handler: savesStep<Details, undefined>(({ scope, form, body }) => {
      // "details form, or currencyIso alone" (spec 1 §7).
      // The currency is the anonymous visitor's choice (spec 1 §2, §6); a signed-in user's orders are in their account's currency.
      if (body.currencyIso !== undefined && body.projectTitle === undefined)
        return scope.userId ? Promise.resolve(fail("currency-change-not-allowed")) : saveCurrency(scope, form, body.currencyIso);
      return saveDetails(scope, form, body);
    }),
  }),
  // POST|PUT {id}/payments: the payment form's table (server/payments/api.ts, issue 12 §1).
];

/** Price quotes (spec 1 §4 "Quote"): the PDF for its owner, and the e-mail with its link. */
export const priceQuoteApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/price-quote/:estimateId/pdf",
    auth: "optional",
    query: quotePdfQuery,
    summary: "The quote as a PDF, to its owner only (?display=inline for the embed).",
    async handler({ scope, params, query }) {
      const quote = await findQuote(scope.app, params.estimateId, ownerOf(scope));
      if (!quote) return fail("not-found");
      const user = scope.userId ? await getUserView(scope.app, scope.userId) : null;
      const pdf = await quotePdf(scope, quote, user ? { name: user.fullName, email: user.email, institution: user.institution } : null);
      if (!pdf.ok) return pdf;
      return new Response(new Uint8Array(pdf.value), {
        headers: {
          "Content-Type": "application/pdf",
          "Content-Disposition": `${query.display === "inline" ? "inline" : "attachment"}; filename="price-quote-${quote.row.estimate_id}.pdf"`,
          "Cache-Control": "private, no-store",
        },
      });
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/price-quote/:estimateId/email",
    auth: "user",
    summary: "E-mails the quote's link to the signed-in user: {recipientEmail}.",
    async handler({ scope, params }) {
      const user = scope.session!.user;
      const quote = await findQuote(scope.app, params.estimateId, { userId: user.id, draftKey: null });
      if (!quote) return fail("not-found");
      const sent = await emailQuote(scope.app, quote, { id: user.id, email: user.email, localization: user.localization });
      if (!sent.ok) return sent;
      return ok({ recipientEmail: sent.value });
    },
  }),
];
