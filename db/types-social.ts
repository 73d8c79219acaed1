// Tables of social sign-in (see db/migrations/0004_social.ts).
import type { ColumnType, Generated, Selectable } from "kysely";

type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb with a database default: written as a JSON string, read as the value. */
type JsonWithDefault<T> = ColumnType<T, string | undefined, string>;

export interface OAuthProviderTable {
  id: string;
  name: string;
  icon: Generated<string>;
  issuer: string | null;
  authorization_endpoint: string | null;
  token_endpoint: string | null;
  userinfo_endpoint: string | null;
  jwks_uri: string | null;
  client_id: string;
  client_secret: string | null;
  scopes: JsonWithDefault<string[]>;
  supported_languages: JsonWithDefault<string[]>;
  supported_localizations: JsonWithDefault<string[]>;
  enabled: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface LinkedAccountTable {
  id: Generated<number>;
  user_id: number;
  provider_id: string;
  subject: string;
  email: string | null;
  created_at: DefaultTimestamp;
  last_sign_in_at: NullableTimestamp;
}

export interface SocialTables {
  oauth_providers: OAuthProviderTable;
  linked_accounts: LinkedAccountTable;
}

export type OAuthProvider = Selectable<OAuthProviderTable>;
export type LinkedAccount = Selectable<LinkedAccountTable>;
