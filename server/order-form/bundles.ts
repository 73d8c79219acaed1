// Service bundles (spec 1 §4 "Bundle flow", §9 bundle pricing): the questions, the offers and the choice.
import { invalid, ok, type Result } from "#common/result";
import {
  availableBundles,
  type Bundle,
  type BundleAnswers,
  bundleSelections,
  type Catalogue,
  getCatalogue,
  learnMoreTerms,
  priceSelection,
  validateBundleAnswers,
} from "../catalogue";
import type { Scope } from "../scope";
import { computePrice, priceBase, pricingContextOf } from "./price";
import { advanceFrom } from "./progress";
import { type OrderFormRow, saveOrderForm } from "./store";
import type { SaveResult } from "./types";

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
  const context = await pricingContextOf(scope);
  const now = new Date();
  return availableBundles(catalogue, answers).map((b: Bundle) => {
    const price = (deliveryTier: "standard" | "rush" | "express") => {
      try {
        return priceSelection(catalogue, {
          ...priceBase(scope, form, now),
          ...context,
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

// ---- service bundles (spec 1 §4 "Bundle flow", §9 bundle pricing) --------------------------

export function answersOf(form: OrderFormRow): BundleAnswers {
  return (form.bundle_answers ?? {}) as BundleAnswers;
}

/** Reads the bundle questions' answers from the step's form fields (checkbox groups arrive comma-joined). */
/** Saves the bundle questions' answers; the bundles they lead to are then offered (none: 'service-bundle-no-bundles-error'). */
export async function saveBundleAnswers(
  scope: Scope,
  form: OrderFormRow,
  answers: BundleAnswers,
): Promise<Result<{ form: OrderFormRow; bundles: number }>> {
  const catalogue = await getCatalogue(scope.app);
  const errors = validateBundleAnswers(catalogue, answers);
  if (Object.keys(errors).length) return invalid(Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, `catalogue:errors.${v}`])));
  const saved = await saveOrderForm(scope.app.db, form, { bundle_answers: JSON.stringify(answers) });
  return ok({ form: saved, bundles: availableBundles(catalogue, answers).length });
}

/** Chooses a bundle (its services replace the selection) with a delivery of none, rush or express; or none at all. */
export async function chooseBundle(
  scope: Scope,
  form: OrderFormRow,
  input: { bundleId: number | null; delivery?: string },
): Promise<SaveResult> {
  const catalogue = await getCatalogue(scope.app);
  if (input.bundleId === null) return ok(await advanceFrom(scope, form, "service-bundles", { bundle_id: null }));
  if (form.rework) return invalid({ bundleId: "order:errors.make-selection" });
  const answers = answersOf(form);
  const bundle = availableBundles(catalogue, answers).find((b) => b.id === input.bundleId);
  if (!bundle) return invalid({ bundleId: "order:errors.make-selection" });
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
  if (price && price.deliveryTier !== tier) return ok(await saveOrderForm(scope.app.db, saved, { delivery_tier: price.deliveryTier }));
  return ok(saved);
}
