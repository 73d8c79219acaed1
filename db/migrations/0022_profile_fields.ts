import type { Kysely } from "kysely";

// Optional registration fields of spec 1 §3 that had no column yet (issue 9 §3.15): the workplace, and the
// free text of the "How did you find us?" answer "other".
// Also: a database still holding the seeded placeholder bank account ("Example Bank (set in the staff
// configuration)") drops it, so the per-currency accounts of the configuration defaults apply (ADR 022);
// an account staff set is kept.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("workplace", "text").addColumn("other_found_us", "text").execute();
  const bank = await db.selectFrom("app_config").select("value").where("key", "=", "bankDetails").executeTakeFirst();
  const value = typeof bank?.value === "string" ? JSON.parse(bank.value) : bank?.value;
  if (value && typeof value === "object" && String(value.bankName ?? "").startsWith("Example Bank")) {
    await db.deleteFrom("app_config").where("key", "=", "bankDetails").execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("workplace").dropColumn("other_found_us").execute();
}
