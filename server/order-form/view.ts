// The order form as the JSON API returns it (spec 1 §3 "Order form"; every response carries it).
import type { Scope } from "../scope";
import { formFiles } from "./files";
import { priceForm } from "./price";
import { stepsFor } from "./progress";
import type { OrderFormRow } from "./store";
import { summarize } from "./summary";
import { fixedT } from "../i18n";
import { reworkView } from "./rework";

export async function orderFormView(scope: Scope, form: OrderFormRow) {
  const t = fixedT(scope.lang, "order");
  const [steps, price, files, rework] = await Promise.all([
    stepsFor(scope, form, (k) => t(k)),
    priceForm(scope, form).catch(() => null),
    formFiles(scope, form),
    reworkView(scope, form),
  ]);
  const summary = summarize(price);
  const byKind = (kind: string) =>
    files.filter((f) => f.kind === kind).map((f) => ({ identity: f.id, name: f.originalName, size: f.sizeBytes }));
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
    total: summary?.total ?? 0,
    deadline: summary?.deadline ?? null,
    deadlines: price
      ? { standard: price.deadlines.standard, rush: price.deadlines.rush ?? null, express: price.deadlines.express ?? null }
      : null,
    rushPriceDifference: price?.rushPriceDifference ?? 0,
    expressPriceDifference: price?.expressPriceDifference ?? 0,
    messages: summary?.notices ?? [],
    noServiceOption: summary?.noServiceOption ?? false,
    veryLongWordCount: summary?.veryLongWordCount ?? false,
    manuscripts: { main: byKind("main"), figures: byKind("figure"), tables: byKind("table") },
    referralEmails: form.referral_emails ?? [],
    promoCode: form.promo_code,
    rework: form.rework,
    // A rework form: the order it re-edits, the rework services it may choose (each with the original it reworks) and the instructions.
    reworkOf: rework ? { ...rework.order, services: rework.originals, instructions: form.rework_instructions } : null,
  };
}
