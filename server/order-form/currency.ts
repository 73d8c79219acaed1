// The order's currency (spec 1 §9).
import { invalid, ok } from "#common/result";
import type { Scope } from "../scope";
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
