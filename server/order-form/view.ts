// The order form as the JSON API returns it (spec 1 §3 "Order form"; every response carries it).
import type { Scope } from "../scope";
import { formFiles } from "./files";
import { priceForm } from "./price";
import { stepsFor } from "./progress";
import type { OrderFormRow } from "./store";
import { summarize } from "./summary";
import { fixedT } from "../i18n";
import { reworkView } from "./rework";
import { answersOf, bundleOffers } from "./bundles";
import { businessDeadline, getCatalogue, localDate } from "../catalogue";
import { formatMoney } from "#common/money";
import { manuscriptLanguages } from "./choices";
import { manuscriptDetails } from "./files";
import { type ServiceCard, serviceCards, servicesStepOf } from "./service-cards";
import { CUSTOMER_GOALS } from "./steps/get-started";
import { findDuplicate } from "./steps/duplicate";

export async function orderFormView(scope: Scope, form: OrderFormRow) {
  const t = fixedT(scope.lang, "order");
  const tc = fixedT(scope.lang, "catalogue");
  const catalogue = await getCatalogue(scope.app);
  // Bundles are priced three times each: only for a visitor who asked for them and answered the questions.
  const wantsBundles = form.bundle_interest && Object.keys(answersOf(form)).length > 0;
  const [steps, price, files, rework, offers, quote] = await Promise.all([
    stepsFor(scope, form, (k) => t(k)),
    priceForm(scope, form).catch(() => null),
    formFiles(scope, form),
    reworkView(scope, form),
    wantsBundles ? bundleOffers(scope, form, catalogue).catch(() => []) : Promise.resolve([]),
    scope.app.db
      .selectFrom("price_quotes")
      .select("estimate_id")
      .where("order_form_id", "=", form.id)
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst(),
  ]);
  const summary = summarize(price);
  const byKind = (kind: string) =>
    files.filter((f) => f.kind === kind).map((f) => ({ identity: f.id, name: f.originalName, size: f.sizeBytes }));
  const slugs = (form.selections ?? []).map((s) => s.serviceSlug);
  const has = (test: (slug: string) => boolean) => slugs.some(test);
  const hasScientificEditing = has((s) => s === "scientific-editing");
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  return {
    identity: form.id,
    version: form.version,
    status: form.status,
    currentStep: steps.current.name,
    steps,
    customerGoal: form.customer_goal,
    uploadFilesLater: form.upload_files_later,
    wordCount: form.word_count,
    manuscriptLanguageId: form.language_id,
    selectedServices: (form.selections ?? []).map((s) => s.serviceSlug),
    selections: form.selections ?? [],
    declineEditingServices: form.decline_editing,
    deliveryTier: form.delivery_tier,
    projectTitle: form.project_title,
    areaOfStudyId: form.area_of_study_id,
    styleOfEnglish: form.style_of_english,
    journal: form.journal,
    currency: summary?.currency ?? { isoCode: form.currency_iso.trim() },
    lineItems: summary?.lineItems ?? [],
    discounts: summary?.discounts ?? [],
    // Spec 1 §3 "Discount": every discount the order was priced with, applied or not (issue 9 §3.15).
    discountDetails: (price?.discounts ?? []).map((d) => ({
      kind: d.kind,
      code: d.code ?? null,
      description: t(d.descriptionKey),
      amount: d.amount,
      percentBased: d.percentBased,
      applied: d.applied,
      appliedAmount: d.appliedAmount,
      endDate: null,
    })),
    total: summary?.total ?? 0,
    deadline: summary?.deadline ?? null,
    deadlines: price
      ? { standard: price.deadlines.standard, rush: price.deadlines.rush ?? null, express: price.deadlines.express ?? null }
      : null,
    // Spec 1 §3 "Order form" fields (issue 9 §3.15); docs/api.md says which stay empty until their area lands.
    nonRushDeadline: iso(price?.deadlines.standard),
    rushDeadline: iso(price?.deadlines.rush),
    expressDeadline: iso(price?.deadlines.express),
    rushPriceDifference: price?.rushPriceDifference ?? 0,
    expressPriceDifference: price?.expressPriceDifference ?? 0,
    messages: summary?.notices ?? [],
    noServiceOption: summary?.noServiceOption ?? false,
    veryLongWordCount: summary?.veryLongWordCount ?? false,
    manuscripts: { main: byKind("main"), figures: byKind("figure"), tables: byKind("table") },
    displayedManuscripts: [...byKind("main"), ...byKind("figure"), ...byKind("table")],
    // Spec 1 §3 "Details form fields" mainReferenceFiles, figureReferenceFiles, tableReferenceFiles: what was uploaded.
    referenceFiles: { main: byKind("main_reference"), figures: byKind("figure_reference"), tables: byKind("table_reference") },
    selectedService: slugs[0] ?? null,
    services: form.selections ?? [],
    hasScientificEditing,
    hasTranslation: has((s) => s.includes("translation")),
    hasJournalRec: has((s) => s === "journal-recommendation"),
    hasTargetJournal: Boolean(form.journal?.name),
    // Journal fields are hidden for scientific editing (spec 1 §4).
    showJournalDetailsInput: !hasScientificEditing,
    serviceBundle: { interested: form.bundle_interest, id: form.bundle_id },
    // Spec 1 §3 "Service bundle" and "Bundle question".
    availableServiceBundles: offers.map((o) => {
      const b = catalogue.bundles.find((x) => x.id === o.id)!;
      return {
        id: b.id,
        slug: b.slug,
        name: tc(b.nameKey),
        primaryService: { id: b.primaryServiceSlug },
        primaryServiceName: tc(catalogue.services.find((x) => x.slug === b.primaryServiceSlug)?.nameKey ?? b.primaryServiceSlug),
        services: b.addOnSlugs,
        discount: { percent: b.discountBp / 100, displayableAmount: o.discount },
        total: o.total,
        rushTotal: o.rush,
        expressTotal: o.express,
        deadlines: b.deadlines,
        learnMoreTerms: o.terms.map((key) => tc(key)),
      };
    }),
    serviceBundleQuestions: catalogue.bundleQuestions.map((q) => ({
      id: q.id,
      slug: q.slug,
      term: tc(q.term),
      type: q.type,
      choices: q.choices.map((c) => ({ id: c.id, choice: c.choice })),
    })),
    answers: form.bundle_answers ?? {},
    adminCreated: false,
    estimateId: quote?.estimate_id ?? null,
    receiptCode: null,
    requireCustomerNotification: false,
    applicablePromotionalCodeBenefits: [],
    availableConciergeServices: [],
    projectAuthors: null,
    areaOfStudyPrediction: null,
    rushDiscountEligible: false,
    rushDiscountPercent: 0,
    referralEmails: form.referral_emails ?? [],
    promoCode: form.promo_code,
    rework: form.rework,
    // A rework form: the order it re-edits, the rework services it may choose (each with the original it reworks) and the instructions.
    reworkOf: rework ? { ...rework.order, services: rework.originals, instructions: form.rework_instructions } : null,
  };
}

/**
 * The order form as the load calls return it (GET /api/order-form/{id}/load, /load, /new; spec 1 §3 "Order form",
 * "Service", "ServiceGroup"): the form with everything the wizard's pages offer, so that an API client can build
 * the wizard from it (issue 22 item 4). Each list comes from the module its page reads: the services step's cards
 * (service-cards.ts), the get-started page's goals and languages and the document analysis, the duplicate check of
 * the details step, the localisation's business calendar the deadlines skip. Only the loads carry them: the
 * services' "from" prices cost a pricing run each, which the step saves' answers do not need.
 */
export async function orderFormLoadView(scope: Scope, form: OrderFormRow) {
  const t = fixedT(scope.lang, "order");
  const tc = fixedT(scope.lang, "catalogue");
  const catalogue = await getCatalogue(scope.app);
  const now = new Date();
  const [view, groups, languages, detected, duplicate, price] = await Promise.all([
    orderFormView(scope, form),
    serviceCards(scope, form, catalogue, servicesStepOf(form), now),
    manuscriptLanguages(scope),
    manuscriptDetails(scope, form),
    findDuplicate(scope, form),
    priceForm(scope, form, catalogue).catch(() => null),
  ]);
  const currency = price?.currency ?? {
    isoCode: form.currency_iso.trim(),
    sign: catalogue.currencies[form.currency_iso.trim()]?.sign ?? "$",
    numDecimals: catalogue.currencies[form.currency_iso.trim()]?.numDecimals ?? 2,
  };
  const calendar = catalogue.calendars[scope.localization];
  const today = calendar ? localDate(now, calendar.timeZone) : now.toISOString().slice(0, 10);
  const card = (s: ServiceCard) => ({
    id: s.slug,
    identity: s.identity,
    slug: s.slug,
    name: tc(s.nameKey),
    description: s.descriptionKey ? tc(`${s.descriptionKey}.body`) : null,
    type: s.type,
    group: s.group,
    listPrice: s.fromPrice,
    featured: s.featured,
    recommended: s.recommended,
    // A service without a price here is by quote: its card shows but cannot be priced in this currency.
    disabled: s.fromPrice === null,
    optionsDeterminedByCount: s.counted,
    selection: s.selected,
  });
  const lines = new Map((price?.lineItems ?? []).map((l) => [l.serviceSlug, l]));
  return {
    ...view,
    // Spec 1 §3 "Service (in the order form)": the chosen services with their details and priced line.
    services: (form.selections ?? []).map((sel) => {
      const s = catalogue.services.find((c) => c.slug === sel.serviceSlug);
      const line = lines.get(sel.serviceSlug);
      return {
        ...sel,
        id: sel.serviceSlug,
        identity: s?.identity ?? null,
        name: s ? tc(s.nameKey) : sel.serviceSlug,
        type: s?.type ?? "other",
        quantity: line?.quantity ?? sel.quantity ?? 1,
        listPrice: line?.listPrice ?? null,
        totalPrice: line?.totalPrice ?? null,
        deliveryTier: line?.deliveryTier ?? form.delivery_tier,
        options: {
          price: line?.totalPrice ?? null,
          // The line's own business days from now, as the pricing engine counts the order's deadline.
          deadline:
            line && line.turnaroundDays !== null && calendar ? businessDeadline(now, line.turnaroundDays, calendar).toISOString() : null,
          rush: (line?.deliveryTier ?? form.delivery_tier) === "rush",
          deliveryTier: (line?.deliveryTier ?? form.delivery_tier) === "express" ? "express" : "standard",
          timeline: line?.turnaroundDays ?? null,
          ...(s?.price.unit === "figure" ? { figureCount: line?.quantity ?? sel.quantity ?? 1 } : {}),
          ...(s?.price.unit === "table" ? { tableCount: line?.quantity ?? sel.quantity ?? 1 } : {}),
        },
        featured: s?.featured ?? false,
        recommended: s?.recommended ?? false,
        optionsDeterminedByCount: Boolean(s?.price.unit),
      };
    }),
    availableServices: groups.flatMap((g) => g.services.map(card)),
    serviceGroups: groups.map((g) => ({
      slug: g.slug,
      name: tc(g.nameKey),
      serviceType: g.serviceType,
      columns: g.columns,
      services: g.services.map((s) => s.slug),
      price: g.fromPrice,
      priceLabel: g.fromPrice === null ? null : t("fromPrice", { price: formatMoney(g.fromPrice, currency) }),
    })),
    customerGoals: CUSTOMER_GOALS.map((g) => ({ name: g.name, requiresWordCount: g.requiresWordCount })),
    manuscriptLanguages: languages.map((l) => ({ id: l.id, name: l.name })),
    // What the analysis of the uploaded manuscript found (the get-started page offers it until the visitor saves).
    detectedLanguageId: detected.documentDetailsReceived ? detected.manuscriptLanguageId : null,
    calculatedWordCount: detected.documentDetailsReceived ? detected.wordCount : null,
    // The public holidays the deadlines skip, from today in the localisation's clock (ISO dates).
    holidays: (calendar?.holidays ?? []).filter((d) => d >= today).sort(),
    duplicateOrder: duplicate ? { externalId: duplicate.externalId, date: duplicate.date, title: duplicate.title } : null,
  };
}
