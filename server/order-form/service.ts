// The order form's business rules: what each step saves and checks, the
// server-side price (never from the client), and placing the order.
import type { Scope } from "../scope";
import {
  availableBundles,
  bundleSelections,
  checkPromoCode,
  getCatalogue,
  learnMoreTerms,
  priceSelection,
  priceTotal,
  validateBundleAnswers,
  type Bundle,
  type BundleAnswers,
  type Catalogue,
  type CatalogueService,
  type PriceInput,
  type PriceResult,
  type ServiceSelection,
} from "../catalogue";
import { listFiles, type StoredFile } from "../documents/storage";
import { documentDetails } from "../documents/analysis";
import { advance, currentStepOf, stepsView, type StepContext, type StepName, type StepsView } from "./steps";
import { ownerOf, saveOrderForm, type OrderFormRow, type Owner } from "./store";
import { REWORK_GROUP, reworkView } from "./rework";

import { PROJECT_TITLE_MAX, WORD_COUNT_MAX } from "#common/order-form/constants";

export { PROJECT_TITLE_MAX, WORD_COUNT_MAX };
export const CUSTOMER_GOALS = [
  { name: "manuscript", requiresWordCount: true },
  { name: "multimedia", requiresWordCount: false },
] as const;
export type CustomerGoal = (typeof CUSTOMER_GOALS)[number]["name"];

export type FieldErrors = Record<string, string[]>;
export type SaveResult = { ok: true; form: OrderFormRow } | { ok: false; fieldErrors: FieldErrors; formError?: string };

export function fileOwner(owner: Owner) {
  return owner.userId ? { ownerUserId: owner.userId, draftKey: owner.draftKey } : { draftKey: owner.draftKey };
}

export async function stepContext(scope: Scope, form: OrderFormRow): Promise<StepContext> {
  return scope.memo(`sctx:${form.id}:${form.version}`, async () => {
    const snapshot = await scope.app.config.snapshot();
    return {
      // A re-edit is priced against its original order with the re-edit discount: bundles (new services at a bundle price) are not offered on it.
      bundlesEnabled: snapshot.flags.service_bundles && Boolean(snapshot.config.allowsServiceBundles) && !form.rework,
      duplicatePending: form.duplicate_choice === null && (await findDuplicate(scope, form)) !== null,
    };
  });
}

/** Selections stored on the form, as the pricing engine takes them. */
export function selectionsOf(form: OrderFormRow): ServiceSelection[] {
  return (form.selections ?? []).map((s) => ({
    serviceSlug: s.serviceSlug,
    quantity: s.quantity,
    ...(s.originalServiceSlug ? { originalServiceSlug: s.originalServiceSlug } : {}),
  }));
}

/** The server-side price of the form as it stands (null before any service is chosen). */
export async function priceForm(scope: Scope, form: OrderFormRow, catalogue?: Catalogue): Promise<PriceResult | null> {
  return scope.memo(`price:${form.id}:${form.version}`, () => computePrice(scope, form, catalogue));
}

/** What the pricing engine needs to know of the form besides the selection. */
function priceBase(scope: Scope, form: OrderFormRow, now: Date): Omit<PriceInput, "selections" | "deliveryTier"> {
  return {
    currencyIso: form.currency_iso.trim(),
    wordCount: Math.max(form.word_count ?? 1, 1),
    languageId: form.language_id ?? 1,
    localization: scope.localization,
    areaOfStudyId: form.area_of_study_id,
    now,
    impersonating: scope.impersonatorId !== null,
    isReedit: form.rework,
  };
}

async function computePrice(scope: Scope, form: OrderFormRow, catalogue?: Catalogue): Promise<PriceResult | null> {
  const selections = selectionsOf(form);
  if (!selections.length) return null;
  const cat = catalogue ?? (await getCatalogue(scope.app));
  const snapshot = await scope.app.config.snapshot();
  return priceSelection(cat, {
    ...priceBase(scope, form, new Date()),
    selections,
    deliveryTier: form.delivery_tier,
    bundleId: form.bundle_id,
    promoCode: form.promo_code,
    flags: { show_express_service_options: snapshot.flags.show_express_service_options },
  });
}

/**
 * The price of one service alone, at the form's word count, language and
 * currency with standard delivery: the figure on its card in the services and
 * additional-services steps. Null when the service cannot be priced for this
 * manuscript (the card then shows no price).
 */
export function servicePrice(
  scope: Scope,
  form: OrderFormRow,
  catalogue: Catalogue,
  service: { slug: string; originalServiceSlug?: string },
  now = new Date(),
): number | null {
  try {
    const selection = {
      serviceSlug: service.slug,
      quantity: 1,
      ...(service.originalServiceSlug ? { originalServiceSlug: service.originalServiceSlug } : {}),
    };
    return priceTotal(catalogue, { ...priceBase(scope, form, now), selections: [selection], deliveryTier: "standard" });
  } catch {
    return null;
  }
}

export interface BundleOffer {
  id: number;
  nameKey: string;
  descriptionKey: string | null;
  /** Standard delivery ("none"), in minor units; null when it cannot be priced. */
  total: number | null;
  discount: number;
  rush: number | null;
  express: number | null;
  terms: string[];
}

/** The bundle cards offered for the form's answers, each priced for none, rush and express delivery. */
export async function bundleOffers(scope: Scope, form: OrderFormRow, catalogue: Catalogue): Promise<BundleOffer[]> {
  const answers = answersOf(form);
  const snapshot = await scope.app.config.snapshot();
  const now = new Date();
  return availableBundles(catalogue, answers).map((b: Bundle) => {
    const price = (deliveryTier: "standard" | "rush" | "express") => {
      try {
        return priceSelection(catalogue, {
          ...priceBase(scope, form, now),
          selections: bundleSelections(catalogue, b, answers),
          bundleId: b.id,
          deliveryTier,
          flags: { show_express_service_options: snapshot.flags.show_express_service_options },
        });
      } catch {
        return null;
      }
    };
    const standard = price("standard");
    return {
      id: b.id,
      nameKey: b.nameKey,
      descriptionKey: b.descriptionKey,
      total: standard?.total ?? null,
      discount: standard?.discounts.find((d) => d.kind === "Service bundle discount" && d.applied)?.appliedAmount ?? 0,
      rush: standard?.rushAvailable ? (price("rush")?.total ?? null) : null,
      express: standard?.expressAvailable ? (price("express")?.total ?? null) : null,
      terms: learnMoreTerms(b, [b.primaryServiceSlug, ...b.addOnSlugs]),
    };
  });
}

export async function formFiles(scope: Scope, form: OrderFormRow): Promise<StoredFile[]> {
  return listFiles(scope.app, fileOwner(ownerOf(scope)), { orderFormId: form.id });
}

async function advanceFrom(
  scope: Scope,
  form: OrderFormRow,
  step: StepName,
  patch: Parameters<typeof saveOrderForm>[2],
): Promise<OrderFormRow> {
  const next = { ...form, ...patch } as OrderFormRow;
  const ctx = await stepContext(scope, next);
  return saveOrderForm(scope.app.db, form, { ...patch, current_step: advance(next, step, ctx) });
}

// ---- get-started ----------------------------------------------------------

export interface GetStartedInput {
  customerGoal?: string;
  uploadFilesLater?: boolean;
  wordCount?: string | number | null;
  languageId?: string | number | null;
}

export async function saveGetStarted(scope: Scope, form: OrderFormRow, input: GetStartedInput): Promise<SaveResult> {
  const errors: FieldErrors = {};
  const goal = CUSTOMER_GOALS.find((g) => g.name === input.customerGoal);
  if (!goal) errors.customerGoal = ["order:errors.make-selection"];
  const files = await formFiles(scope, form);
  const mainFiles = files.filter((f) => f.kind === "main" || f.kind === "figure");
  if (!input.uploadFilesLater && mainFiles.length === 0) errors.files = ["order:errors.files-required"];
  let wordCount: number | null = null;
  let languageId: number | null = null;
  if (goal?.requiresWordCount) {
    const raw = String(input.wordCount ?? "").trim();
    if (raw === "") errors.wordCount = ["order:errors.value-required"];
    else {
      wordCount = Number(raw);
      if (!Number.isInteger(wordCount) || wordCount < 1 || wordCount > WORD_COUNT_MAX)
        errors.wordCount = ["order:errors.word-count-range-error"];
    }
    languageId = Number(input.languageId);
    const language = Number.isInteger(languageId)
      ? await scope.app.db.selectFrom("languages").select("id").where("id", "=", languageId).executeTakeFirst()
      : undefined;
    if (!language) errors.languageId = ["order:errors.value-required"];
  }
  if (Object.keys(errors).length) return { ok: false, fieldErrors: errors };
  // Changing the goal changes the services on offer: the old selection would not fit.
  const goalChanged = goal!.name !== form.customer_goal;
  const saved = await advanceFrom(scope, form, form.rework ? "rework-get-started" : "get-started", {
    customer_goal: goal!.name,
    upload_files_later: Boolean(input.uploadFilesLater),
    word_count: goal!.requiresWordCount ? wordCount : form.word_count,
    language_id: goal!.requiresWordCount ? languageId : form.language_id,
    ...(goalChanged ? { selections: JSON.stringify([]), delivery_tier: "standard" as const, decline_editing: false } : {}),
  });
  return { ok: true, form: saved };
}

// ---- service selection ------------------------------------------------------

export interface ServicesInput {
  serviceSlugs: string[];
  declineEditing?: boolean;
  rush?: boolean;
  express?: boolean;
  quantities?: Record<string, number>;
}

const MULTIMEDIA_GROUPS = new Set(["figures"]);

/** The quantities a step's form posts as quantity.<service> fields (figures, tables). */
export function quantitiesFromFields(fields: Record<string, string>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([k]) => k.startsWith("quantity."))
      .map(([k, v]) => [k.slice("quantity.".length), Number(v)]),
  );
}

/**
 * The services a form may choose on its services step: a rework form the rework
 * services its original order allows, each with the original it reworks; any
 * other form every active service outside the rework group.
 */
export async function selectableServices(
  scope: Scope,
  form: OrderFormRow,
  catalogue: Catalogue,
): Promise<Map<string, CatalogueService & { originalServiceSlug?: string }>> {
  const rework = form.rework ? await reworkView(scope, form) : null;
  const out = new Map<string, CatalogueService & { originalServiceSlug?: string }>();
  for (const s of catalogue.services) {
    if (!s.active) continue;
    if (rework) {
      if (rework.originals[s.slug]) out.set(s.slug, { ...s, originalServiceSlug: rework.originals[s.slug] });
    } else if (s.group !== REWORK_GROUP) out.set(s.slug, s);
  }
  return out;
}

export async function saveServices(
  scope: Scope,
  form: OrderFormRow,
  input: ServicesInput,
  step: "manuscript-services" | "multimedia-services",
): Promise<SaveResult> {
  const catalogue = await getCatalogue(scope.app);
  const known = await selectableServices(scope, form, catalogue);
  const slugs = [...new Set(input.serviceSlugs)].filter((s) => known.has(s));
  const errors: FieldErrors = {};
  if (step === "multimedia-services") {
    if (!slugs.length || !slugs.every((s) => MULTIMEDIA_GROUPS.has(known.get(s)!.group)))
      errors.serviceSlugs = ["order:errors.multimedia-required"];
  } else if (!slugs.length && !input.declineEditing) {
    errors.serviceSlugs = ["order:errors.make-selection"];
  }
  const selections = slugs.map((slug) => {
    const service = known.get(slug)!;
    const quantity = service.price.unit ? Number(input.quantities?.[slug] ?? 1) : undefined;
    if (quantity !== undefined && (!Number.isInteger(quantity) || quantity < 1 || quantity > 25))
      errors[`quantity.${slug}`] = ["order:errors.quantity-range-error"];
    return {
      serviceSlug: slug,
      ...(quantity !== undefined ? { quantity } : {}),
      ...(service.originalServiceSlug ? { originalServiceSlug: service.originalServiceSlug } : {}),
    };
  });
  if (Object.keys(errors).length) return { ok: false, fieldErrors: errors };
  // Spec 1 §4: editing sends a delivery tier; standard by default, rush or express when ticked (never both).
  const tier = input.express ? "express" : input.rush ? "rush" : "standard";
  const saved = await advanceFrom(scope, form, step, {
    selections: JSON.stringify(selections),
    decline_editing: Boolean(input.declineEditing) && step === "manuscript-services",
    delivery_tier: tier,
    // A new choice of services leaves any bundle chosen before.
    bundle_id: null,
  });
  // A tier that is not available for this selection falls back to standard (the engine says which it priced).
  const price = await priceForm(scope, saved, catalogue);
  if (price && price.deliveryTier !== saved.delivery_tier)
    return { ok: true, form: await saveOrderForm(scope.app.db, saved, { delivery_tier: price.deliveryTier }) };
  return { ok: true, form: saved };
}

/**
 * A service card's toggle button: selects or deselects one service and stays on
 * the step (the furthest step reached is kept). Choosing a service clears
 * "decline editing" and any bundle chosen before.
 */
export async function toggleService(
  scope: Scope,
  form: OrderFormRow,
  slug: string,
  quantities: Record<string, number> = {},
): Promise<SaveResult> {
  const catalogue = await getCatalogue(scope.app);
  const service = (await selectableServices(scope, form, catalogue)).get(slug);
  if (!service) return { ok: false, fieldErrors: { serviceSlugs: ["order:errors.make-selection"] } };
  const current = form.selections ?? [];
  let selections;
  if (current.some((s) => s.serviceSlug === slug)) {
    selections = current.filter((s) => s.serviceSlug !== slug);
  } else {
    const quantity = service.price.unit ? Number(quantities[slug] ?? 1) : undefined;
    if (quantity !== undefined && (!Number.isInteger(quantity) || quantity < 1 || quantity > 25))
      return { ok: false, fieldErrors: { [`quantity.${slug}`]: ["order:errors.quantity-range-error"] } };
    selections = [
      ...current,
      {
        serviceSlug: slug,
        ...(quantity !== undefined ? { quantity } : {}),
        ...(service.originalServiceSlug ? { originalServiceSlug: service.originalServiceSlug } : {}),
      },
    ];
  }
  return {
    ok: true,
    form: await saveOrderForm(scope.app.db, form, { selections: JSON.stringify(selections), decline_editing: false, bundle_id: null }),
  };
}

export async function saveDeliveryTier(scope: Scope, form: OrderFormRow, tier: "standard" | "rush" | "express"): Promise<SaveResult> {
  const saved = await saveOrderForm(scope.app.db, form, { delivery_tier: tier });
  const price = await priceForm(scope, saved);
  if (price && price.deliveryTier !== tier) {
    // Not offered for this selection: the form keeps the tier the engine priced.
    await saveOrderForm(scope.app.db, saved, { delivery_tier: price.deliveryTier });
    return { ok: false, fieldErrors: { deliveryTier: ["order:errors.delivery-tier-unavailable"] } };
  }
  return { ok: true, form: saved };
}

// ---- additional services ------------------------------------------------------

/** Add-ons offered after the main service (the config's upsells: figures, formatting, journal recommendation). */
export async function upsellSlugs(scope: Scope): Promise<string[]> {
  const { config } = await scope.app.config.snapshot();
  const out: string[] = [];
  if (config.upsells.formatting) out.push("manuscript-formatting", "figure-formatting", "table-formatting");
  if (config.upsells.figures) out.push("graphical-abstract", "custom-illustration");
  if (config.upsells.journalRec) out.push("journal-recommendation", "plagiarism-check", "cover-letter");
  return out;
}

/**
 * Saves the additional-services step. With `toggle`, that add-on's box is
 * flipped on top of the posted ones and the visitor stays on the step (the
 * furthest step reached is kept); otherwise the step is done.
 */
export async function saveAdditional(
  scope: Scope,
  form: OrderFormRow,
  input: { addOnSlugs: string[]; quantities?: Record<string, number>; bundleInterest?: boolean; toggle?: string },
): Promise<SaveResult> {
  if (input.toggle) {
    const posted = new Set(input.addOnSlugs);
    if (posted.has(input.toggle)) posted.delete(input.toggle);
    else posted.add(input.toggle);
    const r = await saveAdditional(scope, form, { ...input, addOnSlugs: [...posted], toggle: undefined });
    return r.ok ? { ok: true, form: await saveOrderForm(scope.app.db, r.form, { current_step: form.current_step }) } : r;
  }
  const offered = new Set(await upsellSlugs(scope));
  const base = (form.selections ?? []).filter((s) => !offered.has(s.serviceSlug));
  const errors: FieldErrors = {};
  const addOns = [...new Set(input.addOnSlugs)]
    .filter((s) => offered.has(s))
    .map((slug) => {
      const counted = slug === "figure-formatting" || slug === "table-formatting";
      const quantity = counted ? Number(input.quantities?.[slug] ?? 1) : undefined;
      if (quantity !== undefined && (!Number.isInteger(quantity) || quantity < 1 || quantity > 25))
        errors[`quantity.${slug}`] = ["order:errors.quantity-range-error"];
      return { serviceSlug: slug, ...(quantity !== undefined ? { quantity } : {}) };
    });
  if (Object.keys(errors).length) return { ok: false, fieldErrors: errors };
  const selections = [...base, ...addOns];
  if (!selections.length) return { ok: false, fieldErrors: { addOnSlugs: ["order:errors.make-selection"] } };
  return {
    ok: true,
    form: await advanceFrom(scope, form, "additional-services", {
      selections: JSON.stringify(selections),
      bundle_interest: Boolean(input.bundleInterest),
      bundle_id: null,
    }),
  };
}

// ---- details --------------------------------------------------------------------

export interface DetailsInput {
  projectTitle?: string;
  areaOfStudyId?: string | number | null;
  styleOfEnglish?: string | null;
  journalName?: string | null;
  journalUrl?: string | null;
}

export async function saveDetails(scope: Scope, form: OrderFormRow, input: DetailsInput): Promise<SaveResult> {
  const errors: FieldErrors = {};
  const title = (input.projectTitle ?? "").trim();
  if (!title) errors.projectTitle = ["order:errors.project-title-required"];
  else if (title.length > PROJECT_TITLE_MAX) errors.projectTitle = ["order:errors.project-title-too-long"];
  const areaId = Number(input.areaOfStudyId);
  const area =
    Number.isInteger(areaId) && areaId > 0
      ? await scope.app.db.selectFrom("areas_of_study").select("id").where("id", "=", areaId).executeTakeFirst()
      : undefined;
  if (!area) errors.areaOfStudyId = ["order:errors.area-of-study-error"];
  const catalogue = await getCatalogue(scope.app);
  const editing = (form.selections ?? []).some((s) => catalogue.services.find((c) => c.slug === s.serviceSlug)?.type === "editing");
  const style = input.styleOfEnglish ?? null;
  if (editing && style !== "british" && style !== "american") errors.styleOfEnglish = ["order:errors.style-of-english-required"];
  const journalName = (input.journalName ?? "").trim();
  const journalUrl = (input.journalUrl ?? "").trim();
  if (journalUrl && (!/^https?:\/\//i.test(journalUrl) || journalUrl.length > 255))
    errors.journalUrl = ["order:errors.journal-url-invalid"];
  const files = await formFiles(scope, form);
  if (!files.some((f) => f.kind === "main" || f.kind === "figure")) errors.mainFiles = ["order:errors.no-files"];
  if (Object.keys(errors).length) return { ok: false, fieldErrors: errors };
  return {
    ok: true,
    form: await advanceFrom(scope, form, "details", {
      project_title: title,
      area_of_study_id: areaId,
      style_of_english: editing ? style : null,
      journal: journalName ? JSON.stringify({ name: journalName, ...(journalUrl ? { url: journalUrl } : {}) }) : null,
    }),
  };
}

// ---- duplicate check --------------------------------------------------------------

/** An order of the same user with the same title in the last 7 days (spec 1 §4 "Details form"). */
export async function findDuplicate(scope: Scope, form: Pick<OrderFormRow, "project_title">) {
  if (!scope.userId || !form.project_title) return null;
  const row = await scope.app.db
    .selectFrom("orders")
    .select(["external_id", "title", "created_at"])
    .where("user_id", "=", scope.userId)
    .where((eb) => eb(eb.fn("lower", ["title"]), "=", form.project_title!.toLowerCase()))
    .where("created_at", ">", new Date(Date.now() - 7 * 24 * 3600 * 1000))
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  if (!row) return null;
  const date = new Date(row.created_at);
  return {
    externalId: row.external_id,
    title: row.title,
    date: date.toISOString(),
    hoursAgo: Math.max(0, Math.floor((Date.now() - date.getTime()) / 3600_000)),
  };
}

export async function saveDuplicateChoice(scope: Scope, form: OrderFormRow, choice: string | undefined): Promise<SaveResult> {
  if (choice !== "new-order" && choice !== "question") return { ok: false, fieldErrors: { choice: ["order:errors.make-selection"] } };
  if (choice === "question") return { ok: true, form };
  // Answered: the duplicate screen leaves the steps, and the order goes on to payment.
  return { ok: true, form: await saveOrderForm(scope.app.db, form, { duplicate_choice: "new-order", current_step: "payment-details" }) };
}

export async function stepsFor(scope: Scope, form: OrderFormRow, t: (k: string) => string, viewing?: StepName): Promise<StepsView> {
  return stepsView(form, await stepContext(scope, form), scope.lang, t, viewing);
}

export async function currentStep(scope: Scope, form: OrderFormRow): Promise<StepName> {
  return currentStepOf(form, await stepContext(scope, form));
}

export async function manuscriptDetails(scope: Scope, form: OrderFormRow) {
  const files = (await formFiles(scope, form)).filter((f) => f.kind === "main");
  return documentDetails(
    scope.app,
    files.map((f) => f.id),
  );
}

// ---- promo codes (spec 1 §4 "Discounts", §8) ---------------------------------------

export type PromoResult =
  { ok: true; form: OrderFormRow; message: "coupon-applied-message" | "best-discount-applied" } | { ok: false; error: string };

const PROMO_ERRORS: Record<string, string> = {
  "promo-code-empty": "promo-code-empty",
  "one-promo-code-per-order": "one-promo-code-per-order",
  "promo-code-invalid": "promo-code-invalid",
  "promo-code-expired": "promo-code-expired",
  "promo-code-used-up": "promo-code-used-up",
};

export async function applyPromoCode(scope: Scope, form: OrderFormRow, code: string): Promise<PromoResult> {
  const catalogue = await getCatalogue(scope.app);
  const check = checkPromoCode(catalogue, code, { now: new Date(), currentCode: form.promo_code });
  if (!check.ok) return { ok: false, error: PROMO_ERRORS[check.error] ?? "promo-code-invalid" };
  const saved = await saveOrderForm(scope.app.db, form, { promo_code: check.promo.code });
  const price = await priceForm(scope, saved, catalogue);
  // One order-level discount applies: a better one already in place keeps the code unused (spec 1 §8).
  return { ok: true, form: saved, message: price?.bestDiscountApplied ? "best-discount-applied" : "coupon-applied-message" };
}

export async function removePromoCode(scope: Scope, form: OrderFormRow): Promise<OrderFormRow> {
  return saveOrderForm(scope.app.db, form, { promo_code: null });
}

// ---- manuscript details and word count (spec 1 §4 "Word count", §5) ---------------------

export async function saveManuscriptDetails(
  scope: Scope,
  form: OrderFormRow,
  input: { wordCount?: unknown; languageId?: unknown },
): Promise<SaveResult> {
  const errors: FieldErrors = {};
  const raw = String(input.wordCount ?? "").trim();
  const wordCount = Number(raw);
  if (raw === "") errors.wordCount = ["order:errors.value-required"];
  else if (wordCount === 0) errors.wordCount = ["order:errors.value-cannot-be-zero"];
  else if (!Number.isInteger(wordCount) || wordCount < 1 || wordCount > WORD_COUNT_MAX)
    errors.wordCount = ["order:errors.word-count-range-error"];
  const languageId = input.languageId === undefined ? form.language_id : Number(input.languageId);
  if (!languageId || !(await scope.app.db.selectFrom("languages").select("id").where("id", "=", languageId).executeTakeFirst()))
    errors.languageId = ["order:errors.value-required"];
  if (Object.keys(errors).length) return { ok: false, fieldErrors: errors };
  return { ok: true, form: await saveOrderForm(scope.app.db, form, { word_count: wordCount, language_id: languageId }) };
}

// ---- referral e-mails (spec 1 §5: comma-separated, 1 to 10 in total including those already present) ----

export const REFERRAL_EMAILS_MAX = 10;

export async function saveReferralEmails(
  scope: Scope,
  form: OrderFormRow,
  input: string | string[],
): Promise<{ ok: true; form: OrderFormRow } | { ok: false; error: "referral-email-validation-error" }> {
  const entries = (Array.isArray(input) ? input : input.split(",")).map((e) => String(e).trim().toLowerCase()).filter(Boolean);
  const existing = form.referral_emails ?? [];
  const all = [...new Set([...existing, ...entries])];
  const valid = entries.every((e) => /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/.test(e) && e.length <= 254);
  if (!entries.length || !valid || all.length > REFERRAL_EMAILS_MAX) return { ok: false, error: "referral-email-validation-error" };
  return { ok: true, form: await saveOrderForm(scope.app.db, form, { referral_emails: JSON.stringify(all) }) };
}

// ---- service bundles (spec 1 §4 "Bundle flow", §9 bundle pricing) --------------------------

export function answersOf(form: OrderFormRow): BundleAnswers {
  return (form.bundle_answers ?? {}) as BundleAnswers;
}

/** Reads the bundle questions' answers from the step's form fields (checkbox groups arrive comma-joined). */
export function bundleAnswersFromFields(fields: Record<string, string>): BundleAnswers {
  const count = (v: string | undefined) => (v === undefined || v.trim() === "" ? null : Number(v));
  return {
    goals: { choices: (fields.goals ?? "").split(",").filter(Boolean) },
    figures: { on: fields.figures === "on", count: count(fields["figures.count"]) },
    tables: { on: fields.tables === "on", count: count(fields["tables.count"]) },
    journal: { journal: fields.journal?.trim() || null },
  };
}

/** Saves the bundle questions' answers; the bundles they lead to are then offered (none: 'service-bundle-no-bundles-error'). */
export async function saveBundleAnswers(
  scope: Scope,
  form: OrderFormRow,
  answers: BundleAnswers,
): Promise<{ ok: true; form: OrderFormRow; bundles: number } | { ok: false; fieldErrors: FieldErrors }> {
  const catalogue = await getCatalogue(scope.app);
  const errors = validateBundleAnswers(catalogue, answers);
  if (Object.keys(errors).length)
    return { ok: false, fieldErrors: Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, [`catalogue:errors.${v}`]])) };
  const saved = await saveOrderForm(scope.app.db, form, { bundle_answers: JSON.stringify(answers) });
  return { ok: true, form: saved, bundles: availableBundles(catalogue, answers).length };
}

/** Chooses a bundle (its services replace the selection) with a delivery of none, rush or express; or none at all. */
export async function chooseBundle(
  scope: Scope,
  form: OrderFormRow,
  input: { bundleId: number | null; delivery?: string },
): Promise<SaveResult> {
  const catalogue = await getCatalogue(scope.app);
  if (input.bundleId === null) return { ok: true, form: await advanceFrom(scope, form, "service-bundles", { bundle_id: null }) };
  if (form.rework) return { ok: false, fieldErrors: { bundleId: ["order:errors.make-selection"] } };
  const answers = answersOf(form);
  const bundle = availableBundles(catalogue, answers).find((b) => b.id === input.bundleId);
  if (!bundle) return { ok: false, fieldErrors: { bundleId: ["order:errors.make-selection"] } };
  const tier = input.delivery === "rush" || input.delivery === "express" ? input.delivery : "standard";
  const selections = bundleSelections(catalogue, bundle, answers).map((s) => ({
    serviceSlug: s.serviceSlug!,
    ...(s.quantity ? { quantity: s.quantity } : {}),
  }));
  const saved = await advanceFrom(scope, form, "service-bundles", {
    bundle_id: bundle.id,
    selections: JSON.stringify(selections),
    delivery_tier: tier,
  });
  const price = await computePrice(scope, saved, catalogue);
  // A delivery the bundle cannot have falls back to none (standard), as the engine priced it.
  if (price && price.deliveryTier !== tier)
    return { ok: true, form: await saveOrderForm(scope.app.db, saved, { delivery_tier: price.deliveryTier }) };
  return { ok: true, form: saved };
}

// ---- smaller calls of spec 1 §7 ------------------------------------------------------------

export async function saveServiceQuantity(scope: Scope, form: OrderFormRow, serviceRef: string, quantity: unknown): Promise<SaveResult> {
  const catalogue = await getCatalogue(scope.app);
  const service = catalogue.services.find((s) => s.slug === serviceRef || s.identity === serviceRef);
  const q = Number(quantity);
  const selections = form.selections ?? [];
  if (!service || !selections.some((s) => s.serviceSlug === service.slug))
    return { ok: false, fieldErrors: { serviceIdentity: ["order:errors.make-selection"] } };
  if (!service.price.unit || !Number.isInteger(q) || q < 1 || q > 25)
    return { ok: false, fieldErrors: { quantity: ["order:errors.quantity-range-error"] } };
  const next = selections.map((s) => (s.serviceSlug === service.slug ? { ...s, quantity: q } : s));
  return { ok: true, form: await saveOrderForm(scope.app.db, form, { selections: JSON.stringify(next) }) };
}

export async function saveJournal(scope: Scope, form: OrderFormRow, input: { name?: unknown; url?: unknown }): Promise<SaveResult> {
  const name = String(input.name ?? "").trim();
  const url = String(input.url ?? "").trim();
  const errors: FieldErrors = {};
  if (!name) errors.name = ["order:errors.journal-name-required"];
  if (url && (!/^https?:\/\//i.test(url) || url.length > 255)) errors.url = ["order:errors.journal-url-invalid"];
  if (Object.keys(errors).length) return { ok: false, fieldErrors: errors };
  return {
    ok: true,
    form: await saveOrderForm(scope.app.db, form, { journal: JSON.stringify({ name: name.slice(0, 255), ...(url ? { url } : {}) }) }),
  };
}

/** The order's currency: any selectable currency; CNY only on the China site (spec 1 §9). */
export async function saveCurrency(scope: Scope, form: OrderFormRow, iso: unknown): Promise<SaveResult> {
  const code = String(iso ?? "").toUpperCase();
  const row = await scope.app.db
    .selectFrom("currencies")
    .select(["iso_code", "selectable"])
    .where("iso_code", "=", code)
    .executeTakeFirst();
  if (!row || (!row.selectable && !(code === "CNY" && scope.localization === "CN")))
    return { ok: false, fieldErrors: { currencyIso: ["order:errors.generic-touchup-error"] } };
  return { ok: true, form: await saveOrderForm(scope.app.db, form, { currency_iso: code }) };
}
