// Bundle questions and bundle choice (spec 1 §4 "Bundle flow", §5 bundle
// question rules). Answers are keyed by question slug.
import { validateQuantity } from "./rules";
import type { Bundle, Catalogue, ServiceSelection } from "./types";

export interface BundleAnswer {
  /** multiple-choice: the chosen choice codes. */
  choices?: string[];
  /** toggle-type: switched on. */
  on?: boolean;
  /** toggle-type / int: the count (figures, tables). */
  count?: number | null;
  /** journal-select: the journal's name. */
  journal?: string | null;
}

export type BundleAnswers = Record<string, BundleAnswer | undefined>;

/** Error code of a counted toggle that is on without a count ('tables-on-with-no-table-count'). */
function missingCountError(unit: "figure" | "table" | null | undefined, slug: string): string {
  if (unit === "table") return "tables-on-with-no-table-count";
  if (unit === "figure") return "figures-on-with-no-figure-count";
  return `${slug}-on-with-no-count`;
}

/** Field errors (question slug → error code); empty when the answers are complete. */
export function validateBundleAnswers(
  catalogue: Pick<Catalogue, "bundleQuestions" | "services">,
  answers: BundleAnswers,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const q of catalogue.bundleQuestions) {
    const a = answers[q.slug] ?? {};
    switch (q.type) {
      case "multiple-choice": {
        const known = new Set(q.choices.map((c) => c.choice));
        const chosen = (a.choices ?? []).filter((c) => known.has(c));
        if (q.required && chosen.length === 0) errors[q.slug] = "selectOneCheckbox";
        break;
      }
      case "toggle-type":
      case "int": {
        const on = q.type === "int" || a.on === true;
        if (!on) break;
        const service = q.serviceSlug ? catalogue.services.find((s) => s.slug === q.serviceSlug) : undefined;
        if (a.count === undefined || a.count === null) {
          if (q.type === "toggle-type" || q.required) errors[q.slug] = missingCountError(service?.price.unit, q.slug);
        } else {
          const error = validateQuantity(a.count, service);
          if (error) errors[q.slug] = error;
        }
        break;
      }
      case "journal-select": {
        const required = q.required || (q.requiredWith !== null && answers[q.requiredWith]?.on === true);
        if (required && !a.journal?.trim()) errors[q.slug] = "journalForTableFormatting";
        break;
      }
    }
  }
  return errors;
}

/**
 * The bundles the answers lead to, in catalogue order. None means the form shows
 * 'service-bundle-no-bundles-error'.
 */
export function availableBundles(catalogue: Pick<Catalogue, "bundleQuestions" | "bundles">, answers: BundleAnswers): Bundle[] {
  const slugs = new Set<string>();
  for (const q of catalogue.bundleQuestions) {
    if (q.type !== "multiple-choice") continue;
    const chosen = new Set(answers[q.slug]?.choices ?? []);
    for (const c of q.choices) if (chosen.has(c.choice)) for (const s of c.bundleSlugs) slugs.add(s);
  }
  return catalogue.bundles.filter((b) => slugs.has(b.slug));
}

/**
 * The selections of a bundle for the pricing engine: its primary service, add-ons
 * without a question, and counted add-ons whose toggle is on (with their count).
 */
export function bundleSelections(
  catalogue: Pick<Catalogue, "bundleQuestions">,
  bundle: Bundle,
  answers: BundleAnswers,
): ServiceSelection[] {
  const selections: ServiceSelection[] = [{ serviceSlug: bundle.primaryServiceSlug }];
  for (const slug of bundle.addOnSlugs) {
    const question = catalogue.bundleQuestions.find((q) => q.serviceSlug === slug);
    if (!question) {
      selections.push({ serviceSlug: slug });
      continue;
    }
    const a = answers[question.slug];
    if ((question.type === "int" || a?.on) && a?.count) selections.push({ serviceSlug: slug, quantity: a.count });
  }
  return selections;
}

/** Learn-more terms shown on a selected bundle card: those of the selected services, and always plagiarism check's. */
export function learnMoreTerms(bundle: Pick<Bundle, "learnMoreTerms">, selectedSlugs: string[]): string[] {
  return bundle.learnMoreTerms
    .filter((t) => t.serviceSlug === "plagiarism-check" || selectedSlugs.includes(t.serviceSlug))
    .map((t) => t.key);
}
