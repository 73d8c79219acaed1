// Issue 22 item 3: a `CONFIG_RATE_LIMITS` naming some keys is merged over the defaults (an unnamed key keeps its
// default); an unknown key or a bad value stops the start naming the key; a localisation host may carry a port,
// and a request to that host and port is its site (a scheme's default port counting as none).
import { describe, expect, it } from "vitest";
import { EnvError, readEnv } from "../../server/env";
import {
  applyEnvOverrides,
  hostIsSite,
  localizationForHost,
  siteOrigin,
  type ApplicationSnapshot,
  type Localization,
} from "../../server/config";
import { CONFIG_DEFAULTS, RATE_LIMIT_DEFAULTS } from "../../server/config/definitions";

function problems(source: Record<string, string>): string {
  try {
    readEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("readEnv accepted a bad value");
}

const loc = (identity: string, secureSite: string | null, isDefault = false): Localization => ({
  identity,
  name: identity,
  isDefault,
  secureSite,
  timeZone: "UTC",
  defaultCurrency: "USD",
  defaultLang: "en",
  allowsFapiaoProcessingAfterPayment: false,
  taxTypes: [],
  paymentMethods: [],
});

function snapshot(rateLimits: unknown = CONFIG_DEFAULTS.rateLimits.value): ApplicationSnapshot {
  const config = Object.fromEntries(Object.entries(CONFIG_DEFAULTS).map(([k, d]) => [k, d.value])) as ApplicationSnapshot["config"];
  return {
    config: { ...config, rateLimits: rateLimits as never },
    flags: {} as never,
    localizations: [loc("US", null, true)],
    loadedAt: "",
  };
}

describe("CONFIG_RATE_LIMITS", () => {
  it("naming one key changes only that one: forgot-password keeps its default", () => {
    const { config } = applyEnvOverrides(snapshot(), { CONFIG_RATE_LIMITS: '{"signInPerMinute":5}' });
    expect(config.rateLimits).toEqual({ ...RATE_LIMIT_DEFAULTS, signInPerMinute: 5 });
    expect(config.rateLimits.resetRequestsPerHour).toBe(10);
    expect(config.rateLimits.certificateLookupsPer10Minutes).toBe(30);
  });

  it("a stored object naming some keys is merged too, and the override over it", () => {
    const { config } = applyEnvOverrides(snapshot({ registrationsPerHour: 7 }), { CONFIG_RATE_LIMITS: '{"signInPerMinute":5}' });
    expect(config.rateLimits).toEqual({ ...RATE_LIMIT_DEFAULTS, registrationsPerHour: 7, signInPerMinute: 5 });
    expect(applyEnvOverrides(snapshot({ quotesPer10Minutes: 3 }), {}).config.rateLimits.quotesPer10Minutes).toBe(3);
  });

  it("accepts known keys with whole positive numbers at start", () => {
    expect(() => readEnv({ CONFIG_RATE_LIMITS: '{"signInPerMinute":5,"mailPerUserPerHour":1000000000}' })).not.toThrow();
  });

  it("refuses an unknown key, a bad value or a non-object at start, naming the key", () => {
    expect(problems({ CONFIG_RATE_LIMITS: '{"signInPerMinut":5}' })).toMatch(
      /CONFIG_RATE_LIMITS names an unknown rate limit "signInPerMinut" \(known: signInPerMinute/,
    );
    expect(problems({ CONFIG_RATE_LIMITS: '{"signInPerMinute":0}' })).toMatch(/CONFIG_RATE_LIMITS sets "signInPerMinute" to 0/);
    expect(problems({ CONFIG_RATE_LIMITS: '{"signInPerMinute":"5"}' })).toMatch(/sets "signInPerMinute" to "5"/);
    expect(problems({ CONFIG_RATE_LIMITS: '{"resetRequestsPerHour":2.5}' })).toMatch(/sets "resetRequestsPerHour" to 2.5/);
    expect(problems({ CONFIG_RATE_LIMITS: "[1]" })).toMatch(/CONFIG_RATE_LIMITS must be a JSON object/);
    expect(problems({ CONFIG_RATE_LIMITS: "{signInPerMinute:5}" })).toMatch(/CONFIG_RATE_LIMITS is not JSON/);
  });
});

describe("CONFIG_LOCALIZATION_HOSTS with a port", () => {
  it("is accepted at start; a scheme, a path or a bad port is refused naming the key", () => {
    expect(() => readEnv({ CONFIG_LOCALIZATION_HOSTS: '{"CN":"cn.localhost:3413","BR":"br.example.com"}' })).not.toThrow();
    expect(problems({ CONFIG_LOCALIZATION_HOSTS: '{"CN":"https://cn.example.com"}' })).toMatch(
      /CONFIG_LOCALIZATION_HOSTS sets "CN" to "https:\/\/cn.example.com"/,
    );
    expect(problems({ CONFIG_LOCALIZATION_HOSTS: '{"CN":"cn.example.com/x"}' })).toMatch(/sets "CN"/);
    expect(problems({ CONFIG_LOCALIZATION_HOSTS: '{"CN":"cn.localhost:99999"}' })).toMatch(/sets "CN"/);
    expect(problems({ CONFIG_LOCALIZATION_HOSTS: '{"cn":"cn.localhost"}' })).toMatch(/names "cn", which is not a localisation identity/);
  });

  it("matches its own site by host and port, the default port counting as none", () => {
    expect(hostIsSite("cn.localhost:3413", "cn.localhost:3413")).toBe(true);
    expect(hostIsSite("CN.localhost:3413", "cn.localhost:3413")).toBe(true);
    expect(hostIsSite("cn.localhost:3414", "cn.localhost:3413")).toBe(false);
    expect(hostIsSite("cn.localhost", "cn.localhost:3413")).toBe(false);
    expect(hostIsSite("cn.example.com", "cn.example.com:443")).toBe(true);
    expect(hostIsSite("cn.example.com:443", "cn.example.com")).toBe(true);
    // Configured without a port: the name on any port (development serves every site on one port).
    expect(hostIsSite("cn.localhost:3413", "cn.localhost")).toBe(true);
    const sites = [loc("US", null, true), loc("CN", "cn.localhost:3413")];
    expect(localizationForHost(sites, "cn.localhost:3413").identity).toBe("CN");
    expect(localizationForHost(sites, "cn.localhost:9").identity).toBe("US");
  });

  it("links to the site at its own port, not the current one appended", () => {
    expect(siteOrigin("cn.localhost:3413", new URL("http://127.0.0.1:3000/"))).toBe("http://cn.localhost:3413");
    expect(siteOrigin("cn.localhost", new URL("http://127.0.0.1:3000/"))).toBe("http://cn.localhost:3000");
    expect(siteOrigin("cn.example.com:8443", new URL("http://127.0.0.1:3000/"))).toBe("https://cn.example.com:8443");
  });
});
