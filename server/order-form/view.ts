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
import { getCatalogue } from "../catalogue";

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
