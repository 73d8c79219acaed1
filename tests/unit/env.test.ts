// server/env.ts: one zod schema for the environment; defaults as README documents them, bad values refused
// with a message naming each variable.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, readEnv } from "../../server/env";
import { publicOrigin } from "../../server/mail/links";

function problems(source: Record<string, string>): string {
  try {
    readEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    expect((error as EnvError).code).toBe("INVALID_ENV");
    return (error as Error).message;
  }
  throw new Error("readEnv accepted a bad value");
}

describe("readEnv", () => {
  it("has README's defaults when nothing is set", () => {
    expect(readEnv({})).toEqual({
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: 3000,
      DATA_DIR: path.resolve("./data"),
      REDIS_PREFIX: "portal:",
      REDIS_COMMAND_TIMEOUT_MS: 500,
      DATABASE_POOL_SIZE: 20,
      DATABASE_POOL_WAIT_MS: 2000,
      MAIL_FROM: "Researcher Services <no-reply@localhost>",
      LOG_LEVEL: "info",
      TRUST_PROXY: false,
      SEED_DEMO: true,
      WECHAT_MODE: "off",
      PAYMENTS_MODE: "live",
      TRANSLATION_MODE: "live",
      WORKERS: "inline",
      BENCH_BARE_ROUTE: false,
      STORAGE: "local",
      HTTP_HEADERS_TIMEOUT_MS: 15_000,
      HTTP_REQUEST_TIMEOUT_MS: 120_000,
      OAUTH_CLIENT_SECRETS: {},
      CONFIG_OVERRIDES: {},
    });
  });

  it("treats an empty variable as unset (NODE_ENV keeps what it is given)", () => {
    const env = readEnv({ HOST: "", PORT: "", DATA_DIR: "", DATABASE_URL: "", PUBLIC_URL: "", LOG_LEVEL: "", SEED_DEMO: "", NODE_ENV: "" });
    expect(env).toMatchObject({
      HOST: "127.0.0.1",
      PORT: 3000,
      DATA_DIR: path.resolve("./data"),
      LOG_LEVEL: "info",
      SEED_DEMO: true,
      NODE_ENV: "",
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PUBLIC_URL).toBeUndefined();
  });

  it("reads typed values", () => {
    const env = readEnv({
      NODE_ENV: "development",
      PORT: "0",
      DATA_DIR: "relative/dir",
      DATABASE_URL: "postgres://u@db:5432/portal",
      REDIS_URL: "redis://cache:6379",
      PUBLIC_URL: "https://portal.example//",
      LOG_LEVEL: "WARN",
      TRUST_PROXY: " Loopback, 10.0.0.0/8 ",
      SEED_DEMO: "off",
      SESSION_SECRET: "s3cret",
      WORKERS: " OFF ",
      WORKER_POLL_MS: "250",
      WORKER_CONCURRENCY: "3",
      DATABASE_POOL_SIZE: "8",
      DATABASE_POOL_WAIT_MS: "750",
      OAUTH_DEMO_ISSUER: " http://127.0.0.1:3299/ ",
      OAUTH_DEMO_CLIENT_ID: " client ",
      OAUTH_DEMO_NAME: "   ",
      OAUTH_DEMO_CLIENT_SECRET: "demo-secret",
      OAUTH_SNID_CLIENT_SECRET: "",
      CONFIG_REFERRAL_AMOUNT: "25",
      FLAG_WECHAT_SSO: "off",
      UNRELATED: "x",
    });
    expect(env).toMatchObject({
      NODE_ENV: "development",
      PORT: 0,
      DATA_DIR: path.resolve("relative/dir"),
      DATABASE_URL: "postgres://u@db:5432/portal",
      REDIS_URL: "redis://cache:6379",
      PUBLIC_URL: "https://portal.example",
      LOG_LEVEL: "warn",
      TRUST_PROXY: ["loopback", "10.0.0.0/8"],
      SEED_DEMO: false,
      WECHAT_MODE: "off",
      SESSION_SECRET: "s3cret",
      WORKERS: "external",
      WORKER_POLL_MS: 250,
      WORKER_CONCURRENCY: 3,
      DATABASE_POOL_SIZE: 8,
      DATABASE_POOL_WAIT_MS: 750,
      OAUTH_DEMO_ISSUER: "http://127.0.0.1:3299",
      OAUTH_DEMO_CLIENT_ID: "client",
      OAUTH_DEMO_NAME: undefined,
      // An empty secret does not override the stored one.
      OAUTH_CLIENT_SECRETS: { OAUTH_DEMO_CLIENT_SECRET: "demo-secret" },
      CONFIG_OVERRIDES: { CONFIG_REFERRAL_AMOUNT: "25", FLAG_WECHAT_SSO: "off" },
    });
    expect(env).not.toHaveProperty("UNRELATED");
    expect(env).not.toHaveProperty("raw");
  });

  it("refuses a bad value, naming the variable, what it must be and what it is", () => {
    expect(problems({ PORT: "80a" })).toBe('Invalid environment:\n  PORT must be a port number from 0 to 65535 (it is "80a")');
    expect(problems({ PORT: "70000" })).toContain("PORT must be a port number from 0 to 65535");
    expect(problems({ TRUST_PROXY: "maybe" })).toContain(
      "TRUST_PROXY must be false, a number of proxy hops (1), or the proxies' addresses",
    );
    expect(problems({ WECHAT_MODE: "live" })).toContain('WECHAT_MODE must be off or sandbox (it is "live")');
    expect(readEnv({ WECHAT_MODE: " Sandbox " }).WECHAT_MODE).toBe("sandbox");
    expect(problems({ LOG_LEVEL: "verbose" })).toContain("LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent");
    expect(problems({ WORKERS: "sometimes" })).toContain("WORKERS must be inline or external");
    expect(problems({ WORKER_CONCURRENCY: "2.5" })).toContain("WORKER_CONCURRENCY must be a positive whole number");
    expect(problems({ DATABASE_POOL_SIZE: "0" })).toContain("DATABASE_POOL_SIZE must be a positive whole number");
    expect(problems({ DATABASE_POOL_WAIT_MS: "soon" })).toContain("DATABASE_POOL_WAIT_MS must be a positive number of milliseconds");
    expect(problems({ WORKER_POLL_MS: "-1" })).toContain("WORKER_POLL_MS must be a positive number of milliseconds");
    expect(problems({ PUBLIC_URL: "portal.example" })).toContain("PUBLIC_URL must be an http:// or https:// address");
    expect(problems({ OAUTH_DEMO_ISSUER: "ftp://idp" })).toContain("OAUTH_DEMO_ISSUER must be an http:// or https:// address");
  });

  it("refuses production without PUBLIC_URL, unless it is the demo (issue 10 item 1)", () => {
    expect(problems({ NODE_ENV: "production", SEED_DEMO: "false" })).toBe(
      "Invalid environment:\n  PUBLIC_URL must be set in production (NODE_ENV=production) unless the demo is seeded: it is the address e-mailed links lead to, e.g. PUBLIC_URL=https://portal.example.com",
    );
    expect(readEnv({ NODE_ENV: "production", SEED_DEMO: "false", PUBLIC_URL: "https://portal.example" }).PUBLIC_URL).toBe(
      "https://portal.example",
    );
    // The demo (`npm start` seeds the demo accounts) and development link to HOST:PORT.
    expect(readEnv({ NODE_ENV: "production" }).PUBLIC_URL).toBeUndefined();
    expect(readEnv({ NODE_ENV: "development", SEED_DEMO: "false" }).PUBLIC_URL).toBeUndefined();
    expect(publicOrigin(readEnv({ NODE_ENV: "development", HOST: "0.0.0.0", PORT: "8080" }))).toBe("http://localhost:8080");
    expect(publicOrigin(readEnv({ NODE_ENV: "development", HOST: "::1", PORT: "8080" }))).toBe("http://[::1]:8080");
    expect(publicOrigin(readEnv({ PUBLIC_URL: "https://portal.example/" }))).toBe("https://portal.example");
  });

  it("is a demo by omission only where nobody else can reach it: never a deployment that forgot SEED_DEMO (house rule 5)", () => {
    // The README's `npm start`: production, loopback HOST, no PUBLIC_URL: the demo.
    expect(readEnv({ NODE_ENV: "production" }).SEED_DEMO).toBe(true);
    expect(readEnv({ NODE_ENV: "production", PUBLIC_URL: "http://localhost:3000" }).SEED_DEMO).toBe(true);
    expect(readEnv({ NODE_ENV: "production", HOST: "::1", PUBLIC_URL: "http://127.0.0.1:3000" }).SEED_DEMO).toBe(true);
    // A deployment: announced under a public address, or listening on an outside one.
    expect(readEnv({ NODE_ENV: "production", PUBLIC_URL: "https://portal.example" }).SEED_DEMO).toBe(false);
    expect(readEnv({ NODE_ENV: "production", PUBLIC_URL: "http://203.0.113.5:3000" }).SEED_DEMO).toBe(false);
    expect(readEnv({ NODE_ENV: "production", HOST: "0.0.0.0", PUBLIC_URL: "https://portal.example" }).SEED_DEMO).toBe(false);
    // …and one that forgot PUBLIC_URL as well is refused instead of becoming a demo on the network.
    expect(problems({ NODE_ENV: "production", HOST: "0.0.0.0" })).toContain("PUBLIC_URL must be set in production");
    // Without the demo there is no test mode either: payments stay live (ADR 053).
    expect(readEnv({ NODE_ENV: "production", PUBLIC_URL: "https://portal.example" }).PAYMENTS_MODE).toBe("live");
    // Said explicitly, SEED_DEMO wins; outside production the demo stays the default.
    expect(readEnv({ NODE_ENV: "production", PUBLIC_URL: "https://portal.example", SEED_DEMO: "true" }).SEED_DEMO).toBe(true);
    expect(readEnv({ NODE_ENV: "production", SEED_DEMO: "no", PUBLIC_URL: "http://localhost:3000" }).SEED_DEMO).toBe(false);
    expect(readEnv({ NODE_ENV: "development", HOST: "0.0.0.0" }).SEED_DEMO).toBe(true);
  });

  it("reads proxy trust as Express does: none, hops or the proxies' addresses; never every peer (issue 10 item 2)", () => {
    expect(readEnv({ TRUST_PROXY: "off" }).TRUST_PROXY).toBe(false);
    expect(readEnv({ TRUST_PROXY: "0" }).TRUST_PROXY).toBe(false);
    expect(readEnv({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(readEnv({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(readEnv({ TRUST_PROXY: "loopback" }).TRUST_PROXY).toEqual(["loopback"]);
    expect(readEnv({ TRUST_PROXY: "127.0.0.1,10.0.0.0/8, fd00::/8,::1" }).TRUST_PROXY).toEqual([
      "127.0.0.1",
      "10.0.0.0/8",
      "fd00::/8",
      "::1",
    ]);
    // `true` trusted any client's X-Forwarded-For: refused, with what to write instead.
    for (const bad of ["true", "yes", "on", "10.0.0.0/33", "10.0.0.300", "proxy.example", "1.5", "100"])
      expect(problems({ TRUST_PROXY: bad }), bad).toContain(
        "TRUST_PROXY must be false, a number of proxy hops (1), or the proxies' addresses",
      );
    expect(problems({ TRUST_PROXY: "true" })).toContain("true is no longer accepted: name the proxy");
  });

  it("lists every bad variable at once", () => {
    const message = problems({ PORT: "x", SEED_DEMO: "perhaps", HOST: "0.0.0.0" });
    expect(message.split("\n")).toEqual([
      "Invalid environment:",
      '  PORT must be a port number from 0 to 65535 (it is "x")',
      '  SEED_DEMO must be true or false (1/0, yes/no, on/off) (it is "perhaps")',
    ]);
  });

  it("runs payment sandboxes only when PAYMENTS_MODE=sandbox says so: live by default (issue 21 §3)", () => {
    expect(readEnv({}).PAYMENTS_MODE).toBe("live");
    expect(readEnv({ NODE_ENV: "production", SEED_DEMO: "false", PUBLIC_URL: "https://portal.example" }).PAYMENTS_MODE).toBe("live");
    expect(readEnv({ PAYMENTS_MODE: " Sandbox " }).PAYMENTS_MODE).toBe("sandbox");
    expect(readEnv({ PAYMENTS_MODE: "live" }).PAYMENTS_MODE).toBe("live");
    expect(readEnv({ PAYMENTS_MODE: "" }).PAYMENTS_MODE).toBe("live");
    expect(problems({ PAYMENTS_MODE: "test" })).toContain('PAYMENTS_MODE must be live or sandbox (it is "test")');
    // Digital translation's sandbox likewise (ADR 072).
    expect(readEnv({}).TRANSLATION_MODE).toBe("live");
    expect(readEnv({ TRANSLATION_MODE: " Sandbox " }).TRANSLATION_MODE).toBe("sandbox");
    expect(problems({ TRANSLATION_MODE: "test" })).toContain('TRANSLATION_MODE must be live or sandbox (it is "test")');
  });

  it("refuses some but not all of a payment provider's credentials, naming the missing ones (issue 21 §3)", () => {
    expect(problems({ PAYPAL_CLIENT_ID: "id" })).toBe(
      "Invalid environment:\n  PAYPAL_CLIENT_SECRET must be set: the paypal payment provider has PAYPAL_CLIENT_ID but also needs PAYPAL_CLIENT_SECRET (or unset them all)",
    );
    const braintree = problems({ BRAINTREE_MERCHANT_ID: "m", PAYMENTS_MODE: "sandbox" }).split("\n");
    expect(braintree.slice(1).map((line) => line.trim().split(" ")[0])).toEqual(["BRAINTREE_PUBLIC_KEY", "BRAINTREE_PRIVATE_KEY"]);
    // Every provider at once, with the other bad variables.
    const many = problems({ PORT: "x", ALIPAY_APP_ID: "a", BOLETO_NOTIFY_SECRET: "s" });
    expect(many).toContain("PORT must be a port number");
    expect(many).toContain("ALIPAY_PRIVATE_KEY must be set");
    expect(many).toContain("ALIPAY_PUBLIC_KEY must be set");
    expect(many).toContain("BOLETO_BANK_CODE must be set");
    // All of them, or none (an empty value counts as unset), is fine; the optional extras are not credentials.
    expect(() => readEnv({ PAYPAL_CLIENT_ID: "id", PAYPAL_CLIENT_SECRET: "secret" })).not.toThrow();
    expect(() =>
      readEnv({ PAYPAL_CLIENT_ID: "", PAYPAL_WEBHOOK_ID: "wh", PAYPAL_API_URL: "https://api-m.sandbox.paypal.com" }),
    ).not.toThrow();
  });
});
