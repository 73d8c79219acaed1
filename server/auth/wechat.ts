// WeChat QR sign-in (spec 1 §3, §4, §7, §9; ADR 004).
//
// A browser starts a QR session (POST), shows the QR image and polls the status
// every 2 s, at most 30 times. The phone confirms; the next poll from the SAME
// browser creates a portal session there. The browser is bound to its QR session
// by a random secret in an HttpOnly cookie whose SHA-256 is stored with the
// session, so a leaked login code alone signs nobody in. A confirmed session is
// consumed by the first successful poll and never works again.
//
// The provider adapter (wechat-types.ts) is the seam to WeChat; only the SANDBOX
// adapter (wechat-sandbox.ts) exists here. It runs only when configured
// (WECHAT_MODE=sandbox), the UI labels it as test mode, and its confirmation page
// acts only with the short code shown beside the QR image (ADR 024): a link to the
// confirmation page alone, sent to a victim, scans, confirms and cancels nothing.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import QRCode from "qrcode";
import type { AppContext } from "../context";
import { lockedFor, rateLimit, recordFailure } from "../kernel/rate-limit";
import { createSession } from "../accounts/session";
import { SandboxWechatProvider } from "./wechat-sandbox";
import { WECHAT_QR_TTL_SECONDS, type WechatProvider, type WechatQrSession } from "./wechat-types";

export {
  WECHAT_PICKUP_SECONDS,
  WECHAT_QR_TTL_SECONDS,
  type WechatConfirmOutcome,
  type WechatCreateQrInput,
  type WechatCreatedQr,
  type WechatProvider,
  type WechatQrSession,
  type WechatQrStatus,
} from "./wechat-types";
export { sandboxConfirmPath } from "./wechat-sandbox";

/** Client polling (spec 1 §9): every 2 s, at most 30 times. */
export const WECHAT_POLL_INTERVAL_MS = 2000;
export const WECHAT_MAX_POLLS = 30;
export const WECHAT_BIND_COOKIE = "wechat_bind";

/**
 * Rate limits. Defaults here; each can be set in the `rateLimits` config value
 * (wechatStartsPer10Minutes, wechatPollsPerCode, wechatPollsPerMinute).
 * 30 polls per session is the client's budget; 45 leaves slack for reloads.
 */
export const WECHAT_RATE_LIMIT_DEFAULTS = { wechatStartsPer10Minutes: 60, wechatPollsPerCode: 45, wechatPollsPerMinute: 600 };
export type WechatRateLimits = typeof WECHAT_RATE_LIMIT_DEFAULTS;

const LOGIN_CODE_RE = /^[A-Za-z0-9_-]{22,64}$/;

/**
 * The provider for this portal, or null when none is configured. Only the sandbox exists (the real WeChat
 * needs network access and credentials this build has not), and only with WECHAT_MODE=sandbox.
 */
export function wechatProvider(ctx: AppContext): WechatProvider | null {
  return ctx.env.WECHAT_MODE === "sandbox" ? new SandboxWechatProvider(ctx.db) : null;
}

/** Whether WeChat sign-in is offered: a provider is configured and the wechat_sso flag is on. */
export async function wechatAvailable(ctx: AppContext): Promise<boolean> {
  return wechatProvider(ctx) !== null && (await ctx.config.flag("wechat_sso"));
}

function requireProvider(ctx: AppContext): WechatProvider {
  const provider = wechatProvider(ctx);
  if (!provider) throw new Error("WeChat sign-in is not configured (WECHAT_MODE)");
  return provider;
}

/** The confirmation code: 6 characters without look-alikes (no 0/O, 1/I/L). */
const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const WECHAT_CODE_LENGTH = 6;
/** Wrong codes a QR session takes; the last one ends it (expired), so guessing gets nowhere. */
export const WECHAT_CODE_ATTEMPTS = 5;

/**
 * The short code the phone must type, shown only beside the QR image (to the browser holding the binding
 * cookie). Derived from the login code with a server secret, so nothing more is stored.
 */
export function wechatConfirmCode(ctx: AppContext, loginCode: string): string {
  const mac = createHmac("sha256", ctx.secrets.cookieSecret).update(`wechat-confirm-code:${loginCode}`).digest();
  let code = "";
  for (let i = 0; i < WECHAT_CODE_LENGTH; i++) code += CODE_ALPHABET[mac[i] % CODE_ALPHABET.length];
  return code;
}

/** What a person typed: case, spaces and dashes do not matter. */
function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, "").toUpperCase().slice(0, 32);
}

export type WechatCodeError = "wrong-code" | "unknown" | "expired";

/**
 * Checks the typed code of a QR session in constant time. A wrong one counts; the WECHAT_CODE_ATTEMPTS-th
 * ends the session (status expired): the browser that shows the QR code then starts again.
 */
async function checkConfirmCode(ctx: AppContext, loginCode: string, typed: string | undefined): Promise<WechatCodeError | null> {
  if (!isWellFormedLoginCode(loginCode)) return "unknown";
  const key = `wechat:code:${loginCode}`;
  if ((await lockedFor(ctx.cache, key)) > 0) return "expired";
  const expected = createHash("sha256").update(wechatConfirmCode(ctx, loginCode)).digest();
  const given = createHash("sha256")
    .update(normalizeCode(typed ?? ""))
    .digest();
  if (timingSafeEqual(expected, given)) return null;
  const { lockedForSeconds } = await recordFailure(ctx.cache, key, WECHAT_CODE_ATTEMPTS, WECHAT_QR_TTL_SECONDS * 2);
  if (lockedForSeconds > 0) {
    await ctx.db
      .updateTable("wechat_login_sessions")
      .set({ status: "expired" })
      .where("login_code", "=", loginCode)
      .where("status", "in", ["pending", "scanned"])
      .execute();
    return "expired";
  }
  return "wrong-code";
}

export async function wechatRateLimits(ctx: AppContext): Promise<WechatRateLimits> {
  const configured = (await ctx.config.snapshot()).config.rateLimits as Record<string, unknown>;
  const pick = (k: keyof WechatRateLimits) => {
    const v = configured[k];
    return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : WECHAT_RATE_LIMIT_DEFAULTS[k];
  };
  return {
    wechatStartsPer10Minutes: pick("wechatStartsPer10Minutes"),
    wechatPollsPerCode: pick("wechatPollsPerCode"),
    wechatPollsPerMinute: pick("wechatPollsPerMinute"),
  };
}

export function isWellFormedLoginCode(code: string | undefined | null): code is string {
  return typeof code === "string" && LOGIN_CODE_RE.test(code);
}

export function bindingHash(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** The QR image as a data: URL (SVG), so no third-party origin serves it (CSP img-src 'self' data:). */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

export type WechatStartResult =
  | {
      ok: true;
      loginCode: string;
      ticket: string;
      /** What the QR image encodes. */
      url: string;
      qrCodeUrl: string;
      /** Goes into the creating browser's HttpOnly cookie; never into a response body. */
      secret: string;
      expiresAt: Date;
      sandbox: boolean;
      /** Shown beside the QR image; the phone types it (ADR 024). */
      confirmCode: string;
    }
  | { ok: false; error: "rate-limited"; retryAfterSeconds: number };

export async function startWechatSignIn(
  ctx: AppContext,
  input: { lang: string; redirect?: string | null; origin?: string | null; ip: string; userAgent?: string | null; baseUrl: string },
): Promise<WechatStartResult> {
  const limits = await wechatRateLimits(ctx);
  const byIp = await rateLimit(ctx.cache, `wechat:start:ip:${input.ip}`, limits.wechatStartsPer10Minutes, 600);
  if (!byIp.allowed) return { ok: false, error: "rate-limited", retryAfterSeconds: byIp.retryAfterSeconds };
  // Sessions older than a day are of no use to anyone.
  await ctx.db
    .deleteFrom("wechat_login_sessions")
    .where("expires_at", "<", new Date(Date.now() - 86_400_000))
    .execute();
  const provider = requireProvider(ctx);
  const secret = randomBytes(32).toString("base64url");
  const created = await provider.createQrSession({
    bindingHash: bindingHash(secret),
    lang: input.lang,
    redirect: input.redirect,
    origin: input.origin,
    ip: input.ip,
    userAgent: input.userAgent,
    baseUrl: ctx.env.PUBLIC_URL ?? input.baseUrl,
  });
  return {
    ok: true,
    loginCode: created.loginCode,
    ticket: created.ticket,
    url: created.qrTarget,
    qrCodeUrl: await qrCodeDataUrl(created.qrTarget),
    secret,
    expiresAt: created.expiresAt,
    sandbox: provider.sandbox,
    confirmCode: wechatConfirmCode(ctx, created.loginCode),
  };
}

export type WechatPollError = "unknown" | "expired" | "cancelled" | "used" | "inactive" | "rate-limited";

export type WechatPollResult =
  | { kind: "waiting"; status: "pending" | "scanned"; session: WechatQrSession; confirmCode: string }
  | {
      kind: "signed-in";
      token: string;
      user: { id: number; identity: string; firstName: string; lastName: string };
      lang: string;
      redirect: string | null;
      origin: string | null;
    }
  | { kind: "error"; error: WechatPollError; retryAfterSeconds?: number };

/**
 * One poll of the creating browser (`secret` from its binding cookie). Waiting sessions report
 * their status; a confirmed one is consumed (once) and a portal session is created for the
 * confirming user. A session that is not this browser's reads as unknown, exactly like a
 * code that does not exist.
 */
export async function pollWechatSignIn(
  ctx: AppContext,
  input: { loginCode: string; secret: string | undefined; ip: string; userAgent?: string | null },
): Promise<WechatPollResult> {
  const limits = await wechatRateLimits(ctx);
  const byIp = await rateLimit(ctx.cache, `wechat:poll:ip:${input.ip}`, limits.wechatPollsPerMinute, 60);
  if (!byIp.allowed) return { kind: "error", error: "rate-limited", retryAfterSeconds: byIp.retryAfterSeconds };
  if (!isWellFormedLoginCode(input.loginCode)) return { kind: "error", error: "unknown" };
  const byCode = await rateLimit(ctx.cache, `wechat:poll:code:${input.loginCode}`, limits.wechatPollsPerCode, WECHAT_QR_TTL_SECONDS * 5);
  if (!byCode.allowed) return { kind: "error", error: "rate-limited", retryAfterSeconds: byCode.retryAfterSeconds };

  const bound = await ctx.db
    .selectFrom("wechat_login_sessions")
    .select("binding_hash")
    .where("login_code", "=", input.loginCode)
    .executeTakeFirst();
  if (!bound || !input.secret || input.secret.length > 100 || !sameHash(bindingHash(input.secret), bound.binding_hash)) {
    return { kind: "error", error: "unknown" };
  }
  const provider = wechatProvider(ctx);
  const session = provider ? await provider.status(input.loginCode) : null;
  if (!session) return { kind: "error", error: "unknown" };
  switch (session.status) {
    case "pending":
    case "scanned":
      return { kind: "waiting", status: session.status, session, confirmCode: wechatConfirmCode(ctx, input.loginCode) };
    case "expired":
      return { kind: "error", error: "expired" };
    case "cancelled":
      return { kind: "error", error: "cancelled" };
    case "consumed":
      return { kind: "error", error: "used" };
    case "confirmed":
      return consume(ctx, input.loginCode, bound.binding_hash, input);
  }
}

async function consume(
  ctx: AppContext,
  loginCode: string,
  hash: string,
  input: { ip: string; userAgent?: string | null },
): Promise<WechatPollResult> {
  const now = new Date();
  // Compare-and-set: of two simultaneous polls only one sees the row change.
  const row = await ctx.db
    .updateTable("wechat_login_sessions")
    .set({ status: "consumed", consumed_at: now })
    .where("login_code", "=", loginCode)
    .where("status", "=", "confirmed")
    .where("binding_hash", "=", hash)
    .where("expires_at", ">", now)
    .where("user_id", "is not", null)
    .returning(["user_id", "lang", "redirect", "origin"])
    .executeTakeFirst();
  if (!row || row.user_id === null) {
    const again = await requireProvider(ctx).status(loginCode);
    return { kind: "error", error: again?.status === "expired" ? "expired" : "used" };
  }
  const user = await ctx.db
    .selectFrom("users")
    .select(["id", "identity", "first_name", "last_name", "active"])
    .where("id", "=", row.user_id)
    .executeTakeFirst();
  if (!user || !user.active) return { kind: "error", error: "inactive" };
  const token = await createSession(ctx.db, user.id, { ip: input.ip, userAgent: input.userAgent });
  return {
    kind: "signed-in",
    token,
    user: { id: user.id, identity: user.identity, firstName: user.first_name, lastName: user.last_name },
    lang: row.lang,
    redirect: row.redirect,
    origin: row.origin,
  };
}

/** The confirmation page's view of a QR session (no binding needed: the phone is another device). Reading changes nothing. */
export async function wechatSessionForConfirmation(ctx: AppContext, loginCode: string): Promise<WechatQrSession | null> {
  const provider = wechatProvider(ctx);
  if (!provider || !isWellFormedLoginCode(loginCode)) return null;
  return provider.status(loginCode);
}

export type WechatPhoneOutcome = { ok: true } | { ok: false; error: WechatCodeError | "already-handled" };

/** The phone typed the code shown beside the QR image: like WeChat's "scanned" event (pending → scanned). */
export async function scanWechatSession(ctx: AppContext, loginCode: string, code: string | undefined): Promise<WechatPhoneOutcome> {
  const wrong = await checkConfirmCode(ctx, loginCode, code);
  if (wrong) return { ok: false, error: wrong };
  const session = await wechatSessionForConfirmation(ctx, loginCode);
  if (!session) return { ok: false, error: "unknown" };
  if (session.status === "expired") return { ok: false, error: "expired" };
  if (session.status !== "pending" && session.status !== "scanned") return { ok: false, error: "already-handled" };
  await requireProvider(ctx).scan(loginCode);
  return { ok: true };
}

export async function confirmWechatSession(
  ctx: AppContext,
  loginCode: string,
  userId: number,
  code: string | undefined,
): Promise<WechatPhoneOutcome> {
  const wrong = await checkConfirmCode(ctx, loginCode, code);
  if (wrong) return { ok: false, error: wrong };
  return requireProvider(ctx).confirm(loginCode, userId);
}

export async function cancelWechatSession(ctx: AppContext, loginCode: string, code: string | undefined): Promise<WechatPhoneOutcome> {
  const wrong = await checkConfirmCode(ctx, loginCode, code);
  if (wrong) return { ok: false, error: wrong };
  return requireProvider(ctx).cancel(loginCode);
}

/** HTTP status of the phone's answer: a wrong code is bad input, a session that is gone is gone. */
export function wechatPhoneStatus(outcome: WechatPhoneOutcome): number {
  if (outcome.ok) return 200;
  return outcome.error === "wrong-code" ? 400 : outcome.error === "unknown" ? 404 : outcome.error === "expired" ? 410 : 409;
}

/** Translation key (namespace "wechat") for a poll error. */
export function wechatErrorKey(error: WechatPollError): string {
  return `errors.${error === "rate-limited" ? "rateLimited" : error}`;
}

/** HTTP status for a poll error. */
export function wechatErrorStatus(error: WechatPollError): number {
  switch (error) {
    case "unknown":
      return 404;
    case "rate-limited":
      return 429;
    case "inactive":
      return 403;
    default:
      return 410;
  }
}
