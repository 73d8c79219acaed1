import { sql, type Kysely } from "kysely";

// The catalogue and its pricing rules (spec 1 §3, §9; spec 2 §3 "Rush rule";
// docs/decisions/005-catalogue-and-pricing.md). Everything a price or a deadline
// depends on is a row here, so staff can change it without a release; the
// engine in server/catalogue only knows how to combine the rows.
//
// Units: amounts are integer USD cents (the base currency); multipliers, per-word
// rates and percentages are exact `numeric` values (read as strings and scaled to
// integers by the loader, never through floating point).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("service_groups")
    .addColumn("slug", "text", (c) => c.primaryKey().check(sql`slug ~ '^[a-z0-9][a-z0-9-]*$'`))
    .addColumn("name_key", "text", (c) => c.notNull())
    .addColumn("service_type", "text", (c) => c.notNull())
    // Featured services are laid out in 1, 3 or 4 columns (spec 1 §9).
    .addColumn("columns", "smallint", (c) =>
      c
        .notNull()
        .defaultTo(3)
        .check(sql`columns in (1, 3, 4)`),
    )
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("services")
    .addColumn("id", "serial", (c) => c.primaryKey())
    // Stable across installs and slug renames: a UUID (v5 of the first slug) made once by the seed.
    .addColumn("identity", "uuid", (c) => c.notNull().unique())
    .addColumn("slug", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`slug ~ '^[a-z0-9][a-z0-9-]*$'`),
    )
    .addColumn("type", "text", (c) => c.notNull().check(sql`type in ('editing', 'translation', 'other')`))
    .addColumn("group_slug", "text", (c) => c.notNull().references("service_groups.slug").onUpdate("cascade"))
    .addColumn("name_key", "text", (c) => c.notNull())
    .addColumn("description_key", "text")
    // Price rule.
    .addColumn("price_kind", "text", (c) => c.notNull().check(sql`price_kind in ('word_bins', 'per_word', 'fixed', 'per_unit', 'of_base')`))
    .addColumn("price_cents", "integer", (c) => c.check(sql`price_cents >= 0`))
    .addColumn("per_word_usd", "numeric(12, 6)", (c) => c.check(sql`per_word_usd >= 0`))
    .addColumn("minimum_cents", "integer", (c) => c.check(sql`minimum_cents >= 0`))
    .addColumn("multiplier", "numeric(8, 4)", (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`multiplier >= 0`),
    )
    // of_base: the price is `multiplier` × the price of this service (or of the order's original service).
    .addColumn("base_service_slug", "text")
    // Services that make this one free when ordered together (automated re-editing with a premium order).
    .addColumn("free_with_slugs", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    // Counted services (figure and table formatting): quantity limits.
    .addColumn("unit", "text", (c) => c.check(sql`unit in ('figure', 'table')`))
    .addColumn("min_quantity", "smallint", (c) => c.notNull().defaultTo(1))
    .addColumn("max_quantity", "smallint", (c) => c.notNull().defaultTo(25))
    // Turnaround rule, in business days.
    .addColumn("turnaround_kind", "text", (c) => c.notNull().check(sql`turnaround_kind in ('steps', 'fixed', 'quote')`))
    .addColumn("turnaround_days", "smallint")
    .addColumn("turnaround_up_to_words", "integer")
    .addColumn("turnaround_step_words", "integer", (c) => c.check(sql`turnaround_step_words > 0`))
    .addColumn("turnaround_step_days", "smallint")
    // Above this word count the service is quote only ("contact support").
    .addColumn("max_words", "integer")
    // Translations: from which manuscript language into which.
    .addColumn("source_language_id", "integer", (c) => c.references("languages.id"))
    .addColumn("target_language_id", "integer", (c) => c.references("languages.id"))
    .addColumn("rush_eligible", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("express_eligible", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("featured", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("recommended", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      "services_price_rule",
      sql`(price_kind = 'word_bins')
        or (price_kind = 'per_word' and per_word_usd is not null)
        or (price_kind in ('fixed', 'per_unit') and price_cents is not null)
        or (price_kind = 'of_base')`,
    )
    .addCheckConstraint("services_unit_rule", sql`(price_kind = 'per_unit') = (unit is not null)`)
    .addCheckConstraint(
      "services_turnaround_rule",
      sql`(turnaround_kind = 'quote')
        or (turnaround_kind = 'fixed' and turnaround_days is not null)
        or (turnaround_kind = 'steps' and turnaround_days is not null and turnaround_up_to_words is not null
            and turnaround_step_words is not null and turnaround_step_days is not null)`,
    )
    .addCheckConstraint("services_quantity_rule", sql`min_quantity >= 1 and max_quantity >= min_quantity`)
    .execute();

  // Standard-editing word bins, independent of the service (other editing levels multiply them).
  await db.schema
    .createTable("word_bins")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("min_words", "integer", (c) => c.notNull().check(sql`min_words >= 1`))
    .addColumn("max_words", "integer")
    // Either a fixed price for the bin or a per-word rate (the open-ended top bin).
    .addColumn("price_cents", "integer", (c) => c.check(sql`price_cents >= 0`))
    .addColumn("per_word_usd", "numeric(12, 6)", (c) => c.check(sql`per_word_usd >= 0`))
    .addCheckConstraint("word_bins_price", sql`(price_cents is null) <> (per_word_usd is null)`)
    .addCheckConstraint("word_bins_range", sql`max_words is null or max_words >= min_words`)
    .execute();

  await db.schema
    .createTable("delivery_tiers")
    .addColumn("code", "text", (c) => c.primaryKey().check(sql`code in ('standard', 'rush', 'express')`))
    .addColumn("name_key", "text", (c) => c.notNull())
    .addColumn("multiplier", "numeric(8, 4)", (c) => c.notNull().check(sql`multiplier >= 1`))
    // Base business days of the tier for rush- or express-eligible services (null: the service's own).
    .addColumn("turnaround_days", "smallint")
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("rush_rules")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("starts_on", "date")
    .addColumn("ends_on", "date")
    .addColumn("grandparent_area_of_study_id", "integer")
    .addColumn("lower_word_count_limit", "integer")
    .addColumn("upper_word_count_limit", "integer")
    .addColumn("loyalty_level_identities", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("service_identities", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .execute();

  await db.schema
    .createTable("bundles")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name_key", "text", (c) => c.notNull())
    .addColumn("description_key", "text")
    .addColumn("primary_service_slug", "text", (c) => c.notNull().references("services.slug").onUpdate("cascade"))
    .addColumn("discount_percent", "numeric(5, 2)", (c) => c.notNull().check(sql`discount_percent >= 0 and discount_percent <= 100`))
    // {"<timeline in business days>": <promised business days>}: a timeline takes the promise of the
    // smallest key not below it (server/catalogue/pricing.ts bundleTurnaround).
    .addColumn("deadlines", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    // [{"serviceSlug", "key"}]: terms shown under "learn more" for the services selected (and plagiarism check).
    .addColumn("learn_more_terms", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("bundle_services")
    .addColumn("bundle_id", "integer", (c) => c.notNull().references("bundles.id").onDelete("cascade"))
    .addColumn("service_slug", "text", (c) => c.notNull().references("services.slug").onUpdate("cascade"))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("bundle_services_pk", ["bundle_id", "service_slug"])
    .execute();

  await db.schema
    .createTable("bundle_questions")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("term", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull().check(sql`type in ('multiple-choice', 'int', 'journal-select', 'toggle-type')`))
    .addColumn("required", "boolean", (c) => c.notNull().defaultTo(false))
    // Counted toggles: the service whose quantity the count sets (figure-formatting, table-formatting).
    .addColumn("service_slug", "text", (c) => c.references("services.slug").onUpdate("cascade"))
    // Required when the toggle question with this slug is on (the journal, for table formatting).
    .addColumn("required_with", "text")
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("bundle_question_choices")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("question_id", "integer", (c) => c.notNull().references("bundle_questions.id").onDelete("cascade"))
    .addColumn("choice", "text", (c) => c.notNull())
    // Bundles this answer makes available.
    .addColumn("bundle_slugs", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint("bundle_question_choices_uq", ["question_id", "choice"])
    .execute();

  await db.schema
    .createTable("promo_codes")
    .addColumn("id", "serial", (c) => c.primaryKey())
    // Stored upper-case; codes are matched case-insensitively.
    .addColumn("code", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`code = upper(code) and length(code) between 2 and 40`),
    )
    .addColumn("description_key", "text")
    .addColumn("percent_off", "numeric(5, 2)", (c) => c.check(sql`percent_off > 0 and percent_off <= 100`))
    .addColumn("amount_off_cents", "integer", (c) => c.check(sql`amount_off_cents > 0`))
    .addColumn("starts_at", "timestamptz")
    .addColumn("ends_at", "timestamptz")
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("max_uses", "integer")
    // Incremented by the order module when an order using the code is placed.
    .addColumn("times_used", "integer", (c) => c.notNull().defaultTo(0))
    .addCheckConstraint("promo_codes_one_kind", sql`(percent_off is null) <> (amount_off_cents is null)`)
    .execute();

  await db.schema
    .createTable("preferred_groups")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("code", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`code = upper(code)`),
    )
    .addColumn("name", "text", (c) => c.notNull())
    // percentage_discount: `discount` is a percent; otherwise an amount in USD cents.
    .addColumn("discount", "numeric(10, 2)", (c) => c.notNull().check(sql`discount > 0`))
    .addColumn("percentage_discount", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .addCheckConstraint("preferred_groups_percent", sql`not percentage_discount or discount <= 100`)
    .execute();

  // Re-edit and service discounts (spec 1 §3 "Discount" kinds).
  await db.schema
    .createTable("service_discounts")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('re-edit', 'service')`))
    .addColumn("description_key", "text", (c) => c.notNull())
    // null: every line of the order.
    .addColumn("service_slug", "text", (c) => c.references("services.slug").onUpdate("cascade"))
    // Applies only when the order also has a service of this type.
    .addColumn("requires_service_type", "text", (c) => c.check(sql`requires_service_type in ('editing', 'translation', 'other')`))
    .addColumn("percent_off", "numeric(5, 2)", (c) => c.notNull().check(sql`percent_off > 0 and percent_off <= 100`))
    .addColumn("starts_at", "timestamptz")
    .addColumn("ends_at", "timestamptz")
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .execute();

  await db.schema
    .createTable("areas_of_study")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("parent_id", "integer", (c) => c.references("areas_of_study.id"))
    .addColumn("level", "smallint", (c) => c.notNull().check(sql`level between 1 and 3`))
    .addColumn("name_en", "text", (c) => c.notNull())
    .addColumn("name_zh", "text", (c) => c.notNull())
    .addColumn("name_ja", "text", (c) => c.notNull())
    .addColumn("name_pt", "text", (c) => c.notNull())
    .addColumn("name_es", "text", (c) => c.notNull())
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addCheckConstraint("areas_of_study_parent", sql`(level = 1) = (parent_id is null)`)
    .execute();
  await db.schema.createIndex("areas_of_study_parent_idx").on("areas_of_study").column("parent_id").execute();

  await db.schema
    .createTable("holidays")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("localization", "text", (c) => c.notNull().references("localizations.identity").onUpdate("cascade"))
    .addColumn("date", "date", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addUniqueConstraint("holidays_localization_date_uq", ["localization", "date"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "holidays",
    "areas_of_study",
    "service_discounts",
    "preferred_groups",
    "promo_codes",
    "bundle_question_choices",
    "bundle_questions",
    "bundle_services",
    "bundles",
    "rush_rules",
    "delivery_tiers",
    "word_bins",
    "services",
    "service_groups",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
