import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, json, readJson } from "#app/lib/api.server";
import { draftCookie, wizardEnv, type WizardRequest } from "#app/lib/wizard.server";
import { getUserView } from "#server/accounts/account";
import { localizationForHost } from "#server/config";
import { createOrderForm, currentDraft, findOrderForm, saveOrderForm, type OrderFormRow } from "#server/order-form/store";
import {
  saveCurrency,
  saveJournal,
  saveServiceQuantity,
  answersOf,
  chooseBundle,
  saveBundleAnswers,
  applyPromoCode,
  removePromoCode,
  saveReferralEmails,
  saveManuscriptDetails,
  manuscriptDetails,
  saveDeliveryTier,
  saveDetails,
  saveGetStarted,
  saveServices,
  stepContext,
  type SaveResult,
} from "#server/order-form/service";
import { orderFormView } from "#server/order-form/view";
import { convertQuote, generatePriceQuote } from "#server/order-form/quote";
import { canOpen, type StepName } from "#server/order-form/steps";
import { placeOrder } from "#server/orders/place";
import { availableBundles, getBinPrice, getCatalogue, type BundleAnswers } from "#server/catalogue";
import { parseUploadRequest, checkUploadRateLimit, UploadError } from "#server/documents/storage";
import { fileOwner } from "#server/order-form/service";
import { saveReworkBasicDetails, startRework } from "#server/order-form/rework";

// The order-form JSON API (spec 1 §7): the same server modules as the wizard pages.
// Paths: /api/order-form/new | load | {id}/load | {id}/<call>.

async function respond(w: WizardRequest, form: OrderFormRow, status = 200) {
  const headers = w.newDraftKey ? { "Set-Cookie": draftCookie(w.newDraftKey, false) } : undefined;
  return json({ orderForm: await orderFormView(w.env, form) }, status, headers);
}

async function saved(w: WizardRequest, r: SaveResult) {
  if (!r.ok) {
    const fieldErrors = Object.fromEntries(Object.entries(r.fieldErrors).map(([k, v]) => [k, v[0].replace(/^[a-z]+:errors\./, "")]));
    return json({ error: Object.values(fieldErrors)[0], fieldErrors }, 400);
  }
  return respond(w, r.form);
}

async function newForm(w: WizardRequest, request: Request) {
  const existing = await currentDraft(w.env.ctx.db, w.env.owner);
  if (existing) return respond(w, existing);
  const snapshot = await w.env.ctx.config.snapshot();
  const user = w.env.owner.userId ? await getUserView(w.env.ctx, w.env.owner.userId) : null;
  const site = localizationForHost(snapshot.localizations, request.headers.get("host"));
  const form = await createOrderForm(w.env.ctx.db, w.env.owner, {
    currencyIso: user?.currencyIso ?? (site.identity === "CN" ? "CNY" : "USD"),
  });
  return respond(w, form, 201);
}

function parts(params: Record<string, string | undefined>) {
  return (params["*"] ?? "").split("/").filter(Boolean);
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const p = parts(params);
  // API calls carry no language prefix: /en/ is a stand-in for requireLang inside wizardEnv.
  const w = await wizardEnv(withLang(request), context, { createDraftKey: p[0] === "new" });
  if (p[0] === "new" && p.length === 1) return newForm(w, request);
  // Spec 2: the re-edit page's Continue link. The wizard's /new?rework= opens (or resumes) the rework form;
  // the path without a language is sent on to the visitor's language by the language redirect.
  if ((p[0] === "reedit" || p[0] === "rework") && p.length === 2) {
    return new Response(null, {
      status: 303,
      headers: { Location: `/researcher/submit/new?rework=${encodeURIComponent(p[1])}`, "Cache-Control": "no-store" },
    });
  }
  if (p[0] === "load" && p.length === 1) {
    const form = await currentDraft(context.app.db, w.env.owner);
    return form ? respond(w, form) : apiError("not-found", 404);
  }
  const form = p[0] ? await findOrderForm(context.app.db, p[0], w.env.owner) : null;
  if (!form) return apiError("not-found", 404);
  switch (p[1]) {
    case "load":
      return respond(w, form);
    case "document-details": {
      const d = await manuscriptDetails(w.env, form);
      return json({
        documentDetailsReceived: d.documentDetailsReceived,
        manuscriptLanguageId: d.manuscriptLanguageId,
        wordCount: d.wordCount,
      });
    }
    case "applicable-promotional-code-benefits": {
      const view = await orderFormView(w.env, form);
      return json({ applicablePromotionalCodeBenefits: view.discounts, promoCode: form.promo_code });
    }
    case "get-bin-price": {
      const words = Number(new URL(request.url).searchParams.get("newWordCount"));
      const slug = (form.selections ?? []).find((s) => /editing|translation/.test(s.serviceSlug))?.serviceSlug ?? "standard-editing";
      const r = getBinPrice(await getCatalogue(context.app), {
        serviceSlug: slug,
        wordCount: words,
        currencyIso: form.currency_iso.trim(),
        now: new Date(),
      });
      return r.ok ? json({ newService: { newWordBin: r.newWordBin, price: r.price } }) : json({ error: r.error }, 400);
    }
    default:
      return apiError("not-found", 404);
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const p = parts(params);
  const w = await wizardEnv(withLang(request), context);
  // POST rework/{externalId}: opens (or resumes) the rework form of one of the user's orders, for scripts.
  if (p[0] === "rework" && p.length === 2 && request.method.toUpperCase() === "POST") {
    if (!w.env.owner.userId) return apiError("unauthorized", 401);
    const rework = await startRework(w.env, p[1]);
    return rework ? respond(w, rework, 201) : apiError("not-found", 404);
  }
  const form = p[0] ? await findOrderForm(context.app.db, p[0], w.env.owner) : null;
  if (!form) return apiError("not-found", 404);
  if (form.status !== "draft" && p[1] !== "payments") return apiError("order-form-placed", 409);
  const method = request.method.toUpperCase();
  const call = p[1];
  if (call === "files" && method === "POST") {
    const limit = await checkUploadRateLimit(context.app, { userId: w.env.owner.userId, ip: context.ip });
    if (!limit.allowed) return apiError("rate-limited", 429);
    try {
      const r = await parseUploadRequest(context.app, request, { ...fileOwner(w.env.owner), orderFormId: form.id });
      return json(
        { files: r.files.map((f) => ({ identity: f.id, name: f.originalName, kind: f.kind })), rejected: r.rejected },
        r.files.length ? 201 : 400,
      );
    } catch (error) {
      if (error instanceof UploadError) return apiError(error.code, error.status ?? 400);
      throw error;
    }
  }
  if (call === "discount-code" && p[2]) {
    if (method === "DELETE") {
      const next = await removePromoCode(w.env, form);
      return json({ orderForm: await orderFormView(w.env, next), messages: ["coupon-removed-message"] });
    }
    if (method !== "PUT") return apiError("method-not-allowed", 405);
    const r = await applyPromoCode(w.env, form, decodeURIComponent(p[2]));
    if (!r.ok) return json({ error: r.error }, 400);
    return json({ orderForm: await orderFormView(w.env, r.form), messages: [r.message] });
  }
  const body = await readJson(request);
  if (call === "service-options" && p[2] && p[3] === "quantity" && method === "PUT")
    return saved(w, await saveServiceQuantity(w.env, form, decodeURIComponent(p[2]), body.quantity));
  switch (`${method} ${call}`) {
    case "PUT basic-details":
      return saved(
        w,
        await saveGetStarted(w.env, form, {
          customerGoal: String(body.customerGoal ?? "manuscript"),
          uploadFilesLater: body.uploadFilesLater === true,
          wordCount: body.wordCount as number,
          languageId: (body.language ?? body.languageId) as number,
        }),
      );
    case "PUT rework-basic-details":
      return saved(
        w,
        await saveReworkBasicDetails(w.env, form, {
          uploadFilesLater: body.uploadFilesLater === true,
          wordCount: body.wordCount as number,
          languageId: (body.language ?? body.languageId) as number,
          instructions: body.instructions,
        }),
      );
    case "PUT selected-service": {
      const slugs = (
        Array.isArray(body.serviceIdentities) ? body.serviceIdentities : Array.isArray(body.serviceSlugs) ? body.serviceSlugs : []
      ).map(String);
      const catalogue = await getCatalogue(context.app);
      const bySlugOrIdentity = slugs
        .map((s: string) => catalogue.services.find((c) => c.slug === s || c.identity === s)?.slug)
        .filter((s: string | undefined): s is string => Boolean(s));
      const tier = String(body.deliveryTier ?? (body.rush ? "rush" : "standard"));
      return saved(
        w,
        await saveServices(
          w.env,
          form,
          {
            serviceSlugs: bySlugOrIdentity,
            declineEditing: body.declineEditing === true,
            rush: tier === "rush",
            express: tier === "express",
          },
          form.customer_goal === "multimedia" ? "multimedia-services" : "manuscript-services",
        ),
      );
    }
    case "PUT referral-emails": {
      const r = await saveReferralEmails(w.env, form, (body.referralEmails as string[] | string) ?? []);
      if (!r.ok) return json({ error: r.error }, 400);
      return json({ orderForm: await orderFormView(w.env, r.form), messages: ["referral-email-save-success"] });
    }
    case "POST service-bundle-interest": {
      const next = await saveOrderForm(context.app.db, form, { bundle_interest: body.interested !== false });
      return respond(w, next);
    }
    case "POST service-bundle-questions": {
      const r = await saveBundleAnswers(w.env, form, (body.answers ?? {}) as BundleAnswers);
      if (!r.ok) return saved(w, r);
      const catalogue = await getCatalogue(context.app);
      const view = await orderFormView(w.env, r.form);
      const bundles = availableBundles(catalogue, answersOf(r.form)).map((b) => ({
        id: b.id,
        slug: b.slug,
        nameKey: b.nameKey,
        primaryService: b.primaryServiceSlug,
        services: b.addOnSlugs,
        discount: { percent: b.discountBp / 100 },
      }));
      if (!bundles.length)
        return json(
          { error: "service-bundle-no-bundles-error", availableServiceBundles: [], steps: view.steps, currentStep: view.currentStep },
          200,
        );
      return json({ availableServiceBundles: bundles, steps: view.steps, currentStep: view.currentStep });
    }
    case "POST service-bundle": {
      const delivery = body.express === true ? "express" : body.rush === true ? "rush" : String(body.delivery ?? "standard");
      const r = await chooseBundle(w.env, form, { bundleId: body.bundleId === null ? null : Number(body.bundleId ?? body.id), delivery });
      if (!r.ok) return saved(w, r);
      const view = await orderFormView(w.env, r.form);
      return json({ order: view, orderForm: view, steps: view.steps });
    }
    case "PUT generate-price-quote": {
      const r = await generatePriceQuote(w.env, form);
      if (!r.ok) return json({ error: r.error }, 400);
      return json({ order: await orderFormView(w.env, form), estimateId: r.estimateId, pdf: `/api/price-quote/${r.estimateId}/pdf` });
    }
    case "POST convert-quote": {
      const next = await convertQuote(w.env, form);
      const view = await orderFormView(w.env, next);
      return json({ order: view, orderForm: view, redirectUri: `/${w.lang}/researcher/submit/details` });
    }
    case "PUT manuscript-details":
      return saved(
        w,
        await saveManuscriptDetails(w.env, form, { wordCount: body.wordCount, languageId: body.language ?? body.languageId }),
      );
    case "PUT update-word-count": {
      const r = await saveManuscriptDetails(w.env, form, { wordCount: body.newWordCount });
      if (!r.ok) return saved(w, r);
      const view = await orderFormView(w.env, r.form);
      // A word count the selected service cannot take blocks payment (noServiceOption / veryLongWordCount).
      return json({ order: view, orderForm: view });
    }
    case "PUT update-delivery-tier": {
      const tier = body.deliveryTier === "express" ? "express" : body.rushed === true || body.deliveryTier === "rush" ? "rush" : "standard";
      return saved(w, await saveDeliveryTier(w.env, form, tier));
    }
    case "PUT step": {
      const step = String(body.step ?? "") as StepName;
      const ctx = await stepContext(w.env, form);
      // Moving back (or to the step after a completed one) only: steps cannot be skipped forward.
      if (!canOpen(step, form, ctx) && !(step === "details" && form.current_step === "additional-services"))
        return apiError("step-not-open", 400);
      return respond(
        w,
        await saveOrderForm(context.app.db, form, {
          current_step: step === "details" && form.current_step === "additional-services" ? "details" : form.current_step,
        }),
      );
    }
    case "PUT journal":
      return saved(w, await saveJournal(w.env, form, body));
    case "PUT details": {
      // "details form, or currencyIso alone" (spec 1 §7).
      if (body.currencyIso !== undefined && body.projectTitle === undefined)
        return saved(w, await saveCurrency(w.env, form, body.currencyIso));
      const journal = (body.journal ?? {}) as { name?: string; url?: string };
      return saved(
        w,
        await saveDetails(w.env, form, {
          projectTitle: String(body.projectTitle ?? ""),
          areaOfStudyId: body.areaOfStudyId as number,
          styleOfEnglish: (body.styleOfEnglish as string) ?? null,
          journalName: journal.name ?? null,
          journalUrl: journal.url ?? null,
        }),
      );
    }
    case "POST payments":
    case "PUT payments": {
      const r = await placeOrder(w.env, form, {
        paymentMethodId: Number(body.paymentMethodId),
        purchaseOrder: (body.purchaseOrder as string) ?? null,
        acceptTerms: body.acceptedTermsAndConditions === true,
      });
      if (!r.ok) return json({ error: r.error }, r.error === "sign-in-required" ? 401 : 400);
      return json(
        { order: r.order, redirectUri: `/${w.lang}/researcher/index/details/${r.order.externalId}/thank-you` },
        r.order.alreadyPlaced ? 200 : 201,
      );
    }
    default:
      return apiError("not-found", 404);
  }
}

/** The API has no language prefix; the wizard helpers expect one, so give them the visitor's language. */
function withLang(request: Request): Request {
  const url = new URL(request.url);
  const lang = (request.headers.get("cookie") ?? "").match(/(?:^|;\s*)lang=(en|cn|jp|br|es)/)?.[1] ?? "en";
  url.pathname = `/${lang}${url.pathname}`;
  return new Request(url, request);
}
