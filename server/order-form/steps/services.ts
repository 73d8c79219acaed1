// The services steps (manuscript and multimedia): which services a form may choose, the choice, a
// card's toggle, the delivery tier and a per-unit service's quantity.
import { checkField, quantityField } from "#common/order-form/schemas";
import { invalid, ok } from "#common/result";
import { type Catalogue, type CatalogueService, getCatalogue } from "../../catalogue";
import type { Scope } from "../../scope";
import { priceForm, settleDeliveryTier } from "../price";
import { advanceFrom } from "../progress";
import { REWORK_GROUP, reworkView } from "../rework";
import { type OrderFormRow, saveOrderForm } from "../store";
import type { FieldErrors, SaveResult } from "../types";

// ---- service selection ------------------------------------------------------

export interface ServicesInput {
  serviceSlugs: string[];
  declineEditing?: boolean;
  rush?: boolean;
  express?: boolean;
  quantities?: Record<string, number>;
}

const MULTIMEDIA_GROUPS = new Set(["figures"]);

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
      errors.serviceSlugs = "order:errors.multimedia-required";
  } else if (!slugs.length && !input.declineEditing) {
    errors.serviceSlugs = "order:errors.make-selection";
  }
  const selections = slugs.map((slug) => {
    const service = known.get(slug)!;
    const quantity = service.price.unit ? Number(input.quantities?.[slug] ?? 1) : undefined;
    if (quantity !== undefined && !checkField(quantityField, quantity).ok) errors[`quantity.${slug}`] = "order:errors.quantity-range-error";
    return {
      serviceSlug: slug,
      ...(quantity !== undefined ? { quantity } : {}),
      ...(service.originalServiceSlug ? { originalServiceSlug: service.originalServiceSlug } : {}),
    };
  });
  if (Object.keys(errors).length) return invalid(errors);
  // Spec 1 §4: "I do not need English editing" clears the selection and rush; otherwise editing sends a
  // delivery tier: standard by default, rush or express when ticked (never both).
  const declined = Boolean(input.declineEditing) && step === "manuscript-services";
  const rushOnly = !declined && !input.express && (await newlyChosenRushOnly(scope, form, catalogue, slugs));
  const tier = declined ? "standard" : input.express ? "express" : input.rush || rushOnly ? "rush" : "standard";
  const saved = await advanceFrom(scope, form, step, {
    selections: JSON.stringify(declined ? [] : selections),
    decline_editing: declined,
    delivery_tier: tier,
    // A new choice of services leaves any bundle chosen before.
    bundle_id: null,
  });
  // A tier that is not available for this selection falls back to standard (the engine says which it priced).
  return ok(await settleDeliveryTier(scope, saved, catalogue));
}

/**
 * Spec 1 §4 "Service selection": a service whose only delivery option is rush (config `rushOnlyServices`, by slug or
 * identity) has rush preselected when it is chosen. Only when it is newly chosen: a researcher who then picks standard
 * keeps it on the next save. Rush the engine does not offer for the selection falls back to standard (settleDeliveryTier).
 */
async function newlyChosenRushOnly(scope: Scope, form: OrderFormRow, catalogue: Catalogue, slugs: string[]): Promise<boolean> {
  const { config } = await scope.app.config.snapshot();
  const refs = new Set<string>(config.rushOnlyServices ?? []);
  if (!refs.size) return false;
  const before = new Set((form.selections ?? []).map((s) => s.serviceSlug));
  return slugs.some((slug) => {
    if (before.has(slug)) return false;
    const service = catalogue.services.find((s) => s.slug === slug);
    return refs.has(slug) || (service !== undefined && refs.has(service.identity));
  });
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
  if (!service) return invalid({ serviceSlugs: "order:errors.make-selection" });
  const current = form.selections ?? [];
  let selections;
  let rushOnly = false;
  if (current.some((s) => s.serviceSlug === slug)) {
    selections = current.filter((s) => s.serviceSlug !== slug);
  } else {
    rushOnly = await newlyChosenRushOnly(scope, form, catalogue, [slug]);
    const quantity = service.price.unit ? Number(quantities[slug] ?? 1) : undefined;
    if (quantity !== undefined && !checkField(quantityField, quantity).ok)
      return invalid({ [`quantity.${slug}`]: "order:errors.quantity-range-error" });
    selections = [
      ...current,
      {
        serviceSlug: slug,
        ...(quantity !== undefined ? { quantity } : {}),
        ...(service.originalServiceSlug ? { originalServiceSlug: service.originalServiceSlug } : {}),
      },
    ];
  }
  const saved = await saveOrderForm(scope.app.db, form, {
    selections: JSON.stringify(selections),
    decline_editing: false,
    bundle_id: null,
    ...(rushOnly ? { delivery_tier: "rush" as const } : {}),
  });
  // Deselecting the service that offered rush or express leaves standard delivery.
  return ok(await settleDeliveryTier(scope, saved, catalogue));
}

export async function saveDeliveryTier(scope: Scope, form: OrderFormRow, tier: "standard" | "rush" | "express"): Promise<SaveResult> {
  const saved = await saveOrderForm(scope.app.db, form, { delivery_tier: tier });
  const price = await priceForm(scope, saved);
  if (price && price.deliveryTier !== tier) {
    // Not offered for this selection: the form keeps the tier the engine priced.
    await saveOrderForm(scope.app.db, saved, { delivery_tier: price.deliveryTier });
    return invalid({ deliveryTier: "order:errors.delivery-tier-unavailable" });
  }
  return ok(saved);
}

// ---- smaller calls of spec 1 §7 ------------------------------------------------------------

export async function saveServiceQuantity(scope: Scope, form: OrderFormRow, serviceRef: string, quantity: unknown): Promise<SaveResult> {
  const catalogue = await getCatalogue(scope.app);
  const service = catalogue.services.find((s) => s.slug === serviceRef || s.identity === serviceRef);
  const q = Number(quantity);
  const selections = form.selections ?? [];
  if (!service || !selections.some((s) => s.serviceSlug === service.slug))
    return invalid({ serviceIdentity: "order:errors.make-selection" });
  if (!service.price.unit || !checkField(quantityField, q).ok) return invalid({ quantity: "order:errors.quantity-range-error" });
  const next = selections.map((s) => (s.serviceSlug === service.slug ? { ...s, quantity: q } : s));
  return ok(await saveOrderForm(scope.app.db, form, { selections: JSON.stringify(next) }));
}
