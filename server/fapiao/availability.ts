// Whether fapiao apply to a researcher (spec 2 §6, issue 13 §4): the feature flag, their country, and whether
// the localisation of the document (or of the researcher, while paying) processes fapiao after payment.
import { orderFapiaoApplies } from "#common/fapiao/rules";
import type { AppContext } from "../context";
import type { Scope } from "../scope";

/** Localisations that process fapiao after payment (the stored-fapiao pages serve there; CN in the seed). */
export async function afterPaymentLocalizations(app: AppContext): Promise<Set<string>> {
  const { localizations } = await app.config.snapshot();
  return new Set(localizations.filter((l) => l.allowsFapiaoProcessingAfterPayment).map((l) => l.identity));
}

export async function fapiaoEnabled(app: AppContext): Promise<boolean> {
  return app.config.flag("fapiao_enabled");
}

/** The researcher's country (ISO 3166 alpha-2) and localisation. */
async function researcherOf(scope: Scope): Promise<{ iso2: string | null; localization: string } | null> {
  if (!scope.userId) return null;
  const row = await scope.app.db
    .selectFrom("users as u")
    .leftJoin("countries as c", "c.id", "u.country_id")
    .select(["c.iso2", "u.localization"])
    .where("u.id", "=", scope.userId)
    .executeTakeFirst();
  return row ? { iso2: row.iso2 ?? null, localization: row.localization } : null;
}

/**
 * The order fapiao in the payment form: null where it does not apply (spec 2 §6); `disabled` on the pay page
 * unless exactly one invoice is paid (spec 2 §2 "Pay screen": one fapiao is one invoice).
 */
export async function orderFapiaoState(scope: Scope, target: { invoiceCount?: number }): Promise<{ disabled: boolean } | null> {
  const who = await scope.memo("fapiao:researcher", () => researcherOf(scope));
  if (!who) return null;
  const [enabled, after] = await Promise.all([fapiaoEnabled(scope.app), afterPaymentLocalizations(scope.app)]);
  if (!orderFapiaoApplies({ enabled, userCountryIso2: who.iso2, allowsAfterPayment: after.has(who.localization) })) return null;
  return { disabled: target.invoiceCount !== undefined && target.invoiceCount !== 1 };
}
