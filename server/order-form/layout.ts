// What the wizard's parent layout shows around every step besides the step bar and "My Order" (spec 1 §2):
// the currency picker, the time zone of delivery dates, the marketing banner and the ?promo= greeting.
import type { Scope } from "../scope";
import { localizationTimeZone } from "../config";
import { pickerCurrencies } from "./choices";
import type { StepName } from "./steps/flow";
import type { OrderFormRow } from "./store";

/** The steps that carry marketing banners (spec 1 §2). */
const BANNER_STEPS: readonly StepName[] = ["get-started", "manuscript-services"];
/** The ?promo= messages the wizard has words for (order:promo.*); any other value shows nothing, never a raw key. */
const PROMO_MESSAGES = new Set([
  "coupon-applied-message",
  "coupon-removed-message",
  "best-discount-applied",
  "promo-code-empty",
  "promo-code-invalid",
  "promo-code-expired",
  "promo-code-used-up",
  "one-promo-code-per-order",
]);
/** The only revenue-share code with a welcome banner. */
const REVENUE_SHARE_WELCOME = "cambridge1";

export interface WizardLayout {
  currencies: { isoCode: string; name: string }[] | null;
  timeZone: string;
  banner: "revenue-share" | "promo" | null;
  /** The promo message (order:promo.{key}) named by ?promo=, when it is one the wizard knows. */
  promoMessage: string | null;
}

export async function wizardLayout(
  scope: Scope,
  form: OrderFormRow,
  /** `revenueShare`: the revenue-share code the browser came with (its cookie, read by the page). */
  input: { viewing: StepName; promoParam: string | null; revenueShare: string | null },
): Promise<WizardLayout> {
  // The currency picker: anonymous visitors only, never on the China site (spec 1 §2).
  const showPicker = !scope.userId && scope.localization !== "CN";
  const [currencies, timeZone] = await Promise.all([
    showPicker ? pickerCurrencies(scope) : null,
    scope.app.config.snapshot().then((s) => localizationTimeZone(s.localizations, scope.localization)),
  ]);
  const onBannerStep = BANNER_STEPS.includes(input.viewing);
  const banner = !onBannerStep ? null : input.revenueShare === REVENUE_SHARE_WELCOME ? "revenue-share" : form.promo_code ? "promo" : null;
  const promoMessage = input.promoParam && PROMO_MESSAGES.has(input.promoParam) ? input.promoParam : null;
  return { currencies, timeZone, banner, promoMessage };
}
