// The services step's cards (spec 1 §2 "Service selection", §3 "Service", "ServiceGroup"): the groups a form's
// services step shows, each service that may be chosen in them with its "from" price in the form's currency.
// One computation for the services page and GET /api/order-form/{id}/load (issue 22 item 4).
import type { Catalogue } from "../catalogue";
import type { Scope } from "../scope";
import { servicePrice } from "./price";
import { REWORK_GROUP } from "./rework";
import { selectableServices } from "./steps/services";
import type { OrderFormRow } from "./store";

export type ServicesStep = "manuscript-services" | "multimedia-services";

const MANUSCRIPT_GROUPS = ["editing", "translation", "formatting"];
const MULTIMEDIA_GROUPS = ["figures"];

/** The services step of a form: multimedia forms choose on the multimedia step, every other on the manuscript one. */
export function servicesStepOf(form: Pick<OrderFormRow, "customer_goal">): ServicesStep {
  return form.customer_goal === "multimedia" ? "multimedia-services" : "manuscript-services";
}

export interface ServiceCard {
  slug: string;
  identity: string;
  type: string;
  group: string;
  nameKey: string;
  descriptionKey: string | null;
  featured: boolean;
  recommended: boolean;
  /** Priced per figure or table: the card asks for a quantity. */
  counted: boolean;
  /** One of it, standard delivery, in the form's currency (minor units); null when it cannot be priced (by quote). */
  fromPrice: number | null;
  selected: boolean;
}

export interface ServiceGroupCards {
  slug: string;
  nameKey: string;
  serviceType: string;
  columns: number;
  services: ServiceCard[];
  /** The lowest "from" price of its services (the group's "from %(price)s"), or null when none has one. */
  fromPrice: number | null;
}

/**
 * The groups of `step` with the services the form may choose in them (a rework form: its rework services), a
 * translation only when it translates from the form's language.
 */
export async function serviceCards(
  scope: Scope,
  form: OrderFormRow,
  catalogue: Catalogue,
  step: ServicesStep,
  now = new Date(),
): Promise<ServiceGroupCards[]> {
  const groupSlugs = step === "multimedia-services" ? MULTIMEDIA_GROUPS : form.rework ? [REWORK_GROUP] : MANUSCRIPT_GROUPS;
  const groups = groupSlugs.map((g) => catalogue.groups.find((x) => x.slug === g)).filter((g) => g !== undefined);
  const selectable = await selectableServices(scope, form, catalogue);
  const selected = new Set((form.selections ?? []).map((s) => s.serviceSlug));
  return groups.map((g) => {
    const services = [...selectable.values()]
      .filter((s) => s.group === g.slug)
      .filter((s) => !s.sourceLanguageId || s.sourceLanguageId === form.language_id || form.customer_goal !== "manuscript")
      .map((s): ServiceCard => ({
        slug: s.slug,
        identity: s.identity,
        type: s.type,
        group: s.group,
        nameKey: s.nameKey,
        descriptionKey: s.descriptionKey,
        featured: s.featured,
        recommended: s.recommended,
        counted: Boolean(s.price.unit),
        fromPrice: servicePrice(scope, form, catalogue, s, now),
        selected: selected.has(s.slug),
      }));
    const prices = services.map((s) => s.fromPrice).filter((p): p is number => p !== null);
    return {
      slug: g.slug,
      nameKey: g.nameKey,
      serviceType: g.serviceType,
      columns: g.columns,
      services,
      fromPrice: prices.length ? Math.min(...prices) : null,
    };
  });
}
