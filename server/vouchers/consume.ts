// Using a voucher up when the order is placed (issue 12 §7). Called by the placing transaction
// (server/orders/place.ts) like the promo code's use limit: one conditional update, so concurrent placements
// queue on the voucher's row and each re-checks `times_used < max_uses` after the one before commits; a voucher
// with one use left goes to one order only, the others get false and roll back.
import { sql } from "kysely";
import type { DB } from "../db";
import type { OrderFormRow } from "../order-form/store";

/**
 * Counts one use of the form's voucher. True when the form has none or the use was counted; false when the
 * voucher can no longer be used (used up, deactivated or expired since it was applied).
 */
export async function consumeVoucher(trx: DB, form: Pick<OrderFormRow, "voucher_code">, now = new Date()): Promise<boolean> {
  if (!form.voucher_code) return true;
  const used = await trx
    .updateTable("vouchers")
    .set((eb) => ({ times_used: eb("times_used", "+", 1) }))
    .where(sql`upper(code)`, "=", form.voucher_code.toUpperCase())
    .where("active", "=", true)
    .where((eb) => eb.or([eb("valid_until", "is", null), eb("valid_until", ">=", now)]))
    .where((eb) => eb.or([eb("max_uses", "is", null), eb("times_used", "<", eb.ref("max_uses"))]))
    .returning("id")
    .executeTakeFirst();
  return Boolean(used);
}
