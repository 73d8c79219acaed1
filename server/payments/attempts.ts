// At most one open payment attempt per invoice (issue 21 §2, ADR 051). An attempt is open while it is
// `pending` (a boleto to pay at a bank, a PayPal order to approve, a QR code to scan) or `processing` under a
// live lease (its process is asking the provider now). A new attempt on the same invoices is refused with the
// open one's id and page: a boleto someone may already have paid at a bank must never be silently voided, so
// the researcher is sent to it instead. An attempt whose process died (its lease lapsed) is the recovery job's
// (recover.ts): it asks the provider and settles or fails it; until then the invoice answers "in progress".
import { sql } from "kysely";
import { fail, type Result } from "#common/result";
import { paths } from "#common/paths";
import type { SiteLang } from "#common/i18n";
import type { DB } from "../db";
import type { Scope } from "../scope";

/** How long a `processing` attempt is held without a renewal (the charging process renews it every LEASE_RENEW_MS). */
export const LEASE_SECONDS = 15;
export const LEASE_RENEW_MS = 5_000;

export const leaseUntil = (now = Date.now()) => new Date(now + LEASE_SECONDS * 1000);

/**
 * The open attempt on any of `invoiceNumbers`, as the refusal a new attempt gets: `payment-pending` (409) with
 * the pending payment's id and page, or `payment-in-progress` while another process charges. Null when none.
 * The caller holds the invoices' row locks, so no attempt can open between this check and its insert.
 */
export async function openAttemptRefusal(trx: DB, invoiceNumbers: string[], lang: SiteLang): Promise<Result<never> | null> {
  if (invoiceNumbers.length === 0) return null;
  const open = await trx
    .selectFrom("payments")
    .select(["id", "status"])
    .where("status", "in", ["processing", "pending"])
    .where(sql<boolean>`invoice_numbers ?| ${sql.val(invoiceNumbers)}::text[]`)
    .orderBy("created_at")
    .executeTakeFirst();
  if (!open) return null;
  if (open.status === "processing") return fail("payment-in-progress", { paymentId: open.id });
  return fail("payment-pending", { paymentId: open.id, url: paths.paymentPending(lang, open.id) });
}

/** The pending attempt on any of `invoiceNumbers` that a page offers instead of "Pay" (its id), or null. */
export async function pendingAttemptOf(db: DB, invoiceNumbers: string[]): Promise<string | null> {
  if (invoiceNumbers.length === 0) return null;
  const row = await db
    .selectFrom("payments")
    .select("id")
    .where("status", "=", "pending")
    .where(sql<boolean>`invoice_numbers ?| ${sql.val(invoiceNumbers)}::text[]`)
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Keeps a `processing` attempt's lease while `run` works (the provider call), renewing it every LEASE_RENEW_MS:
 * when this process dies the renewals stop and the lease lapses within LEASE_SECONDS, never later.
 */
export async function withLease<T>(db: DB, paymentId: string, run: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => {
    void db
      .updateTable("payments")
      .set({ lease_until: leaseUntil() })
      .where("id", "=", paymentId)
      .where("status", "=", "processing")
      .execute()
      .catch(() => undefined);
  }, LEASE_RENEW_MS);
  timer.unref();
  try {
    return await run();
  } finally {
    clearInterval(timer);
  }
}

/** The signed-in researcher's pending attempt on these invoices, for the pay page to send them to (or null). */
export async function ownPendingAttempt(scope: Scope, invoiceNumbers: string[]): Promise<string | null> {
  if (scope.userId === null) return null;
  const id = await pendingAttemptOf(scope.app.db, invoiceNumbers);
  if (!id) return null;
  const row = await scope.app.db.selectFrom("payments").select("user_id").where("id", "=", id).executeTakeFirst();
  return row?.user_id === scope.userId ? id : null;
}
