// The order's currency (spec 1 §9).
import { invalid, ok } from "#common/result";
import type { Scope } from "../scope";
import { listCurrencies } from "../kernel/reference";
import { type OrderFormRow, saveOrderForm } from "./store";
import type { SaveResult } from "./types";

/** The order's currency: any selectable currency; CNY only on the China site (spec 1 §9). */
export async function saveCurrency(scope: Scope, form: OrderFormRow, iso: unknown): Promise<SaveResult> {
  const code = String(iso ?? "").toUpperCase();
  const row = await scope.app.db
    .selectFrom("currencies")
    .select(["iso_code", "selectable"])
    .where("iso_code", "=", code)
    .executeTakeFirst();
  if (!row || (!row.selectable && !(code === "CNY" && scope.localization === "CN")))
    return invalid({ currencyIso: "order:errors.generic-touchup-error" });
  return ok(await saveOrderForm(scope.app.db, form, { currency_iso: code }));
}

/**
 * The summary's currency picker (spec 1 §2): anonymous visitors only, never on the China site, selectable
 * currencies only. Anything else leaves the form as it is and is refused with 'generic-touchup-error'
 * (spec 1 §8), which the page shows.
 */
export async function chooseVisitorCurrency(scope: Scope, form: OrderFormRow, iso: string): Promise<SaveResult> {
  const refused = invalid({ currencyIso: "order:errors.generic-touchup-error" });
  if (scope.userId || scope.localization === "CN") return refused;
  const allowed = (await listCurrencies(scope.app.db)).filter((c) => c.selectable).map((c) => c.isoCode);
  return allowed.includes(iso) ? ok(await saveOrderForm(scope.app.db, form, { currency_iso: iso })) : refused;
}
