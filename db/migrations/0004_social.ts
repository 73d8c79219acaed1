import { sql, type Kysely } from "kysely";

// Social sign-in (spec 1 §2 "Sign-in area", §7 GET /api/auth/opa/{providerId}).
// The `authenticationProviders` config value says which providers show; this table
// holds what a provider needs to work. Nothing is seeded here: a provider is added
// by staff, or (demo) from the environment (server/auth/social.ts, OAUTH_DEMO_ISSUER).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("oauth_providers")
    .addColumn("id", "text", (c) => c.primaryKey().check(sql`id ~ '^[a-z0-9][a-z0-9_-]{0,39}$'`))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("icon", "text", (c) => c.notNull().defaultTo(""))
    // An OpenID Connect issuer: endpoints and keys come from its discovery document
    // unless set explicitly below.
    .addColumn("issuer", "text")
    .addColumn("authorization_endpoint", "text")
    .addColumn("token_endpoint", "text")
    .addColumn("userinfo_endpoint", "text")
    .addColumn("jwks_uri", "text")
    .addColumn("client_id", "text", (c) => c.notNull())
    // May stay null: OAUTH_<ID>_CLIENT_SECRET in the environment takes precedence.
    .addColumn("client_secret", "text")
    .addColumn("scopes", "jsonb", (c) => c.notNull().defaultTo(sql`'["openid", "email", "profile"]'::jsonb`))
    .addColumn("supported_languages", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("supported_localizations", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("enabled", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      "oauth_providers_endpoints",
      sql`issuer is not null or (authorization_endpoint is not null and token_endpoint is not null)`,
    )
    .execute();

  await db.schema
    .createTable("linked_accounts")
    .addColumn("id", "serial", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("provider_id", "text", (c) => c.notNull().references("oauth_providers.id").onDelete("cascade").onUpdate("cascade"))
    // The provider's stable identifier of the person (OIDC `sub`).
    .addColumn("subject", "text", (c) => c.notNull())
    // The e-mail address the provider reported when the link was made (for support; never used to sign in).
    .addColumn("email", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_sign_in_at", "timestamptz")
    .addUniqueConstraint("linked_accounts_provider_subject_key", ["provider_id", "subject"])
    // One identity per provider and account.
    .addUniqueConstraint("linked_accounts_user_provider_key", ["user_id", "provider_id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("linked_accounts").ifExists().execute();
  await db.schema.dropTable("oauth_providers").ifExists().execute();
}
