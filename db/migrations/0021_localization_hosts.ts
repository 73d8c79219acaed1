import { sql, type Kysely } from "kysely";

// Localisation sites become configuration (ADR 021): the `localizationHosts` config value, empty by default,
// replaces localizations.secure_site, which every database had filled with development hosts
// (cn.localhost…) that a single-address deployment does not have. Real hosts a database already held are
// kept, moved into the config value.
export async function up(db: Kysely<any>): Promise<void> {
  const rows = await db.selectFrom("localizations").select(["identity", "secure_site"]).execute();
  const real = rows.filter((r) => r.secure_site && r.secure_site !== "localhost" && !String(r.secure_site).endsWith(".localhost"));
  if (real.length) {
    const hosts = Object.fromEntries(real.map((r) => [r.identity, r.secure_site]));
    await db
      .insertInto("app_config")
      .values({
        key: "localizationHosts",
        value: JSON.stringify(hosts),
        description: "Host of each localisation's own site, by identity.",
      })
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
  }
  await db.schema.alterTable("localizations").dropColumn("secure_site").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("localizations")
    .addColumn("secure_site", "text", (c) => c.notNull().defaultTo("localhost"))
    .execute();
  await sql`alter table localizations alter column secure_site drop default`.execute(db);
}
