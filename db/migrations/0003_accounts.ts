import { sql, type Kysely } from "kysely";

// Account area: saved addresses, more user fields (spec 1 §3 "User (core fields)"), staff impersonation.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("secondary_email", "text")
    .addColumn("orcid", "text")
    .addColumn("city", "text")
    .addColumn("found_us", "text")
    .addColumn("credit_notes_locked", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("exclude_from_delinquent_check", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("watchlist_notification", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("language_assessment_enabled", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("wfoe_in_migrating_group", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("wfoe_accepted_tos_at", "timestamptz")
    .addColumn("wfoe_migrated", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("snid_country_update_status", "text")
    .addColumn("password_changed_at", "timestamptz")
    .execute();

  await db.schema
    .createTable("addresses")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("label", "text", (c) => c.notNull().check(sql`label in ('billing', 'invoice')`))
    .addColumn("name", "text")
    .addColumn("organization", "text")
    .addColumn("address1", "text", (c) => c.notNull())
    .addColumn("address2", "text")
    .addColumn("city", "text", (c) => c.notNull())
    .addColumn("state", "text")
    .addColumn("zip", "text")
    .addColumn("country_id", "integer", (c) => c.notNull().references("countries.id"))
    .addColumn("phone", "text")
    .addColumn("vat", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("addresses_user_idx").on("addresses").column("user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("addresses").ifExists().execute();
  for (const c of [
    "secondary_email",
    "orcid",
    "city",
    "found_us",
    "credit_notes_locked",
    "exclude_from_delinquent_check",
    "watchlist_notification",
    "language_assessment_enabled",
    "wfoe_in_migrating_group",
    "wfoe_accepted_tos_at",
    "wfoe_migrated",
    "snid_country_update_status",
    "password_changed_at",
  ]) {
    await db.schema.alterTable("users").dropColumn(c).execute();
  }
}
