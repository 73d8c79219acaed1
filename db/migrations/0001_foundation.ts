import { sql, type Kysely } from "kysely";

// The foundation: configuration, reference data, users and sessions.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("app_config")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "jsonb", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("feature_flags")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("enabled", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("currencies")
    .addColumn("iso_code", "char(3)", (c) => c.primaryKey())
    .addColumn("short_name", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("sign", "text", (c) => c.notNull())
    .addColumn("num_decimals", "smallint", (c) => c.notNull().check(sql`num_decimals between 0 and 4`))
    .addColumn("selectable", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("exchange_rates")
    .addColumn("iso_code", "char(3)", (c) => c.notNull().references("currencies.iso_code"))
    .addColumn("rate", "numeric(18, 8)", (c) => c.notNull().check(sql`rate > 0`))
    .addColumn("effective_on", "date", (c) => c.notNull())
    .addPrimaryKeyConstraint("exchange_rates_pk", ["iso_code", "effective_on"])
    .execute();

  await db.schema
    .createTable("localizations")
    .addColumn("identity", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("is_default", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("secure_site", "text", (c) => c.notNull())
    .addColumn("time_zone", "text", (c) => c.notNull())
    .addColumn("default_currency", "char(3)", (c) => c.notNull().references("currencies.iso_code"))
    .addColumn("default_lang", "text", (c) => c.notNull())
    .addColumn("allows_fapiao_processing_after_payment", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("tax_types", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("payment_methods", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();

  await db.schema
    .createTable("countries")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("iso2", "char(2)", (c) => c.notNull().unique())
    .addColumn("iso3", "char(3)", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("calling_code", "text", (c) => c.notNull())
    .addColumn("phone_min", "smallint", (c) => c.notNull())
    .addColumn("phone_max", "smallint", (c) => c.notNull())
    .addColumn("currency_iso", "char(3)", (c) => c.notNull())
    .addColumn("localization", "text", (c) => c.notNull().references("localizations.identity"))
    .execute();

  await db.schema
    .createTable("states")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("country_id", "integer", (c) => c.notNull().references("countries.id").onDelete("cascade"))
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addUniqueConstraint("states_country_code_uq", ["country_id", "code"])
    .execute();

  await db.schema
    .createTable("languages")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("manuscript_language", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("users")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("identity", "uuid", (c) => c.notNull().unique())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("password_hash", "text")
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("last_name", "text", (c) => c.notNull())
    .addColumn("title", "text")
    .addColumn("institution", "text")
    .addColumn("phone_country_code", "text")
    .addColumn("phone_number", "text")
    .addColumn("country_id", "integer", (c) => c.references("countries.id"))
    .addColumn("currency_iso", "char(3)", (c) => c.notNull().references("currencies.iso_code"))
    .addColumn("language", "text", (c) => c.notNull().defaultTo("en"))
    .addColumn("localization", "text", (c) => c.notNull().references("localizations.identity"))
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("is_staff", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("is_admin", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("optin_to_marketing", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // E-mail addresses are unique regardless of case.
  await sql`create unique index users_email_lower_uq on users (lower(email))`.execute(db);

  await db.schema
    .createTable("sessions")
    .addColumn("id_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("impersonator_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_seen_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("revoked_at", "timestamptz")
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("actor_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("target_type", "text")
    .addColumn("target_id", "text")
    .addColumn("data", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "audit_log",
    "sessions",
    "users",
    "languages",
    "states",
    "countries",
    "localizations",
    "exchange_rates",
    "currencies",
    "feature_flags",
    "app_config",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
