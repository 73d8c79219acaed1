// Environment variables the portal reads, with their defaults (README "Configuration" lists them). One
// zod schema, parsed once at start-up: a bad value stops the start with a message naming the variable,
// what it must be and what it was, instead of surfacing later as a port of 0 or a silently ignored flag.
// Nothing else reads process.env for the portal's settings: modules take the typed fields of `Env`.
import { isIP } from "node:net";
import path from "node:path";
import * as z from "zod/mini";
import type { ProviderId } from "#common/payments/methods";
import { DEFAULT_POOL_SIZE, DEFAULT_POOL_WAIT_MS } from "./db/defaults";
import { configOverrideProblems } from "./config/overrides";

const TRUE = ["1", "true", "yes", "on"];
const FALSE = ["0", "false", "no", "off"];
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** A string variable read by `read`; `undefined` from it means the value is bad: "must be <expected>". */
function field<T>(expected: string, read: (value: string) => T | undefined) {
  return z.pipe(
    z.string(),
    z.transform((value: string, ctx) => {
      const out = read(value);
      if (out === undefined) {
        ctx.issues.push({ code: "custom", message: `must be ${expected}`, input: value });
        return z.NEVER;
      }
      return out;
    }),
  );
}

const boolField = () =>
  field("true or false (1/0, yes/no, on/off)", (value) => {
    const v = value.trim().toLowerCase();
    return TRUE.includes(v) ? true : FALSE.includes(v) ? false : undefined;
  });

/** One of a few words (case and surrounding spaces ignored), else `fallback` when unset. */
const oneOf = <const T extends string>(words: readonly T[], fallback: T) =>
  z._default(
    field<T>(words.join(" or "), (value) => {
      const v = value.trim().toLowerCase();
      return words.find((w): w is T => w === v);
    }),
    // zod's default type is the schema's awaited output, which TypeScript cannot see is T here.
    fallback as never,
  );

const positive = (expected: string, integer: boolean) =>
  z.optional(
    field(expected, (value) => {
      const n = Number(value.trim());
      return Number.isFinite(n) && n > 0 && (!integer || Number.isInteger(n)) ? n : undefined;
    }),
  );

/** An http(s) address; trailing slashes are dropped so paths can be appended. */
const origin = z.optional(
  field("an http:// or https:// address", (value) => {
    const v = value.trim().replace(/\/+$/, "");
    try {
      const url = new URL(v);
      return url.protocol === "http:" || url.protocol === "https:" ? v : undefined;
    } catch {
      return undefined;
    }
  }),
);

/** Express's names for address ranges (`trust proxy`). */
const PROXY_RANGES = ["loopback", "linklocal", "uniquelocal"];

/** An address (`10.0.0.1`), a range (`10.0.0.0/8`, `fd00::/8`) or a named range (`loopback`). */
function proxyAddress(entry: string): boolean {
  if (PROXY_RANGES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which peers may say, through X-Forwarded-For/-Proto/-Host, who the client is (issue 10 item 2, ADR 025):
 * false (none), a hop count, or a list of proxy addresses, as Express's `trust proxy` reads them. `true`
 * (every peer, so any client could name its own address and escape the per-address limits) is refused.
 */
const trustProxy = z._default(
  field(
    "false, a number of proxy hops (1), or the proxies' addresses (loopback, 10.0.0.0/8, 192.0.2.7, comma-separated); true is no longer accepted: name the proxy",
    (value): false | number | string[] | undefined => {
      const v = value.trim().toLowerCase();
      if (FALSE.includes(v)) return false;
      if (/^\d{1,2}$/.test(v)) return Number(v);
      const entries = v
        .split(",")
        .map((e) => e.trim())
        .filter(Boolean);
      return entries.length && entries.every(proxyAddress) ? entries : undefined;
    },
  ),
  false,
);

const text = (fallback: string) => z._default(z.string(), fallback);
/** Surrounding spaces dropped; only spaces counts as unset. */
const trimmed = z.optional(
  z.pipe(
    z.string(),
    z.transform((value: string) => value.trim() || undefined),
  ),
);

export const envSchema = z.object({
  NODE_ENV: text("production"),
  HOST: text("127.0.0.1"),
  PORT: z._default(
    field("a port number from 0 to 65535", (value) =>
      /^\d{1,5}$/.test(value.trim()) && Number(value) <= 65535 ? Number(value) : undefined,
    ),
    3000,
  ),
  /** Embedded database, generated secrets and uploaded files; an absolute path. */
  DATA_DIR: z._default(
    z.pipe(
      z.string(),
      z.transform((value: string) => path.resolve(value)),
    ),
    () => path.resolve("./data"),
  ),
  DATABASE_URL: z.optional(z.string()),
  /**
   * PostgreSQL clients per process (ADR 048): room for the requests waiting on one payment's row lock, each holding
   * a client while it waits, and for everyone else beside them. Each process also keeps one connection for health
   * probes, so a server needs processes × (DATABASE_POOL_SIZE + 1) connections.
   */
  DATABASE_POOL_SIZE: z._default(positive("a positive whole number", true), DEFAULT_POOL_SIZE),
  /**
   * How long a request waits for a free client of a busy pool before it is answered 503 with Retry-After (ADR 048);
   * opening a new connection has its own 5 s. A busy pool never marks the database down.
   */
  DATABASE_POOL_WAIT_MS: z._default(positive("a positive number of milliseconds", true), DEFAULT_POOL_WAIT_MS),
  REDIS_URL: z.optional(z.string()),
  REDIS_PREFIX: text("portal:"),
  /** A Redis command slower than this is answered from process memory and opens the breaker (ADR 045). */
  REDIS_COMMAND_TIMEOUT_MS: z._default(positive("a positive number of milliseconds", true), 500),
  SMTP_URL: z.optional(z.string()),
  /**
   * Without SMTP_URL, whole messages (reset links included) are written here for their recipient, one JSON
   * file each; default `DATA_DIR/mail` outside production, none in production (ADR 018).
   */
  MAIL_PICKUP_DIR: z.optional(
    z.pipe(
      z.string(),
      z.transform((value: string) => path.resolve(value)),
    ),
  ),
  /** Sender of e-mails. */
  MAIL_FROM: text("Researcher Services <no-reply@localhost>"),
  /**
   * Public address of the portal: every link in an e-mail starts with it (or with the configured host of the
   * recipient's localisation), never with a request header (issue 10 item 1, ADR 025). Required in production
   * (NODE_ENV=production) unless the demo accounts are seeded; elsewhere it defaults to http://HOST:PORT.
   */
  PUBLIC_URL: origin,
  LOG_LEVEL: z._default(
    field(`one of ${LOG_LEVELS.join(", ")}`, (value) => LOG_LEVELS.find((level) => level === value.trim().toLowerCase())),
    "info",
  ),
  /**
   * The TLS-terminating proxy in front of the portal: its hop count or its addresses (see trustProxy). Only
   * those peers' X-Forwarded-For/-Proto are believed (the client address of rate limits, Secure cookies).
   */
  TRUST_PROXY: trustProxy,
  /**
   * Seed the demo accounts (and, with them, the demo's payment and WeChat sandboxes). Unset, it is on only where
   * nobody else can reach the portal: outside production, or in production serving a loopback HOST with no public
   * PUBLIC_URL (the README's `npm start`). A deployment — a non-loopback HOST or a public PUBLIC_URL — never gets
   * demo accounts or test-mode payments by omission (house rule 5; ADR 053 "The demo is never the default of a deployment").
   */
  SEED_DEMO: z.optional(boolField()),
  /**
   * WeChat sign-in provider. `off` (the default): WeChat sign-in is unavailable. `sandbox`: the test-mode
   * stand-in that confirms on a page of this portal, labelled as such (ADR 004, ADR 024). No real adapter yet.
   */
  WECHAT_MODE: oneOf(["off", "sandbox"], "off"),
  /**
   * The bench's bare Remix page (`/__bench/bare/{bytes}`, ADR 079): answered only when this is on, which only
   * `npm run bench` does for the portal it measures; otherwise the path is a plain 404 like any unknown path.
   */
  BENCH_BARE_ROUTE: z._default(boolField(), false),
  SESSION_SECRET: z.optional(z.string()),
  /**
   * Where stored files live (issue 26 §5, ADR 078): `local` (the default) under DATA_DIR on this machine, or `s3`,
   * an S3-compatible object store every web and worker machine shares. STORAGE=s3 without S3_BUCKET, or with one
   * of the two keys and not the other, stops the start (storageProblems): a missing setting never falls back to
   * this machine's disk, where a second machine would not find the files.
   */
  STORAGE: oneOf(["local", "s3"], "local"),
  S3_BUCKET: trimmed,
  /** Region of the bucket (AWS: the bucket's; MinIO: any, `us-east-1`; OSS: e.g. `oss-cn-hangzhou`). */
  S3_REGION: trimmed,
  /** The store's address when it is not AWS (`https://oss-cn-hangzhou.aliyuncs.com`, `http://minio:9000`). */
  S3_ENDPOINT: origin,
  /** Path-style addresses (`endpoint/bucket/key`): MinIO and most self-hosted stores need them. */
  S3_FORCE_PATH_STYLE: z.optional(boolField()),
  /** Both or neither: without them the SDK's own chain (instance role, AWS_* variables) is used. */
  S3_ACCESS_KEY_ID: trimmed,
  S3_SECRET_ACCESS_KEY: trimmed,
  /** Prepended to every object key (one bucket shared by several portals), e.g. `portal/`. */
  S3_PREFIX: trimmed,
  /** `inline` runs background jobs in the web process; `external` (or `off`) leaves them to `npm run worker`. */
  WORKERS: z._default(
    field("inline or external", (value) => {
      const v = value.trim().toLowerCase();
      return v === "inline" ? ("inline" as const) : v === "external" || v === "off" ? ("external" as const) : undefined;
    }),
    "inline",
  ),
  /** Wait between polls of an idle worker, in ms (worker default when unset). */
  WORKER_POLL_MS: positive("a positive number of milliseconds", false),
  /** Jobs one worker runs at once (worker default when unset). */
  WORKER_CONCURRENCY: positive("a positive whole number", true),
  /**
   * A running job's lease (ADR 046): its worker refreshes the lock every third of it; a job whose lock is older
   * (its worker was killed) is taken back by the next worker and run again. Longer than any pause of a live
   * worker, short enough that a crash delays the job by minutes, not hours (worker default 10 minutes).
   */
  WORKER_LEASE_MS: positive("a positive number of milliseconds", true),
  /** Worker threads that render PDFs (ADR 028); default min(2, CPUs − 1), at least 1. */
  PDF_WORKERS: positive("a positive whole number", true),
  /**
   * Slow-client limits of the HTTP server (issue 9 §5): a connection whose request headers have not all arrived
   * within HTTP_HEADERS_TIMEOUT_MS, or whose whole request (body included) within HTTP_REQUEST_TIMEOUT_MS, is
   * closed, so a few clients dripping bytes cannot pin the server. HTTP_KEEP_ALIVE_TIMEOUT_MS is how long an
   * idle kept-alive connection waits for its next request (default: 65 s behind a proxy, which keeps its own
   * idle connections up to 60 s; 5 s otherwise).
   */
  HTTP_HEADERS_TIMEOUT_MS: z._default(positive("a positive number of milliseconds", true), 15_000),
  HTTP_REQUEST_TIMEOUT_MS: z._default(positive("a positive number of milliseconds", true), 120_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positive("a positive number of milliseconds", true),
  /** Adds the demo OIDC provider `demo` (development, browser tests). */
  OAUTH_DEMO_ISSUER: origin,
  OAUTH_DEMO_CLIENT_ID: trimmed,
  OAUTH_DEMO_NAME: trimmed,
  /**
   * `live` (the default): a payment provider takes payments only with all its credentials set; without them its
   * method is not offered. `sandbox`: a provider without credentials runs as its built-in sandbox (test mode, no
   * real money). The demo start sets it (issue 21 §3, ADR 053): a missing setting never switches a test mode on.
   */
  PAYMENTS_MODE: oneOf(["live", "sandbox"], "live"),
  /**
   * `live` (the default): translations use the offline engine (Apertium) when installed, else none is offered.
   * `sandbox`: where no engine exists (Chinese, or Apertium missing) a labelled test-mode pseudo-translation is
   * made (issue 24, ADR 072). Like PAYMENTS_MODE, a missing setting never switches the test mode on.
   */
  TRANSLATION_MODE: oneOf(["live", "sandbox"], "live"),
  // Payment providers (issue 12 §2, ADR 036, README "Payment providers"): a provider whose credentials are all
  // set talks to the provider; otherwise, with PAYMENTS_MODE=sandbox, its built-in sandbox takes the payments.
  // Some but not all of one provider's credentials stop the start (PAYMENT_CREDENTIALS).
  BRAINTREE_MERCHANT_ID: trimmed,
  BRAINTREE_PUBLIC_KEY: trimmed,
  BRAINTREE_PRIVATE_KEY: trimmed,
  PAYPAL_CLIENT_ID: trimmed,
  PAYPAL_CLIENT_SECRET: trimmed,
  /** PayPal's REST address (default https://api-m.paypal.com; https://api-m.sandbox.paypal.com for PayPal's own sandbox). */
  PAYPAL_API_URL: origin,
  /** The webhook's id in PayPal's dashboard: PayPal's verify endpoint needs it (without it no webhook is accepted). */
  PAYPAL_WEBHOOK_ID: trimmed,
  ALIPAY_APP_ID: trimmed,
  /** PEM (or the bare base64 of the key, as Alipay's console shows it) of the app's private key. */
  ALIPAY_PRIVATE_KEY: trimmed,
  /** PEM (or bare base64) of Alipay's public key: notifications are verified with it. */
  ALIPAY_PUBLIC_KEY: trimmed,
  WECHATPAY_MCH_ID: trimmed,
  WECHATPAY_APP_ID: trimmed,
  /** The merchant's API v3 key (32 characters): decrypts notification resources. */
  WECHATPAY_API_V3_KEY: trimmed,
  WECHATPAY_PRIVATE_KEY: trimmed,
  WECHATPAY_SERIAL: trimmed,
  /** PEM of WeChat Pay's platform certificate (or public key): notifications are verified with it. */
  WECHATPAY_PLATFORM_CERT: trimmed,
  UNIONPAY_MER_ID: trimmed,
  UNIONPAY_PRIVATE_KEY: trimmed,
  UNIONPAY_PUBLIC_KEY: trimmed,
  ALLPAGO_ENTITY_ID: trimmed,
  ALLPAGO_ACCESS_TOKEN: trimmed,
  /** The boleto's beneficiary bank (3 digits) and the secret its payment confirmations are signed with. */
  BOLETO_BANK_CODE: trimmed,
  BOLETO_NOTIFY_SECRET: trimmed,
});

/**
 * The variables that, all set, connect a payment provider (server/payments/providers). Optional extras (the
 * PayPal API address, its webhook id) are not in the lists.
 */
export const PAYMENT_CREDENTIALS = {
  card: ["BRAINTREE_MERCHANT_ID", "BRAINTREE_PUBLIC_KEY", "BRAINTREE_PRIVATE_KEY"],
  paypal: ["PAYPAL_CLIENT_ID", "PAYPAL_CLIENT_SECRET"],
  alipay: ["ALIPAY_APP_ID", "ALIPAY_PRIVATE_KEY", "ALIPAY_PUBLIC_KEY"],
  wechat: [
    "WECHATPAY_MCH_ID",
    "WECHATPAY_APP_ID",
    "WECHATPAY_API_V3_KEY",
    "WECHATPAY_PRIVATE_KEY",
    "WECHATPAY_SERIAL",
    "WECHATPAY_PLATFORM_CERT",
  ],
  unionpay: ["UNIONPAY_MER_ID", "UNIONPAY_PRIVATE_KEY", "UNIONPAY_PUBLIC_KEY"],
  allpago: ["ALLPAGO_ENTITY_ID", "ALLPAGO_ACCESS_TOKEN"],
  boleto: ["BOLETO_BANK_CODE", "BOLETO_NOTIFY_SECRET"],
} as const satisfies Record<ProviderId, readonly (keyof z.output<typeof envSchema>)[]>;

export type Env = z.output<typeof envSchema> & {
  /** Every `OAUTH_<ID>_CLIENT_SECRET` that is set, by variable name (clientSecretEnvName in server/auth/social.ts). */
  OAUTH_CLIENT_SECRETS: Readonly<Record<string, string>>;
  /** Every `CONFIG_<NAME>` and `FLAG_<NAME>` variable, by variable name: overrides of the stored config (server/config). */
  CONFIG_OVERRIDES: Readonly<Record<string, string>>;
};

/** A variable with a bad value; the message lists every one of them. */
export class EnvError extends Error {
  readonly code = "INVALID_ENV";
  constructor(readonly problems: { name: string; message: string }[]) {
    super(`Invalid environment:\n${problems.map((p) => `  ${p.name} ${p.message}`).join("\n")}`);
    this.name = "EnvError";
  }
}

const OAUTH_CLIENT_SECRET = /^OAUTH_[A-Z0-9_]+_CLIENT_SECRET$/;
const CONFIG_OVERRIDE = /^(CONFIG|FLAG)_/;

/** Reads and checks the environment (process.env by default); throws EnvError naming every bad variable. */
export function readEnv(source: Record<string, string | undefined> = process.env): Env {
  // An empty variable counts as unset (`PORT= npm start`), except NODE_ENV, which keeps what it is given.
  const input: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) if (value !== undefined && (value !== "" || name === "NODE_ENV")) input[name] = value;
  const parsed = z.safeParse(envSchema, input);
  const partial = partialCredentials(input);
  if (!parsed.success) {
    throw new EnvError([
      ...parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? "?");
        const value = input[name];
        return { name, message: value === undefined ? issue.message : `${issue.message} (it is ${JSON.stringify(value)})` };
      }),
      ...partial,
    ]);
  }
  const secrets: Record<string, string> = {};
  const overrides: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    // Secrets: only a non-empty value overrides the stored one. Config overrides: as given ("" included).
    if (OAUTH_CLIENT_SECRET.test(name) && value !== "") secrets[name] = value;
    if (CONFIG_OVERRIDE.test(name)) overrides[name] = value;
  }
  const data = { ...parsed.data, SEED_DEMO: parsed.data.SEED_DEMO ?? demoByDefault(parsed.data) };
  const problem = publicUrlProblem(data);
  partial.push(...storageProblems(data));
  // A config override whose typo would lock everyone out (a rate limit) or strand a site (a host) stops the start.
  const configProblems = configOverrideProblems(overrides);
  if (problem || partial.length || configProblems.length)
    throw new EnvError([...(problem ? [problem] : []), ...partial, ...configProblems]);
  return { ...data, OAUTH_CLIENT_SECRETS: secrets, CONFIG_OVERRIDES: overrides };
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);
const isLoopback = (host: string) =>
  LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host) || host.toLowerCase().endsWith(".localhost");

/**
 * Whether SEED_DEMO, left unset, means the demo. Only a portal no one else can reach may be a demo by omission:
 * a production process bound to an outside address or announced under a public PUBLIC_URL is a deployment, and a
 * deployment that forgot a variable must not take real researchers' orders with test cards and demo passwords.
 */
function demoByDefault(env: Pick<z.output<typeof envSchema>, "NODE_ENV" | "HOST" | "PUBLIC_URL">): boolean {
  if (env.NODE_ENV !== "production") return true;
  if (!isLoopback(env.HOST)) return false;
  return !env.PUBLIC_URL || isLoopback(new URL(env.PUBLIC_URL).hostname);
}

/**
 * Production without PUBLIC_URL would have no trustworthy address to put in e-mailed links: refused at start.
 * The demo (demo accounts seeded, the default of `npm start`) and test runs use http://HOST:PORT instead.
 */
function publicUrlProblem(env: { NODE_ENV: string; SEED_DEMO: boolean; PUBLIC_URL?: string }) {
  if (env.NODE_ENV !== "production" || env.SEED_DEMO || env.PUBLIC_URL) return null;
  return {
    name: "PUBLIC_URL",
    message:
      "must be set in production (NODE_ENV=production) unless the demo is seeded: it is the address e-mailed links lead to, e.g. PUBLIC_URL=https://portal.example.com",
  };
}

/**
 * The file store's settings (ADR 078): STORAGE=s3 needs a bucket and both keys or neither, and S3 settings without
 * STORAGE=s3 are a forgotten switch (files would go to this machine's disk unseen by the others). In production a
 * shared store means more than one machine, so SESSION_SECRET must be given: a secret generated into each
 * DATA_DIR would differ between machines and their signed cookies would not be accepted by one another.
 */
function storageProblems(env: z.output<typeof envSchema>): { name: string; message: string }[] {
  const problems: { name: string; message: string }[] = [];
  if (env.STORAGE !== "s3") {
    if (env.S3_BUCKET)
      problems.push({ name: "STORAGE", message: "must be s3 when S3_BUCKET is set (or unset S3_BUCKET to keep files on this disk)" });
    return problems;
  }
  if (!env.S3_BUCKET) problems.push({ name: "S3_BUCKET", message: "must be set when STORAGE=s3: the bucket files are kept in" });
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY))
    problems.push({
      name: env.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID",
      message: "must be set with the other S3 key (or unset them both to use the SDK's own credentials)",
    });
  if (env.NODE_ENV === "production" && !env.SESSION_SECRET?.trim())
    problems.push({
      name: "SESSION_SECRET",
      message: "must be set when STORAGE=s3 in production: every web machine must sign cookies with the same secret",
    });
  return problems;
}

/**
 * A provider with some of its credentials but not all is a mistake, not a choice: it would be neither the provider
 * nor (before issue 21) anything but its sandbox. Refused at start, naming what is missing.
 */
function partialCredentials(input: Record<string, string>): { name: string; message: string }[] {
  const problems: { name: string; message: string }[] = [];
  // As the schema reads them: surrounding spaces dropped, only spaces counts as unset.
  const env = (name: string) => Boolean(input[name]?.trim());
  for (const [provider, names] of Object.entries(PAYMENT_CREDENTIALS)) {
    const missing = names.filter((name) => !env(name));
    if (missing.length === 0 || missing.length === names.length) continue;
    for (const name of missing)
      problems.push({
        name,
        message: `must be set: the ${provider} payment provider has ${names.filter(env).join(", ")} but also needs ${missing.join(", ")} (or unset them all)`,
      });
  }
  return problems;
}
