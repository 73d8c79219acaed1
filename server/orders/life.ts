// The order's life after placing (issue 11 §1, spec 2 §4): one table of states and events
// (#common/orders/status), one function that moves an order, and one function that derives what the order
// offers (paid, downloadAvailable, certificateReady, reeditAvailable, touchUpAvailable…). Routes never decide
// these themselves. A transition is one transaction: the order row is locked, its state and dates change, a
// history row names who did it, and a job e-mails the researcher in their language.
import { sql } from "kysely";
import * as z from "zod/mini";
import { fail, ok, type Result } from "#common/result";
import { ORDER_EVENTS, canTransition, type DisplayStatus, type OrderEvent, type OrderStatus } from "#common/orders/status";
import { isSiteLang, type SiteLang } from "#common/i18n";
import { paths } from "#common/paths";
import type { AppContext } from "../context";
import type { DB } from "../db";
import { orderTransitioned } from "./events";
import { defineJob } from "../jobs/define";
import { fixedT } from "../i18n";
import { mailLinkBase, sendMail } from "../mail";
import { invalidateUser } from "../accounts/user-cache";
import { clip } from "#common/text";
import { SYSTEM_ACTOR, type Actor } from "../kernel/actor";

/** Days after completion in which a re-edit may be requested. */
export const REEDIT_WINDOW_DAYS = 365;

// Who makes a change is the kernel's (ADR 056); re-exported for the order code that names it from here.
export type { Actor } from "../kernel/actor";

export const SYSTEM: Actor = SYSTEM_ACTOR;

export interface TransitionOptions {
  note?: string | null;
  data?: Record<string, unknown>;
  /** Do not e-mail the researcher (the event is reported by another mail, e.g. a placement with notification off). */
  silent?: boolean;
}

export interface Transitioned {
  orderId: number;
  externalId: string;
  from: OrderStatus;
  to: OrderStatus;
  historyId: string;
}

/** Errors: `not-found`, `invalid-transition` (409: the order is not in a state the event leaves from), `no-deliverables` (409). */
export async function transitionOrder(
  app: AppContext,
  actor: Actor,
  ref: { orderId: number } | { externalId: string },
  event: OrderEvent,
  options: TransitionOptions = {},
): Promise<Result<Transitioned>> {
  return app.db.transaction().execute((trx) => transitionIn(trx, actor, ref, event, options));
}

/**
 * The transition inside the caller's transaction (placing an order records its first event in the placing
 * transaction; completing a rework order also returns its original). Locks the order row.
 */
export async function transitionIn(
  trx: DB,
  actor: Actor,
  ref: { orderId: number } | { externalId: string },
  event: OrderEvent,
  options: TransitionOptions = {},
): Promise<Result<Transitioned>> {
  let q = trx.selectFrom("orders").select(["id", "external_id", "status", "rework_of_order_id", "user_id"]);
  q = "orderId" in ref ? q.where("id", "=", ref.orderId) : q.where("external_id", "=", ref.externalId);
  const order = await q.forUpdate().executeTakeFirst();
  if (!order) return fail("not-found");
  if (!canTransition(order.status, event)) return fail("invalid-transition", { status: order.status });
  const to = ORDER_EVENTS[event].to;
  const now = new Date();
  if (event === "complete") {
    const files = await trx
      .selectFrom("deliverables")
      .select(sql<number>`count(*)::int`.as("n"))
      .where("order_id", "=", order.id)
      .where("removed_at", "is", null)
      .executeTakeFirstOrThrow();
    if (files.n === 0) return fail("no-deliverables");
  }
  await trx
    .updateTable("orders")
    .set((eb) => ({
      status: to,
      status_changed_at: now,
      updated_at: now,
      version: eb("version", "+", 1),
      ...(to === "completed" ? { completed_at: now } : {}),
      ...(event === "reopen" ? { completed_at: null } : {}),
      ...(to === "cancelled" ? { cancelled_at: now } : {}),
    }))
    .where("id", "=", order.id)
    .execute();
  if (to === "cancelled") {
    // Nothing is owed for a cancelled order: its unpaid invoice is void (a paid one stays, for a refund).
    await trx.updateTable("invoices").set({ status: "void" }).where("order_id", "=", order.id).where("status", "=", "unpaid").execute();
  }
  const history = await recordHistory(trx, order.id, event, order.status as OrderStatus, to, actor, options);
  if (!options.silent) await orderNotificationJob.enqueue(trx, { historyId: history });
  // The areas above (rewards, referrals) react in this transaction (issue 25).
  await orderTransitioned.emit(trx, {
    orderId: order.id,
    externalId: order.external_id,
    userId: order.user_id,
    event,
    from: order.status as OrderStatus,
    to,
    actor,
  });
  // A completed re-edit completes the re-edit request of the order it reworks.
  if (event === "complete" && order.rework_of_order_id !== null) {
    const original = await trx.selectFrom("orders").select("status").where("id", "=", order.rework_of_order_id).executeTakeFirst();
    if (original && canTransition(original.status, "rework-completed"))
      await transitionIn(trx, actor, { orderId: order.rework_of_order_id }, "rework-completed", {
        data: { reworkOrder: order.external_id },
        silent: true,
      });
  }
  return ok({ orderId: order.id, externalId: order.external_id, from: order.status as OrderStatus, to, historyId: history });
}

/** A history row for an event (also used for the placement, whose order row is new). Returns its id. */
export async function recordHistory(
  trx: DB,
  orderId: number,
  event: string,
  from: OrderStatus | null,
  to: OrderStatus,
  actor: Actor,
  options: Pick<TransitionOptions, "note" | "data"> = {},
): Promise<string> {
  const row = await trx
    .insertInto("order_history")
    .values({
      order_id: orderId,
      event,
      from_status: from,
      to_status: to,
      actor_user_id: actor.userId,
      impersonator_id: actor.impersonatorId ?? null,
      note: options.note == null ? null : clip(options.note, 2000),
      data: JSON.stringify(options.data ?? {}),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return String(row.id);
}

export interface HistoryEntry {
  id: string;
  event: string;
  from: string | null;
  to: string;
  actor: { email: string; name: string } | null;
  impersonatorEmail: string | null;
  note: string | null;
  data: Record<string, unknown>;
  createdAt: string;
  notifiedAt: string | null;
}

/** An order's history, oldest first (staff console; the caller has checked who may see it). */
export async function orderHistory(db: DB, orderId: number): Promise<HistoryEntry[]> {
  const rows = await db
    .selectFrom("order_history as h")
    .leftJoin("users as a", "a.id", "h.actor_user_id")
    .leftJoin("users as i", "i.id", "h.impersonator_id")
    .select([
      "h.id",
      "h.event",
      "h.from_status",
      "h.to_status",
      "h.note",
      "h.data",
      "h.created_at",
      "h.notified_at",
      "a.email as actor_email",
      "a.first_name",
      "a.last_name",
      "i.email as impersonator_email",
    ])
    .where("h.order_id", "=", orderId)
    .orderBy("h.id")
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    event: r.event,
    from: r.from_status,
    to: r.to_status,
    actor: r.actor_email ? { email: r.actor_email, name: `${r.first_name ?? ""} ${r.last_name ?? ""}`.trim() } : null,
    impersonatorEmail: r.impersonator_email,
    note: r.note,
    data: (typeof r.data === "string" ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
    createdAt: new Date(r.created_at).toISOString(),
    notifiedAt: r.notified_at ? new Date(r.notified_at).toISOString() : null,
  }));
}

// ---------------------------------------------------------------------------------------------------------
// What an order offers, derived in one place (spec 2 §3 Order flags, §4 rules).

export interface FlagInput {
  status: string;
  paid: boolean;
  completedAt: Date | string | null;
  overrideDownloadAvailable: boolean;
  /** The order's invoice billing (bank transfer, purchase order): unpaid means "awaiting payment". */
  hasUnpaidInvoice: boolean;
  /** Service slugs and types of the order's line items. */
  lines: { serviceSlug?: string; type?: string }[];
  deliverableCount: number;
  hasCertificate: boolean;
}

export interface FlagContext {
  /** Staff viewing the portal as the researcher: may re-edit regardless of figures or formatting (spec 2 §4). */
  impersonating: boolean;
  /** Services whose order gets a free re-edit (the catalogue's rework services that are free with them). */
  freeReeditSlugs: ReadonlySet<string>;
  /** The user's own override (spec 2 §3 User.overrideDownloadAvailable). */
  userOverrideDownload?: boolean;
  now?: Date;
}

export interface OrderFlags {
  status: OrderStatus;
  displayStatus: DisplayStatus;
  paid: boolean;
  inProgress: boolean;
  completed: boolean;
  cancelled: boolean;
  downloadAvailable: boolean;
  certificateReady: boolean;
  hasFigures: boolean;
  hasManuscriptFormatting: boolean;
  reeditAvailable: boolean;
  touchUpAvailable: boolean;
  /** Completed, files delivered, but held back until the invoice is paid: the proof-of-payment link shows. */
  awaitingPayment: boolean;
}

const REWORKABLE_TYPES = new Set(["editing", "translation", "formatting"]);

export function deriveOrderFlags(o: FlagInput, c: FlagContext): OrderFlags {
  const status = o.status as OrderStatus;
  // Files were delivered: completed, or completed and a re-edit requested since.
  const completed = status === "completed" || status === "reedit-requested";
  const cancelled = status === "cancelled";
  const paid = o.paid;
  const downloadAvailable =
    completed && o.deliverableCount > 0 && (o.paid || o.overrideDownloadAvailable || Boolean(c.userOverrideDownload));
  const hasFigures = o.lines.some((l) => l.type === "figures");
  const hasManuscriptFormatting = o.lines.some((l) => l.serviceSlug === "manuscript-formatting" || l.type === "formatting");
  const now = c.now ?? new Date();
  const withinWindow = o.completedAt !== null && now.getTime() - new Date(o.completedAt).getTime() <= REEDIT_WINDOW_DAYS * 24 * 3600 * 1000;
  const reworkable = o.lines.some((l) => l.type !== undefined && REWORKABLE_TYPES.has(l.type));
  const reeditAvailable =
    status === "completed" &&
    downloadAvailable &&
    withinWindow &&
    reworkable &&
    (c.impersonating || (!hasFigures && !hasManuscriptFormatting));
  const touchUpAvailable = reeditAvailable && o.lines.some((l) => l.serviceSlug !== undefined && c.freeReeditSlugs.has(l.serviceSlug));
  const awaitingPayment = (completed && !downloadAvailable && o.deliverableCount > 0) || (status === "placed" && o.hasUnpaidInvoice);
  const displayStatus: DisplayStatus = cancelled
    ? "cancelled"
    : awaitingPayment
      ? "awaiting-payment"
      : status === "placed"
        ? "received"
        : status === "in-progress"
          ? "in-progress"
          : status === "reedit-requested"
            ? "reedit-requested"
            : "completed";
  return {
    status,
    displayStatus,
    paid,
    inProgress: status === "in-progress" || status === "reedit-requested",
    completed,
    cancelled,
    downloadAvailable,
    certificateReady: completed && o.hasCertificate,
    hasFigures,
    hasManuscriptFormatting,
    reeditAvailable,
    touchUpAvailable,
    awaitingPayment,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The researcher's e-mail about an event (issue 11 §1): in their language, with a link to the order.

/** Events the researcher is told about; others (a reopen, the portal's own bookkeeping) are staff business. */
const NOTIFIED_EVENTS = new Set(["place", "start", "complete", "cancel", "certificate-ready", "payment-recorded"]);

export const orderNotificationJob = defineJob({
  kind: "order-notification",
  payload: z.object({ historyId: z.string().check(z.regex(/^\d{1,18}$/)) }),
  maxAttempts: 5,
  handler: async ({ historyId }, { ctx }) => {
    await notifyHistory(ctx, historyId);
  },
});

export const orderJobs = [orderNotificationJob] as const;

/**
 * Sends the mail of one history row once. Each message carries a key of the row and its recipient, so an
 * attempt killed half-way (the outbox row written, SMTP not done) is finished by the retry without a second
 * message; the row is marked notified only when every message is out (ADR 046), so a crash never loses one.
 */
export async function notifyHistory(ctx: AppContext, historyId: string): Promise<"sent" | "skipped"> {
  const row = await ctx.db
    .selectFrom("order_history as h")
    .innerJoin("orders as o", "o.id", "h.order_id")
    .innerJoin("users as u", "u.id", "o.user_id")
    .select([
      "h.event",
      "h.notified_at",
      "h.note",
      "o.external_id",
      "o.require_customer_notification",
      "o.notification_emails",
      "u.id as user_id",
      "u.email",
      "u.language",
      "u.localization",
    ])
    .where("h.id", "=", historyId)
    .executeTakeFirst();
  if (!row || row.notified_at || !NOTIFIED_EVENTS.has(row.event)) return "skipped";
  // An admin-created order placed without "notify the customer" (spec 2 §6) sends no "order received" mail.
  if (row.event === "place" && !row.require_customer_notification) return "skipped";
  const lang: SiteLang = isSiteLang(row.language) ? row.language : "en";
  const t = fixedT(lang, "orders");
  const { config } = await ctx.config.snapshot();
  const company = config.companyShortName;
  const link = `${await mailLinkBase(ctx, row.localization)}${paths.orderDetails(lang, row.external_id)}`;
  const extra = (typeof row.notification_emails === "string" ? JSON.parse(row.notification_emails) : row.notification_emails) as string[];
  // No text a user typed (the title) goes into the mail: the extra addresses are not verified (issue 10 §4).
  const vars = { externalId: row.external_id, company, link };
  let undelivered = 0;
  for (const to of [row.email, ...(extra ?? [])]) {
    const own = to === row.email;
    const sent = await sendMail(ctx, {
      to,
      subject: t(`mail.${row.event}.subject`, vars),
      text: `${t(`mail.${row.event}.body`, vars)}\n\n${t("mail.link", vars)}\n\n${t("mail.signature", vars)}`,
      template: `order-${row.event}`,
      lang,
      userId: own ? row.user_id : null,
      // The researcher's own order news reaches their own address before they verified it (ADR 062); the
      // extra addresses they typed are refused while they belong to an unverified account (kept as `refused`).
      toOwner: own,
      // The portal's own report of a change staff made: not a request anyone can repeat to flood a mailbox.
      unlimited: true,
      dedupeKey: orderMailKey(historyId, to),
    });
    if (sent.status === "failed") undelivered += 1;
  }
  // SMTP refused one: the job is retried with backoff (the dedupe key re-delivers the same outbox row, and
  // the ones already sent are not sent again); after its last attempt the row stays `failed` with the SMTP
  // error for staff (ADR 062). Nothing is marked notified while a message is undelivered.
  if (undelivered) throw new Error(`${undelivered} order e-mail(s) of history ${historyId} not delivered; retried`);
  const marked = await ctx.db
    .updateTable("order_history")
    .set({ notified_at: new Date() })
    .where("id", "=", historyId)
    .where("notified_at", "is", null)
    .returning("id")
    .executeTakeFirst();
  return marked ? "sent" : "skipped";
}

/** The outbox dedupe key of one history row's message to one recipient (ADR 046). */
function orderMailKey(historyId: string, to: string): string {
  return `order-history:${historyId}:${to.toLowerCase()}`;
}

/**
 * Where the "order received" e-mail to the researcher's own address stands, for the thank-you page, which
 * says only what is true (ADR 062): `sent` (SMTP took it), `pending` (the job has not run yet, or it waits in
 * the outbox without SMTP), `failed` (SMTP refused it, retried; or refused), or null when no such mail is
 * sent (an admin-created order placed without "notify the customer").
 */
export async function confirmationMailOf(
  ctx: AppContext,
  orderId: number,
): Promise<{ state: "sent" | "pending" | "failed"; email: string } | null> {
  const row = await ctx.db
    .selectFrom("orders as o")
    .innerJoin("users as u", "u.id", "o.user_id")
    .leftJoin("order_history as h", (j) => j.onRef("h.order_id", "=", "o.id").on("h.event", "=", "place"))
    .select(["o.require_customer_notification", "u.email", "h.id as history_id"])
    .where("o.id", "=", orderId)
    .orderBy("h.id")
    .executeTakeFirst();
  if (!row || !row.require_customer_notification || !row.history_id) return null;
  const mail = await ctx.db
    .selectFrom("mail_outbox")
    .select("status")
    .where("dedupe_key", "=", orderMailKey(String(row.history_id), row.email))
    .executeTakeFirst();
  const state = mail?.status === "sent" ? "sent" : mail?.status === "failed" || mail?.status === "refused" ? "failed" : "pending";
  return { state, email: row.email };
}

/** After a transition: the user's cached view (orders, unpaid invoices) is stale. */
export async function afterOrderChange(app: AppContext, userId: number): Promise<void> {
  await invalidateUser(app, userId);
}
