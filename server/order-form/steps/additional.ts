// The additional-services step: the config's upsells as add-ons.
import { checkField, quantityField } from "#common/order-form/schemas";
import { invalid, ok } from "#common/result";
import type { Scope } from "../../scope";
import { advanceFrom } from "../progress";
import { type OrderFormRow, saveOrderForm } from "../store";
import type { FieldErrors, SaveResult } from "../types";

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
    return r.ok ? ok(await saveOrderForm(scope.app.db, r.value, { current_step: form.current_step })) : r;
  }
  const offered = new Set(await upsellSlugs(scope));
  const base = (form.selections ?? []).filter((s) => !offered.has(s.serviceSlug));
  const errors: FieldErrors = {};
  const addOns = [...new Set(input.addOnSlugs)]
    .filter((s) => offered.has(s))
    .map((slug) => {
      const counted = slug === "figure-formatting" || slug === "table-formatting";
      const quantity = counted ? Number(input.quantities?.[slug] ?? 1) : undefined;
      if (quantity !== undefined && !checkField(quantityField, quantity).ok)
        errors[`quantity.${slug}`] = "order:errors.quantity-range-error";
      return { serviceSlug: slug, ...(quantity !== undefined ? { quantity } : {}) };
    });
  if (Object.keys(errors).length) return invalid(errors);
  const selections = [...base, ...addOns];
  if (!selections.length) return invalid({ addOnSlugs: "order:errors.make-selection" });
  return ok(
    await advanceFrom(scope, form, "additional-services", {
      selections: JSON.stringify(selections),
      bundle_interest: Boolean(input.bundleInterest),
      bundle_id: null,
    }),
  );
}
