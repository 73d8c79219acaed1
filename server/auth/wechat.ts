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
// adapter (wechat-sandbox.ts) exists here, and the UI labels it as test mode.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import QRCode from "qrcode";
import type { AppContext } from "../context";
import { cookies } from "../http/cookies";
import { rateLimit } from "../http/rate-limit";
import { createSession } from "./session";
import { SandboxWechatProvider } from "./wechat-sandbox";
import { WECHAT_QR_TTL_SECONDS, type WechatProvider, type WechatQrSession } from "./wechat-types";

export * from "./wechat-types";
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

/** The provider for this portal. Only the sandbox exists: the real WeChat needs network access and credentials this build has not. */
export function wechatProvider(ctx: AppContext): WechatProvider {
  return new SandboxWechatProvider(ctx.db);
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

export function wechatBindingCookie(secret: string, secure: boolean): string {
  return cookies.wechatBinding.serialize(secret, secure);
}

export function clearedWechatBindingCookie(secure: boolean): string {
  return cookies.wechatBinding.clear(secure);
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
  const provider = wechatProvider(ctx);
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
  };
}

export type WechatPollError = "unknown" | "expired" | "cancelled" | "used" | "inactive" | "rate-limited";

export type WechatPollResult =
  | { kind: "waiting"; status: "pending" | "scanned"; session: WechatQrSession }
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
  const session = await wechatProvider(ctx).status(input.loginCode);
  if (!session) return { kind: "error", error: "unknown" };
  switch (session.status) {
    case "pending":
    case "scanned":
      return { kind: "waiting", status: session.status, session };
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
    const again = await wechatProvider(ctx).status(loginCode);
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

/** The confirmation page's view of a QR session (no binding needed: the phone is another device). */
export async function wechatSessionForConfirmation(ctx: AppContext, loginCode: string): Promise<WechatQrSession | null> {
  if (!isWellFormedLoginCode(loginCode)) return null;
  return wechatProvider(ctx).status(loginCode);
}

/** The phone opened the QR target: like WeChat's "scanned" event. */
export async function scanWechatSession(ctx: AppContext, loginCode: string): Promise<void> {
  if (!isWellFormedLoginCode(loginCode)) return;
  await wechatProvider(ctx).scan(loginCode);
}

export async function confirmWechatSession(ctx: AppContext, loginCode: string, userId: number) {
  if (!isWellFormedLoginCode(loginCode)) return { ok: false, error: "unknown" } as const;
  return wechatProvider(ctx).confirm(loginCode, userId);
}

export async function cancelWechatSession(ctx: AppContext, loginCode: string) {
  if (!isWellFormedLoginCode(loginCode)) return { ok: false, error: "unknown" } as const;
  return wechatProvider(ctx).cancel(loginCode);
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
