// The SANDBOX WeChat adapter: behaves like WeChat's own test mode. Instead of
// asking WeChat for a QR ticket, it stores the QR session itself and encodes
// the address of a local confirmation page in the QR image; a visitor signed in
// to the portal on that page (the "phone") scans, confirms or cancels. The UI
// labels every sandbox session as such (ADR 004).
import { randomBytes } from "node:crypto";
import { isSiteLang } from "#common/i18n";
import { paths } from "#common/paths";
import type { DB } from "../db";
import type { WechatQrStatus } from "../../db/types-wechat";
import {
  WECHAT_PICKUP_SECONDS,
  WECHAT_QR_TTL_SECONDS,
  type WechatConfirmOutcome,
  type WechatCreateQrInput,
  type WechatCreatedQr,
  type WechatProvider,
  type WechatQrSession,
} from "./wechat-types";
import { clip } from "#common/text";

/** The local page a sandbox QR image points at. */
export function sandboxConfirmPath(lang: string, loginCode: string): string {
  // The session's language was checked when the QR session was made; a stored value that is not a site
  // language (never written by this code) falls back to English rather than building a broken link.
  return paths.wechatConfirm(isSiteLang(lang) ? lang : "en", loginCode);
}

const LIVE: WechatQrStatus[] = ["pending", "scanned", "confirmed"];

export class SandboxWechatProvider implements WechatProvider {
  readonly id = "sandbox";
  readonly sandbox = true;

  constructor(
    private db: DB,
    private now: () => Date = () => new Date(),
  ) {}

  async createQrSession(input: WechatCreateQrInput): Promise<WechatCreatedQr> {
    // 256 random bits: the code is public (in the QR image) but must not be guessable.
    const loginCode = randomBytes(32).toString("base64url");
    const ticket = `sandbox_${randomBytes(16).toString("base64url")}`;
    const now = this.now();
    const expiresAt = new Date(now.getTime() + WECHAT_QR_TTL_SECONDS * 1000);
    await this.db
      .insertInto("wechat_login_sessions")
      .values({
        login_code: loginCode,
        ticket,
        provider: this.id,
        binding_hash: input.bindingHash,
        status: "pending",
        lang: input.lang,
        redirect: clip(input.redirect ?? "", 2000) || null,
        origin: clip(input.origin ?? "", 200) || null,
        ip: input.ip?.slice(0, 100) ?? null,
        user_agent: input.userAgent == null ? null : clip(input.userAgent, 300),
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
    return { loginCode, ticket, qrTarget: `${input.baseUrl}${sandboxConfirmPath(input.lang, loginCode)}`, expiresAt };
  }

  async status(loginCode: string): Promise<WechatQrSession | null> {
    const row = await this.db.selectFrom("wechat_login_sessions").selectAll().where("login_code", "=", loginCode).executeTakeFirst();
    if (!row) return null;
    let status = row.status;
    if (LIVE.includes(status) && new Date(row.expires_at).getTime() <= this.now().getTime()) {
      // Recorded lazily: a session past its expiry is expired whoever looks first.
      await this.db
        .updateTable("wechat_login_sessions")
        .set({ status: "expired" })
        .where("login_code", "=", loginCode)
        .where("status", "in", LIVE)
        .execute();
      status = "expired";
    }
    return {
      loginCode: row.login_code,
      ticket: row.ticket,
      provider: row.provider,
      status,
      lang: row.lang,
      redirect: row.redirect,
      origin: row.origin,
      userId: row.user_id,
      ip: row.ip,
      userAgent: row.user_agent,
      createdAt: new Date(row.created_at),
      expiresAt: new Date(row.expires_at),
    };
  }

  async scan(loginCode: string): Promise<void> {
    await this.db
      .updateTable("wechat_login_sessions")
      .set({ status: "scanned", scanned_at: this.now() })
      .where("login_code", "=", loginCode)
      .where("status", "=", "pending")
      .where("expires_at", ">", this.now())
      .execute();
  }

  async confirm(loginCode: string, userId: number): Promise<WechatConfirmOutcome> {
    const now = this.now();
    const row = await this.db
      .updateTable("wechat_login_sessions")
      // The creating browser then has WECHAT_PICKUP_SECONDS to pick the sign-in up, even near the QR's expiry.
      .set({ status: "confirmed", user_id: userId, confirmed_at: now, expires_at: new Date(now.getTime() + WECHAT_PICKUP_SECONDS * 1000) })
      .where("login_code", "=", loginCode)
      .where("status", "in", ["pending", "scanned"])
      .where("expires_at", ">", now)
      .returning("login_code")
      .executeTakeFirst();
    if (row) return { ok: true };
    return this.failure(loginCode);
  }

  async cancel(loginCode: string): Promise<WechatConfirmOutcome> {
    const row = await this.db
      .updateTable("wechat_login_sessions")
      .set({ status: "cancelled" })
      .where("login_code", "=", loginCode)
      .where("status", "in", ["pending", "scanned"])
      .where("expires_at", ">", this.now())
      .returning("login_code")
      .executeTakeFirst();
    if (row) return { ok: true };
    return this.failure(loginCode);
  }

  private async failure(loginCode: string): Promise<WechatConfirmOutcome> {
    const current = await this.status(loginCode);
    if (!current) return { ok: false, error: "unknown" };
    if (current.status === "expired") return { ok: false, error: "expired" };
    return { ok: false, error: "already-handled" };
  }
}
