import { sql, type Kysely } from "kysely";

// Payment attempts that cannot take money twice or lose it (issue 21 §2–§3, ADR 051):
// - balance_movements gains `reserve` and `release` (balances chosen with a charge are held, not spent, until the
//   provider answers: a decline releases them), `overpayment` (money captured beyond what was due, deposited on an
//   overpayment credit of the researcher) and `refund` (such a surplus paid back by staff leaves the credit).
// - payments.lease_until: a `processing` attempt is held by the process that charges it only while that process
//   lives (it renews the lease); once the lease lapses the recovery job asks the provider and settles or fails it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("balance_movements").dropConstraint("balance_movements_kind_check").execute();
  await db.schema
    .alterTable("balance_movements")
    .addCheckConstraint(
      "balance_movements_kind_check",
      sql`kind in ('deposit', 'spend', 'expire', 'reversal', 'reserve', 'release', 'overpayment', 'refund')`,
    )
    .execute();
  await db.schema.createIndex("balance_movements_payment_idx").on("balance_movements").column("payment_id").execute();
  await db.schema.alterTable("payments").addColumn("lease_until", "timestamptz").execute();
  await db.schema
    .createIndex("payments_open_idx")
    .on("payments")
    .columns(["status", "updated_at"])
    .where(sql.ref("status"), "in", sql`('processing', 'pending')`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("payments_open_idx").execute();
  await db.schema.alterTable("payments").dropColumn("lease_until").execute();
  await db.schema.dropIndex("balance_movements_payment_idx").execute();
  await db.schema.alterTable("balance_movements").dropConstraint("balance_movements_kind_check").execute();
  await db.schema
    .alterTable("balance_movements")
    .addCheckConstraint("balance_movements_kind_check", sql`kind in ('deposit', 'spend', 'expire', 'reversal')`)
    .execute();
}
