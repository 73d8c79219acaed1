import { sql, type Kysely } from "kysely";
import { CONFIG_DEFAULTS } from "../../server/config/definitions";

// An issued document keeps who issued it and at what rate (issue 21 §2, ADR 052). The legal entity (name,
// address, tax identifier) is copied onto each invoice and retainer invoice when it is issued, so neither a
// query parameter nor a later configuration change re-issues it under another company. A converted invoice (an
// order's or a retainer) keeps its USD base and the exchange rate its price was computed with (units of its currency per 1 USD).
//
// Back-fill: the entity of each existing document is the one its localisation printed until now (the
// installation's `invoiceCompanyDetails` row, else the seeded defaults of this release); the rate is the one in
// force on the document's day (exchange_rates), its USD base that rate applied to the amount. USD invoices are 1.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("invoices")
    .addColumn("legal_entity", "jsonb")
    .addColumn("usd_total", "bigint")
    .addColumn("exchange_rate", sql`numeric(18,8)`)
    .execute();
  await db.schema
    .alterTable("retainer_invoices")
    .addColumn("legal_entity", "jsonb")
    .addColumn("usd_total", "bigint")
    .addColumn("exchange_rate", sql`numeric(18,8)`)
    .execute();

  const stored = await db.selectFrom("app_config").select("value").where("key", "=", "invoiceCompanyDetails").executeTakeFirst();
  const raw = stored?.value ?? CONFIG_DEFAULTS.invoiceCompanyDetails.value;
  const entities = (typeof raw === "string" ? JSON.parse(raw) : raw) as Record<string, Record<string, unknown>>;
  // An invoice without a localisation printed its owner's: that localisation is now its own.
  await sql`update invoices i set localization = u.localization from users u where u.id = i.user_id and i.localization is null`.execute(db);
  const fallback = entities.default ?? Object.values(entities)[0] ?? null;
  for (const table of ["invoices", "retainer_invoices"] as const) {
    const localizations = await db.selectFrom(table).select("localization").distinct().execute();
    for (const { localization } of localizations) {
      const key = localization !== null && entities[localization] ? localization : "default";
      const entity = localization !== null && entities[localization] ? entities[localization] : fallback;
      if (!entity) continue;
      await db
        .updateTable(table)
        .set({ legal_entity: JSON.stringify({ identity: key, ...entity }) })
        .where("localization", localization === null ? "is" : "=", localization)
        .execute();
    }
  }
  for (const table of ["invoices", "retainer_invoices"]) {
    const t = sql.table(table);
    await sql`update ${t} set usd_total = amount, exchange_rate = 1 where currency_iso = 'USD'`.execute(db);
    // The rate in force on the document's day; then amount / 10^decimals / rate × 100 cents, rounded half up, in
    // numeric (exact decimal) arithmetic.
    await sql`
      update ${t} d
         set exchange_rate = (select x.rate from exchange_rates x
                               where x.iso_code = d.currency_iso and x.effective_on <= d.created_at::date
                               order by x.effective_on desc limit 1)
       where d.currency_iso <> 'USD'`.execute(db);
    await sql`
      update ${t} d
         set usd_total = round(d.amount::numeric * 100 / (power(10::numeric, c.num_decimals) * d.exchange_rate))
        from currencies c
       where c.iso_code = d.currency_iso and d.exchange_rate is not null and d.currency_iso <> 'USD'`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("retainer_invoices").dropColumn("legal_entity").dropColumn("usd_total").dropColumn("exchange_rate").execute();
  await db.schema.alterTable("invoices").dropColumn("legal_entity").dropColumn("usd_total").dropColumn("exchange_rate").execute();
}
