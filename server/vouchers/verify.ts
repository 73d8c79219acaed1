// Verifying a voucher code (spec 2 §5 "Voucher", issue 12 §7): the code as typed (trimmed, any case, still
// percent-encoded when it came in a path) against the vouchers table. Every refusal is a short code with a
// translated text (`staffpay:voucher.errors.<code>`), which the payment form shows as returned (spec 2 §8).
import type { Selectable } from "kysely";
import { sql } from "kysely";
import { fail, ok, type Result } from "#common/result";
import type { SiteLang } from "#common/i18n";
import { VOUCHER_ERRORS } from "#common/vouchers/outcomes";
import type { VoucherTable } from "../../db/types-payments";
import type { DB } from "../db";
import { fixedT } from "../i18n";
import { lockedFor, recordFailure } from "../kernel/rate-limit";
import type { Scope } from "../scope";

export type VoucherRow = Selectable<VoucherTable>;

export { VOUCHER_ERRORS };
export type VoucherError = (typeof VOUCHER_ERRORS)[number];
export const isVoucherError = (v: unknown): v is VoucherError => (VOUCHER_ERRORS as readonly unknown[]).includes(v);

/**
 * Unknown codes a user may try in 10 minutes before verification is closed to them for the rest of the window:
 * staff-typed codes ("SPRING-25") are guessable, so guessing is slowed down; a known code costs nothing.
 */
export const VOUCHER_GUESSES_PER_10_MINUTES = 20;

/** Longest code accepted: staff type codes, the generator makes 12 characters. */
export const VOUCHER_CODE_MAX = 40;

/** A voucher as the researcher and the API see it. */
export interface VoucherView {
  code: string;
  description: string | null;
  /** A percentage of the order's amount payable, or null for a fixed amount. */
  percent: number | null;
  /** A fixed amount in minor units of `currencyIso`, or null for a percentage. */
  amount: number | null;
  currencyIso: string | null;
  validUntil: string | null;
}

/**
 * The code as stored and compared: percent-decoded (a path carries it encoded; a malformed escape is kept as
 * typed), trimmed, upper-case. Comparison in the database is on upper(code), the unique index.
 */
export function normalizeVoucherCode(raw: string | null | undefined): string {
  if (typeof raw !== "string") return "";
  let text = raw;
  if (text.includes("%")) {
    try {
      text = decodeURIComponent(text);
    } catch {
      // Not an escape sequence: the code as typed (it will simply not be found).
    }
  }
  return text.trim().toUpperCase();
}

export async function findVoucher(db: DB, code: string): Promise<VoucherRow | null> {
  if (!code || code.length > VOUCHER_CODE_MAX) return null;
  return (
    (await db
      .selectFrom("vouchers")
      .selectAll()
      .where(sql`upper(code)`, "=", code.toUpperCase())
      .executeTakeFirst()) ?? null
  );
}

/** Why a voucher cannot be used now, or null when it can (pure: the rules in one place). */
export function voucherProblem(row: VoucherRow, now: Date): VoucherError | null {
  if (!row.active) return "voucher-inactive";
  if (row.valid_until && new Date(row.valid_until).getTime() < now.getTime()) return "voucher-expired";
  if (row.max_uses !== null && Number(row.times_used) >= row.max_uses) return "voucher-used-up";
  return null;
}

export function voucherView(row: VoucherRow): VoucherView {
  return {
    code: row.code.toUpperCase(),
    description: row.description,
    percent: row.percent,
    amount: row.amount === null ? null : Number(row.amount),
    currencyIso: row.currency_iso ? row.currency_iso.trim() : null,
    validUntil: row.valid_until ? new Date(row.valid_until).toISOString() : null,
  };
}

/** Spec 2 §6: "voucher requires voucherAvailable" (users.voucher_available). */
export async function voucherAvailableTo(db: DB, userId: number | null): Promise<boolean> {
  if (!userId) return false;
  const u = await db.selectFrom("users").select("voucher_available").where("id", "=", userId).executeTakeFirst();
  return u?.voucher_available === true;
}

/**
 * Verifies a code for the signed-in user. Errors: the VOUCHER_ERRORS codes (an anonymous visitor gets
 * `voucher-not-available`: vouchers belong to accounts; `too-many-requests` with details.retryAfterSeconds after
 * VOUCHER_GUESSES_PER_10_MINUTES unknown codes).
 */
export async function verifyVoucher(
  scope: Scope,
  rawCode: string,
  now = new Date(),
): Promise<Result<{ voucher: VoucherView; row: VoucherRow }>> {
  const code = normalizeVoucherCode(rawCode);
  if (!code) return fail("voucher-code-empty");
  if (!(await voucherAvailableTo(scope.app.db, scope.userId))) return fail("voucher-not-available");
  const guesses = `voucher-guess:user:${scope.userId}`;
  const locked = await lockedFor(scope.app.cache, guesses);
  if (locked > 0) return fail("too-many-requests", { retryAfterSeconds: locked });
  const row = await findVoucher(scope.app.db, code);
  if (!row) {
    await recordFailure(scope.app.cache, guesses, VOUCHER_GUESSES_PER_10_MINUTES, 600);
    return fail("voucher-not-found");
  }
  const problem = voucherProblem(row, now);
  if (problem) return fail(problem);
  return ok({ voucher: voucherView(row), row });
}

/** The translated text of a voucher error (the API's `message`; pages translate the key themselves). */
export function voucherErrorText(lang: SiteLang, error: string): string {
  const t = fixedT(lang, "staffpay");
  return String(t(`voucher.errors.${isVoucherError(error) ? error : "voucher-not-found"}`));
}
