// The get-started step (spec 1 §4): the goal, the files (or "upload later"), word count and language;
// and the manuscript details the API may change later (word count, language).
import { invalid, ok } from "#common/result";
import { serialIdOf } from "#common/integers";
import { type BasicDetails, checkField, wordCountField } from "#common/order-form/schemas";
import type { Scope } from "../../scope";
import { getBinForWordCount, getBinPrice, getCatalogue } from "../../catalogue";
import { formFiles, manuscriptDetails } from "../files";
import { settleDeliveryTier } from "../price";
import { advanceFrom } from "../progress";
import { type OrderFormRow, saveOrderForm } from "../store";
import type { FieldErrors, SaveResult } from "../types";

export const CUSTOMER_GOALS = [
  { name: "manuscript", requiresWordCount: true },
  { name: "multimedia", requiresWordCount: false },
] as const;
export type CustomerGoal = (typeof CUSTOMER_GOALS)[number]["name"];

// ---- get-started ----------------------------------------------------------

/** The get-started step as its schema parses it (page and API alike; values are checked here). */
export type GetStartedInput = BasicDetails;

export async function saveGetStarted(scope: Scope, form: OrderFormRow, input: GetStartedInput): Promise<SaveResult> {
  const errors: FieldErrors = {};
  const goal = CUSTOMER_GOALS.find((g) => g.name === input.customerGoal);
  if (!goal) errors.customerGoal = "order:errors.make-selection";
  const files = await formFiles(scope, form);
  const mainFiles = files.filter((f) => f.kind === "main" || f.kind === "figure");
  if (!input.uploadFilesLater && mainFiles.length === 0) errors.files = "order:errors.files-required";
  let wordCount: number | null = null;
  let languageId: number | null = null;
  if (goal?.requiresWordCount) {
    const words = checkField(wordCountField, input.wordCount);
    if (words.ok) wordCount = words.value;
    else errors.wordCount = words.error;
    // Bounded to the column (ADR 044): a value no language id can be is not looked up at all.
    languageId = serialIdOf(input.languageId);
    const language =
      languageId !== null
        ? await scope.app.db.selectFrom("languages").select("id").where("id", "=", languageId).executeTakeFirst()
        : undefined;
    if (!language) errors.languageId = "order:errors.value-required";
  }
  if (Object.keys(errors).length) return invalid(errors);
  // Changing the goal changes the services on offer: the old selection would not fit.
  const goalChanged = goal!.name !== form.customer_goal;
  const saved = await advanceFrom(scope, form, form.rework ? "rework-get-started" : "get-started", {
    customer_goal: goal!.name,
    upload_files_later: Boolean(input.uploadFilesLater),
    word_count: goal!.requiresWordCount ? wordCount : form.word_count,
    language_id: goal!.requiresWordCount ? languageId : form.language_id,
    ...(goalChanged ? { selections: JSON.stringify([]), delivery_tier: "standard" as const, decline_editing: false } : {}),
  });
  // A new word count or language may take away the express (4,000–5,999 words) or rush delivery chosen before.
  return ok(await settleDeliveryTier(scope, saved));
}

// ---- manuscript details and word count (spec 1 §4 "Word count", §5) ---------------------

/**
 * The manuscript's word count and language. PUT …/manuscript-details must name the language (spec 1 §5:
 * "language required"); the word-count calls (PUT …/update-word-count, the services page's word-count form)
 * change the count alone and keep the form's language (`languageRequired: false`).
 */
export async function saveManuscriptDetails(
  scope: Scope,
  form: OrderFormRow,
  input: { wordCount?: unknown; languageId?: unknown },
  options: { languageRequired?: boolean } = {},
): Promise<SaveResult> {
  const errors: FieldErrors = {};
  const raw = String(input.wordCount ?? "").trim();
  const words = checkField(wordCountField, raw);
  const wordCount = words.ok ? words.value : 0;
  // A zero says more than "out of range" where the count is edited on its own (spec 1 §4 "Word count").
  if (!words.ok) errors.wordCount = raw !== "" && Number(raw) === 0 ? "order:errors.value-cannot-be-zero" : words.error;
  const given = input.languageId !== undefined && input.languageId !== null && input.languageId !== "";
  const languageId = given ? serialIdOf(input.languageId) : options.languageRequired === false ? form.language_id : null;
  if (!languageId || !(await scope.app.db.selectFrom("languages").select("id").where("id", "=", languageId).executeTakeFirst()))
    errors.languageId = "order:errors.value-required";
  if (Object.keys(errors).length) return invalid(errors);
  const saved = await saveOrderForm(scope.app.db, form, { word_count: wordCount, language_id: languageId });
  return ok(await settleDeliveryTier(scope, saved));
}

// ---- the word-bin mismatch notice (spec 1 §4 "Word count") ------------------------------------

/** The service whose word bin prices the form: its editing or translation service, else Standard Editing. */
export function binServiceOf(form: Pick<OrderFormRow, "selections">): string {
  return (form.selections ?? []).find((s) => /editing|translation/.test(s.serviceSlug))?.serviceSlug ?? "standard-editing";
}

export interface WordBinMismatch {
  /** The words the analysis counted, and those the form holds. */
  counted: number;
  entered: number;
  /** The word bin and standard price (minor units of the form's currency) the counted words fall in. */
  bin: string | null;
  price: number;
}

/**
 * When the analysis counted words that fall in another word bin than the count on the form: what the
 * counted words would cost (the bin lookup of GET …/get-bin-price), for the closable notice whose form
 * changes the count. Null when there is nothing to say.
 */
export async function wordBinMismatch(scope: Scope, form: OrderFormRow): Promise<WordBinMismatch | null> {
  if (form.customer_goal !== "manuscript" || form.word_count === null) return null;
  const details = await manuscriptDetails(scope, form);
  if (!details.documentDetailsReceived || !details.wordCount || details.wordCount === form.word_count) return null;
  const catalogue = await getCatalogue(scope.app);
  const bin = (words: number) => getBinForWordCount(catalogue, words)?.name ?? null;
  if (bin(details.wordCount) === bin(form.word_count)) return null;
  const lookup = getBinPrice(catalogue, {
    serviceSlug: binServiceOf(form),
    wordCount: details.wordCount,
    currencyIso: form.currency_iso.trim(),
    now: new Date(),
  });
  if (!lookup.ok) return null;
  return { counted: details.wordCount, entered: form.word_count, bin: lookup.newWordBin, price: lookup.price };
}
