// Application config and feature flags: stored in the database, overridable by
// the environment (CONFIG_<NAME> and FLAG_<NAME>), cached for 10 minutes
// (spec 2 §9 "Configuration cached 10 minutes") in Redis when present.
import type { DB } from "../db";
import type { Cache } from "../cache";
import { CONFIG_DEFAULTS, FEATURE_FLAGS, type ConfigKey, type ConfigValues, type FeatureFlags, type FlagName } from "./definitions";
import { mergeRateLimits } from "./overrides";

export const CONFIG_CACHE_SECONDS = 600;
const CACHE_KEY = "config:v1";

export interface Localization {
  identity: string;
  name: string;
  isDefault: boolean;
  /** Host of the localisation's own site (config `localizationHosts`), or null: it has no site of its own. */
  secureSite: string | null;
  timeZone: string;
  defaultCurrency: string;
  defaultLang: string;
  allowsFapiaoProcessingAfterPayment: boolean;
  taxTypes: string[];
  paymentMethods: number[];
}

export interface ApplicationSnapshot {
  config: ConfigValues;
  flags: FeatureFlags;
  localizations: Localization[];
  loadedAt: string;
}

/** camelCase or snake_case name to the environment variable suffix: localAuthEnabled -> LOCAL_AUTH_ENABLED. */
export function envName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}

function parseEnvBoolean(raw: string): boolean | undefined {
  const v = raw.trim().toLowerCase();
  if (["1", "true", "on", "yes"].includes(v)) return true;
  if (["0", "false", "off", "no"].includes(v)) return false;
  return undefined;
}

function parseEnvValue(raw: string, example: unknown): unknown {
  if (typeof example === "boolean") return parseEnvBoolean(raw) ?? example;
  if (typeof example === "number") {
    const n = Number(raw);
    return Number.isFinite(n) ? n : example;
  }
  if (typeof example === "string") return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return example;
  }
}

export function applyEnvOverrides(snapshot: ApplicationSnapshot, env: Record<string, string | undefined>): ApplicationSnapshot {
  const config = { ...snapshot.config } as Record<string, unknown>;
  for (const key of Object.keys(CONFIG_DEFAULTS) as ConfigKey[]) {
    const raw = env[`CONFIG_${envName(key)}`];
    if (raw !== undefined) config[key] = parseEnvValue(raw, config[key] ?? CONFIG_DEFAULTS[key].value);
  }
  // Rate limits key by key: defaults, the stored object, then the override; naming one key changes only that one.
  const rawLimits = env.CONFIG_RATE_LIMITS;
  config.rateLimits = mergeRateLimits(snapshot.config.rateLimits, rawLimits === undefined ? undefined : config.rateLimits);
  const flags = { ...snapshot.flags };
  for (const name of Object.keys(FEATURE_FLAGS) as FlagName[]) {
    const raw = env[`FLAG_${envName(name)}`];
    const parsed = raw === undefined ? undefined : parseEnvBoolean(raw);
    if (parsed !== undefined) flags[name] = parsed;
  }
  return { ...snapshot, config: config as ConfigValues, flags, localizations: withHosts(snapshot.localizations, config.localizationHosts) };
}

/** The localisations with their sites' hosts from the `localizationHosts` config (ADR 021); others have none. */
function withHosts(localizations: Localization[], hosts: unknown): Localization[] {
  const map = hosts && typeof hosts === "object" && !Array.isArray(hosts) ? (hosts as Record<string, unknown>) : {};
  return localizations.map((l) => {
    const host = map[l.identity];
    return { ...l, secureSite: typeof host === "string" && host.trim() ? host.trim().toLowerCase() : null };
  });
}

export async function loadSnapshotFromDb(db: DB): Promise<ApplicationSnapshot> {
  const [configRows, flagRows, locRows] = await Promise.all([
    db.selectFrom("app_config").select(["key", "value"]).execute(),
    db.selectFrom("feature_flags").select(["name", "enabled"]).execute(),
    db.selectFrom("localizations").selectAll().orderBy("identity").execute(),
  ]);
  const config = Object.fromEntries(Object.entries(CONFIG_DEFAULTS).map(([k, d]) => [k, d.value])) as Record<string, unknown>;
  for (const row of configRows) if (row.key in CONFIG_DEFAULTS) config[row.key] = row.value;
  const flags = Object.fromEntries(Object.keys(FEATURE_FLAGS).map((n) => [n, false])) as FeatureFlags;
  for (const row of flagRows) if (row.name in FEATURE_FLAGS) flags[row.name as FlagName] = row.enabled;
  const localizations: Localization[] = locRows.map((r) => ({
    identity: r.identity,
    name: r.name,
    isDefault: r.is_default,
    secureSite: null,
    timeZone: r.time_zone,
    defaultCurrency: r.default_currency.trim(),
    defaultLang: r.default_lang,
    allowsFapiaoProcessingAfterPayment: r.allows_fapiao_processing_after_payment,
    taxTypes: r.tax_types as unknown as string[],
    paymentMethods: r.payment_methods as unknown as number[],
  }));
  return { config: config as ConfigValues, flags, localizations, loadedAt: new Date().toISOString() };
}

export class ConfigService {
  constructor(
    private db: DB,
    private cache: Cache,
    private env: Record<string, string | undefined> = process.env,
  ) {}

  private memo: { at: number; value: ApplicationSnapshot } | null = null;

  /**
   * The current config, flags and localisations (cached 10 minutes in the shared cache, then environment
   * overrides applied). Each process also keeps the result for one second, so a page that asks several
   * times pays once; a change reaches other processes within that second.
   */
  async snapshot(): Promise<ApplicationSnapshot> {
    if (this.memo && Date.now() - this.memo.at < 1000) return this.memo.value;
    const value = await this.load();
    this.memo = { at: Date.now(), value };
    return value;
  }

  private async load(): Promise<ApplicationSnapshot> {
    let snap = await this.cache.getJson<ApplicationSnapshot>(CACHE_KEY).catch(() => undefined);
    if (!snap) {
      snap = await loadSnapshotFromDb(this.db);
      await this.cache.setJson(CACHE_KEY, snap, CONFIG_CACHE_SECONDS).catch(() => undefined);
    }
    return applyEnvOverrides(snap, this.env);
  }

  async flag(name: FlagName): Promise<boolean> {
    return (await this.snapshot()).flags[name];
  }

  async invalidate(): Promise<void> {
    this.memo = null;
    await this.cache.del(CACHE_KEY);
  }

  async setFlag(name: FlagName, enabled: boolean): Promise<void> {
    await this.db
      .insertInto("feature_flags")
      .values({ name, enabled, description: FEATURE_FLAGS[name].description })
      .onConflict((oc) => oc.column("name").doUpdateSet({ enabled, updated_at: new Date() }))
      .execute();
    await this.invalidate();
  }

  async setConfig<K extends ConfigKey>(key: K, value: ConfigValues[K]): Promise<void> {
    const json = JSON.stringify(value);
    await this.db
      .insertInto("app_config")
      .values({ key, value: json, description: CONFIG_DEFAULTS[key].description })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: json, updated_at: new Date() }))
      .execute();
    await this.invalidate();
  }
}

/** The time zone in which a localisation shows dates (delivery deadlines, quotes); UTC for an unknown one. */
export function localizationTimeZone(localizations: Localization[], identity: string): string {
  return localizations.find((l) => l.identity === identity)?.timeZone ?? "UTC";
}

/**
 * The origin of a localisation's own site. `current`: the address the request came to (its adapter passes it;
 * domain code takes no Request, ADR 057). Here beside the hosts it reads, not in accounts: mail's links need it,
 * and accounts sends mail (ADR 059).
 */
export function siteOrigin(secureSite: string, current: URL): string {
  // Local development hosts (*.localhost) keep the current scheme, and the current port unless the site names its own.
  const name = secureSite.replace(/:\d+$/, "");
  const ownPort = name !== secureSite;
  if (name === "localhost" || name.endsWith(".localhost"))
    return `${current.protocol}//${secureSite}${!ownPort && current.port ? `:${current.port}` : ""}`;
  return `https://${secureSite}`;
}

/** A Host header or a configured site host as compared: lower case, the name and the port (none for 80 and 443). */
function splitHost(host: string): { name: string; port: string | null } {
  const h = host.trim().toLowerCase();
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(h);
  if (!m) return { name: h, port: null };
  return { name: m[1], port: m[2] && m[2] !== "80" && m[2] !== "443" ? m[2] : null };
}

/**
 * Whether a request's Host is the site `secureSite` (issue 22 item 3): the same name and, when the site is
 * configured with a port (`cn.localhost:3413`), the same port, a scheme's default port counting as none. A
 * site configured without a port is its name on any port (development serves every site on one port).
 */
export function hostIsSite(host: string, secureSite: string): boolean {
  const req = splitHost(host);
  const site = splitHost(secureSite);
  return req.name === site.name && (site.port === null || site.port === req.port);
}

/** The localisation of a request: the one whose secure site is the request's host, else the default (US). */
export function localizationForHost(localizations: Localization[], host: string | null | undefined): Localization {
  const byHost = host ? localizations.find((l) => l.secureSite !== null && hostIsSite(host, l.secureSite)) : undefined;
  const fallback = localizations.find((l) => l.isDefault) ?? localizations[0];
  if (!fallback) throw new Error("No localisation is configured");
  return byHost ?? fallback;
}

export interface BankDetails {
  beneficiary: string;
  bankName: string;
  account: string;
  swift: string;
}

/**
 * The bank account an invoice in `currencyIso` is paid to (config `bankDetails`, by currency; USD when the
 * currency has none). A database seeded before accounts were kept per currency holds one account: it serves all.
 */
export function bankDetailsFor(config: ConfigValues, currencyIso: string): BankDetails | null {
  const value = config.bankDetails as unknown as Record<string, BankDetails> | BankDetails;
  if (!value || typeof value !== "object") return null;
  if ("beneficiary" in value && typeof value.beneficiary === "string") return value as BankDetails;
  const byCurrency = value as Record<string, BankDetails>;
  return byCurrency[currencyIso.trim()] ?? byCurrency.USD ?? null;
}
