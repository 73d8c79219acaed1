// Server-side sessions. The cookie carries 128 random bits; the database keeps
// only their SHA-256, so a leaked table does not leak live sessions.
// Timeouts (ADR 002): 30 minutes idle, 12 hours absolute (OWASP ASVS level 2).
// In accounts, not auth (ADR 059): a password change and a registration open a session, and auth (sign-in) loads accounts.
import { createHash, randomBytes } from "node:crypto";
import type { DB } from "../db";
import { clip } from "#common/text";

export const SESSION_IDLE_SECONDS = 30 * 60;
export const SESSION_ABSOLUTE_SECONDS = 12 * 60 * 60;
/** last_seen_at is written at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export interface SessionUser {
  id: number;
  identity: string;
  email: string;
  firstName: string;
  lastName: string;
  language: string;
  localization: string;
  currencyIso: string;
  isStaff: boolean;
  isAdmin: boolean;
  active: boolean;
}

export interface CurrentSession {
  idHash: string;
  user: SessionUser;
  impersonatorId: number | null;
  /** The staff member viewing as this user (spec 1 §1), if any. */
  impersonatorIdentity: string | null;
  impersonatorName: string | null;
}

export async function createSession(
  db: DB,
  userId: number,
  meta: { impersonatorId?: number | null; ip?: string | null; userAgent?: string | null } = {},
): Promise<string> {
  const token = randomBytes(16).toString("base64url");
  await db
    .insertInto("sessions")
    .values({
      id_hash: hashToken(token),
      user_id: userId,
      impersonator_id: meta.impersonatorId ?? null,
      expires_at: new Date(Date.now() + SESSION_ABSOLUTE_SECONDS * 1000),
      ip: meta.ip ?? null,
      user_agent: meta.userAgent == null ? null : clip(meta.userAgent, 300),
    })
    .execute();
  return token;
}

export async function readSession(db: DB, token: string | undefined, now = new Date()): Promise<CurrentSession | null> {
  if (!token || token.length > 64) return null;
  const idHash = hashToken(token);
  const row = await db
    .selectFrom("sessions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .leftJoin("users as imp", "imp.id", "s.impersonator_id")
    .select([
      "imp.identity as imp_identity",
      "imp.first_name as imp_first_name",
      "imp.last_name as imp_last_name",
      "s.id_hash",
      "s.impersonator_id",
      "s.last_seen_at",
      "s.expires_at",
      "s.revoked_at",
      "u.id",
      "u.identity",
      "u.email",
      "u.first_name",
      "u.last_name",
      "u.language",
      "u.localization",
      "u.currency_iso",
      "u.is_staff",
      "u.is_admin",
      "u.active",
    ])
    .where("s.id_hash", "=", idHash)
    .executeTakeFirst();
  if (!row || row.revoked_at || !row.active) return null;
  const lastSeen = new Date(row.last_seen_at).getTime();
  if (new Date(row.expires_at).getTime() <= now.getTime()) return null;
  if (now.getTime() - lastSeen > SESSION_IDLE_SECONDS * 1000) return null;
  if (now.getTime() - lastSeen > TOUCH_INTERVAL_MS) {
    await db.updateTable("sessions").set({ last_seen_at: now }).where("id_hash", "=", idHash).execute();
  }
  return {
    idHash,
    impersonatorId: row.impersonator_id,
    impersonatorIdentity: row.imp_identity ?? null,
    impersonatorName: row.imp_identity ? `${row.imp_first_name} ${row.imp_last_name}` : null,
    user: {
      id: row.id,
      identity: row.identity,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      language: row.language,
      localization: row.localization,
      currencyIso: row.currency_iso.trim(),
      isStaff: row.is_staff,
      isAdmin: row.is_admin,
      active: row.active,
    },
  };
}

export async function revokeSession(db: DB, token: string | undefined): Promise<void> {
  if (!token) return;
  await db
    .updateTable("sessions")
    .set({ revoked_at: new Date() })
    .where("id_hash", "=", hashToken(token))
    .where("revoked_at", "is", null)
    .execute();
}

export async function revokeAllSessions(db: DB, userId: number): Promise<void> {
  await db.updateTable("sessions").set({ revoked_at: new Date() }).where("user_id", "=", userId).where("revoked_at", "is", null).execute();
}
