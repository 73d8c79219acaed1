import { sql, type Kysely } from "kysely";

// Rewards, promotions, referrals, testimonials, preferred groups and the home area (issue 25; spec 3 §2–§9, spec 2 §2
// "Widget row"). One migration for the whole data model, written before its parts were built so that they
// share one schema (the areas: rewards, referrals, testimonials, groups, home).
//
// - users: the reward points total (a cache of the latest reward_history.points_to_date, changed only with a history
//   row in the same transaction), the loyalty level reached, hasRewards, who referred the user, the preferred group,
//   and the dismissed spam-message banner.
// - promo_codes: a code may belong to one user (an earned level benefit, a referred colleague's first-order code);
//   a public code (user_id null) may belong to a campaign. Personal codes are not in the cached catalogue: the order
//   form reads the user's own.
// - reward_history: one row per change of points; `source_key` makes each award or reversal happen once.
// - loyalty_level_grants: a level's benefits are granted once per user.
// - referrals: one row per referred user (a second claim is refused by the unique key); credited once.
// - testimonials: text and an optional re-encoded photo, reviewed by staff.
// - preferred_groups: greeting, whether membership is displayed (not for the free-trial groups), shareable.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("reward_points", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`reward_points >= 0`),
    )
    .addColumn("loyalty_level", "text", (c) => c.notNull().defaultTo("level0"))
    .addColumn("has_rewards", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("referred_by_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("preferred_group_id", "integer", (c) => c.references("preferred_groups.id").onDelete("set null"))
    .addColumn("preferred_group_joined_at", "timestamptz")
    .addColumn("hide_check_spam_message", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable("promo_campaigns")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().check(sql`char_length(name) between 1 and 120`))
    .addColumn("description", "text", (c) => c.check(sql`char_length(description) <= 2000`))
    .addColumn("highlighted", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("starts_at", "timestamptz")
    .addColumn("ends_at", "timestamptz")
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .alterTable("promo_codes")
    // The owner of a personal code (null: anyone may use it).
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("campaign_id", "integer", (c) => c.references("promo_campaigns.id").onDelete("set null"))
    // What the researcher reads in 'Current Promotions' (null: the description key's text).
    .addColumn("name", "text")
    .addColumn("highlighted", "boolean", (c) => c.notNull().defaultTo(false))
    // Where a personal code came from: 'level:<identity>', 'referral-welcome', 'campaign', 'staff'.
    .addColumn("source", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index promo_codes_user_idx on promo_codes (user_id) where user_id is not null`.execute(db);

  await db.schema
    .createTable("reward_history")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // A translation key's last part: 'order-paid', 'order-reversed', 'level-reached', 'staff-adjustment'…
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("points", "integer", (c) => c.notNull())
    .addColumn("points_to_date", "integer", (c) => c.notNull().check(sql`points_to_date >= 0`))
    .addColumn("order_id", "integer", (c) => c.references("orders.id").onDelete("set null"))
    // Idempotency: 'order-paid:<orderId>', 'order-reversed:<orderId>:<n>'… each happens once.
    .addColumn("source_key", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index reward_history_user_idx on reward_history (user_id, id desc)`.execute(db);

  await db.schema
    .createTable("loyalty_level_grants")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("level", "text", (c) => c.notNull())
    .addColumn("granted_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("loyalty_level_grants_pk", ["user_id", "level"])
    .execute();

  await db.schema
    .createTable("referrals")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("referrer_user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("referred_user_id", "integer", (c) => c.notNull().unique().references("users.id").onDelete("cascade"))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status in ('pending', 'credited', 'refused')`),
    )
    .addColumn("refused_reason", "text")
    // The referred colleague's first order, once paid and completed.
    .addColumn("order_id", "integer", (c) => c.references("orders.id").onDelete("set null"))
    .addColumn("credit_amount", "integer", (c) => c.check(sql`credit_amount > 0`))
    .addColumn("credit_currency", "char(3)")
    .addColumn("credited_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("referrals_not_self", sql`referrer_user_id <> referred_user_id`)
    .execute();
  await sql`create index referrals_referrer_idx on referrals (referrer_user_id)`.execute(db);

  await db.schema
    .createTable("testimonials")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("text", "text", (c) => c.notNull().check(sql`char_length(text) between 1 and 5000`))
    // The re-encoded photo under DATA_DIR (relative path), its type and size; null without a photo.
    .addColumn("photo_path", "text")
    .addColumn("photo_type", "text", (c) => c.check(sql`photo_type in ('image/jpeg', 'image/png', 'image/webp')`))
    .addColumn("photo_bytes", "integer")
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("submitted")
        .check(sql`status in ('submitted', 'approved', 'rejected')`),
    )
    .addColumn("reviewed_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("reviewed_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index testimonials_status_idx on testimonials (status, created_at desc)`.execute(db);
  await sql`create index testimonials_user_idx on testimonials (user_id)`.execute(db);

  await db.schema
    .alterTable("preferred_groups")
    .addColumn("greeting_text", "text")
    .addColumn("membership_displayed", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("shareable", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("preferred_groups")
    .dropColumn("greeting_text")
    .dropColumn("membership_displayed")
    .dropColumn("shareable")
    .dropColumn("created_at")
    .execute();
  for (const table of ["testimonials", "referrals", "loyalty_level_grants", "reward_history"]) await db.schema.dropTable(table).execute();
  await db.schema
    .alterTable("promo_codes")
    .dropColumn("user_id")
    .dropColumn("campaign_id")
    .dropColumn("name")
    .dropColumn("highlighted")
    .dropColumn("source")
    .dropColumn("created_at")
    .execute();
  await db.schema.dropTable("promo_campaigns").execute();
  await db.schema
    .alterTable("users")
    .dropColumn("reward_points")
    .dropColumn("loyalty_level")
    .dropColumn("has_rewards")
    .dropColumn("referred_by_user_id")
    .dropColumn("preferred_group_id")
    .dropColumn("preferred_group_joined_at")
    .dropColumn("hide_check_spam_message")
    .execute();
}
