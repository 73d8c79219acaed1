// Config values whose shape a typo turns into an outage (issue 22 item 3): `rateLimits`, merged over its
// defaults key by key, and `localizationHosts`, a host (with an optional port) per localisation. Their
// environment overrides are checked at start (server/env.ts refuses a bad one, naming the key); a stored value
// is merged the same way when the config is read, a bad entry keeping its default.
import { RATE_LIMIT_DEFAULTS, type RateLimitKey } from "./definitions";

const RATE_LIMIT_MAX = 1_000_000_000;

function isRateLimitKey(key: string): key is RateLimitKey {
  return Object.hasOwn(RATE_LIMIT_DEFAULTS, key);
}

function isRateLimitValue(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1 && value <= RATE_LIMIT_MAX;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The rate limits: the defaults, then each layer's known keys with good values (stored config, then the
 * environment). A layer that names only some keys changes only those: an unnamed key keeps its default.
 */
export function mergeRateLimits(...layers: unknown[]): Record<RateLimitKey, number> {
  const merged: Record<RateLimitKey, number> = { ...RATE_LIMIT_DEFAULTS };
  for (const layer of layers) {
    if (!isPlainObject(layer)) continue;
    for (const [key, value] of Object.entries(layer)) if (isRateLimitKey(key) && isRateLimitValue(value)) merged[key] = value;
  }
  return merged;
}

/** A site's host as written in `localizationHosts`: a DNS name (or IPv4 address), optionally `:port`. */
const SITE_HOST = /^(?=[^:]{1,253}(?::|$))[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::(\d{1,5}))?$/i;

/** Whether `host` may be a localisation's site (a name with an optional port 1–65535). */
export function isSiteHost(host: string): boolean {
  const m = SITE_HOST.exec(host.trim());
  return Boolean(m) && (m![1] === undefined || (Number(m![1]) >= 1 && Number(m![1]) <= 65535));
}

function parseJsonObject(name: string, raw: string, problems: { name: string; message: string }[]): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    problems.push({ name, message: `is not JSON (it is ${JSON.stringify(raw)})` });
    return null;
  }
  if (!isPlainObject(value)) {
    problems.push({ name, message: `must be a JSON object (it is ${JSON.stringify(raw)})` });
    return null;
  }
  return value;
}

/** What is wrong with the `CONFIG_RATE_LIMITS` and `CONFIG_LOCALIZATION_HOSTS` overrides, each naming its key. */
export function configOverrideProblems(overrides: Readonly<Record<string, string>>): { name: string; message: string }[] {
  const problems: { name: string; message: string }[] = [];
  const limits = overrides.CONFIG_RATE_LIMITS;
  if (limits !== undefined && limits !== "") {
    const value = parseJsonObject("CONFIG_RATE_LIMITS", limits, problems);
    for (const [key, v] of Object.entries(value ?? {})) {
      if (!isRateLimitKey(key))
        problems.push({
          name: "CONFIG_RATE_LIMITS",
          message: `names an unknown rate limit "${key}" (known: ${Object.keys(RATE_LIMIT_DEFAULTS).join(", ")})`,
        });
      else if (!isRateLimitValue(v))
        problems.push({
          name: "CONFIG_RATE_LIMITS",
          message: `sets "${key}" to ${JSON.stringify(v)}: a whole number from 1 to ${RATE_LIMIT_MAX} is expected`,
        });
    }
  }
  const hosts = overrides.CONFIG_LOCALIZATION_HOSTS;
  if (hosts !== undefined && hosts !== "") {
    const value = parseJsonObject("CONFIG_LOCALIZATION_HOSTS", hosts, problems);
    for (const [key, v] of Object.entries(value ?? {})) {
      if (!/^[A-Z]{2,8}$/.test(key))
        problems.push({ name: "CONFIG_LOCALIZATION_HOSTS", message: `names "${key}", which is not a localisation identity (like "CN")` });
      else if (typeof v !== "string" || !isSiteHost(v))
        problems.push({
          name: "CONFIG_LOCALIZATION_HOSTS",
          message: `sets "${key}" to ${JSON.stringify(v)}: a host name with an optional port is expected (like "cn.example.com" or "cn.localhost:3413"), no scheme or path`,
        });
    }
  }
  return problems;
}
