// The seam between the portal and a WeChat QR sign-in provider (ADR 004).
import type { WechatQrStatus } from "../../db/types-wechat";

export type { WechatQrStatus };
export { WECHAT_QR_TTL_SECONDS, WECHAT_PICKUP_SECONDS } from "#common/auth/wechat";

export interface WechatQrSession {
  loginCode: string;
  ticket: string;
  provider: string;
  /** Effective status: a live session past its expiry reads as "expired". */
  status: WechatQrStatus;
  lang: string;
  redirect: string | null;
  origin: string | null;
  userId: number | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export interface WechatCreateQrInput {
  /** SHA-256 (hex) of the secret kept in the creating browser's HttpOnly cookie. */
  bindingHash: string;
  lang: string;
  redirect?: string | null;
  origin?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  /** Public origin of the portal (PUBLIC_URL or the request's), for addresses put in the QR image. */
  baseUrl: string;
}

export interface WechatCreatedQr {
  loginCode: string;
  ticket: string;
  /** What the QR image encodes (WeChat's `url`; the sandbox confirmation page here). */
  qrTarget: string;
  expiresAt: Date;
}

export type WechatConfirmOutcome = { ok: true } | { ok: false; error: "unknown" | "expired" | "already-handled" };

/**
 * A WeChat QR sign-in provider. The portal calls createQrSession when a browser starts a
 * sign-in and status when it polls. scan/confirm/cancel are what the phone does: the
 * sandbox's confirmation page calls them directly; a real adapter would call them from
 * WeChat's event callback (scene id → QR session, openid → portal user).
 */
export interface WechatProvider {
  readonly id: string;
  /** True for the test-mode adapter; the UI then says "Sandbox". */
  readonly sandbox: boolean;
  createQrSession(input: WechatCreateQrInput): Promise<WechatCreatedQr>;
  status(loginCode: string): Promise<WechatQrSession | null>;
  scan(loginCode: string): Promise<void>;
  confirm(loginCode: string, userId: number): Promise<WechatConfirmOutcome>;
  cancel(loginCode: string): Promise<WechatConfirmOutcome>;
}
