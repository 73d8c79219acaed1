// The staff operations console (issue 11 §2): find any researcher's order, move it through its states, deliver
// its files, issue its certificate, record its bank transfer, release its download. Staff only (every function
// checks the acting session itself, besides the routes' requireStaff), and every action and every reading of an
// order leaves an audit-log row (DESIGN §5). The rules themselves live in their areas (server/orders/life.ts,
// deliverables.ts, server/certificates, server/billing/invoices/payments.ts); these functions find the order, check who
// acts, call them and audit.
import { sql } from "kysely";
import { fail, invalid, ok, type Result } from "#common/result";
import { eventsFrom, ORDER_STATUSES, type OrderStatus, type StaffEvent } from "#common/orders/status";
import { STAFF_ORDER_PAGE_SIZE, type StaffOrderSearch } from "#common/staff/console";
import type { Scope } from "../scope";
import { afterOrderChange, orderHistory, recordHistory, transitionOrder, type Actor } from "../orders/life";
import { addDeliverable, listDeliverables, removeDeliverable, type Deliverable } from "../orders/deliverables";
import { EXTERNAL_ID, freeReeditSlugs, orderBaseQuery, toOrderView, type OrderView } from "../orders/read";
import { issueCertificate } from "../certificates";
import { invoicePayments, recordBankPayment, type BankPaymentInput, type RecordedPayment } from "../billing";
import { checkUploadRateLimit, sanitizeFileName, uploadLimits } from "../documents/storage";
import { audit } from "../kernel/audit";
import type { MultipartBody, MultipartError } from "../kernel/multipart";

/** The acting staff member (never someone viewing the portal as a researcher), or null. */
export function staffActor(scope: Scope): Actor | null {
  const s = scope.session;
  if (!s?.user.isStaff || s.impersonatorId) return null;
  return { userId: s.user.id };
}

const escapeLike = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (v: string) => DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));

export interface StaffOrderRow {
  externalId: string;
  title: string;
  status: OrderStatus;
  createdAt: string;
  total: number;
  currency: { isoCode: string; sign: string; numDecimals: number };
  paid: boolean;
  adminCreated: boolean;
  researcher: { email: string; name: string };
}

/**
 * Orders of every researcher, newest first, 30 a page: by order number, title, researcher e-mail (fragments),
 * status and creation date (from/to, days inclusive, UTC). Errors: `not-allowed`; field errors on from/to.
 */
export async function searchStaffOrders(
  scope: Scope,
  q: StaffOrderSearch,
): Promise<Result<{ orders: StaffOrderRow[]; pagination: { page: number; pageSize: number; total: number } }>> {
  const actor = staffActor(scope);
  if (!actor) return fail("not-allowed");
  const errors: Record<string, string> = {};
  if (q.from && !validDay(q.from)) errors.from = "staffops:errors.invalid-date";
  if (q.to && !validDay(q.to)) errors.to = "staffops:errors.invalid-date";
  const page = q.page ? Number(q.page) : 1;
  if (!Number.isInteger(page) || page < 1) errors.page = "staffops:errors.invalid-page";
  if (Object.keys(errors).length) return invalid(errors);
  let filtered = scope.app.db.selectFrom("orders as o").innerJoin("users as u", "u.id", "o.user_id");
  const number = q.number?.trim();
  if (number) filtered = filtered.where("o.external_id", "ilike", `%${escapeLike(number)}%`);
  if (q.title?.trim()) filtered = filtered.where("o.title", "ilike", `%${escapeLike(q.title.trim())}%`);
  if (q.email?.trim()) filtered = filtered.where(sql`lower(u.email)`, "like", `%${escapeLike(q.email.trim().toLowerCase())}%`);
  if (q.status && (ORDER_STATUSES as readonly string[]).includes(q.status)) filtered = filtered.where("o.status", "=", q.status);
  if (q.from) filtered = filtered.where("o.created_at", ">=", new Date(`${q.from}T00:00:00Z`));
  if (q.to) filtered = filtered.where("o.created_at", "<", new Date(Date.parse(`${q.to}T00:00:00Z`) + 24 * 3600 * 1000));
  const [rows, count] = await Promise.all([
    filtered
      .innerJoin("currencies as c", "c.iso_code", "o.currency_iso")
      .select([
        "o.external_id",
        "o.title",
        "o.status",
        "o.created_at",
        "o.total",
        "o.currency_iso",
        "o.paid",
        "o.admin_created",
        "c.sign",
        "c.num_decimals",
        "u.email",
        "u.first_name",
        "u.last_name",
      ])
      .orderBy("o.created_at", "desc")
      .orderBy("o.id", "desc")
      .limit(STAFF_ORDER_PAGE_SIZE)
      .offset((page - 1) * STAFF_ORDER_PAGE_SIZE)
      .execute(),
    filtered.select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow(),
  ]);
  await audit(scope.app, actor.userId, "staff.orders.search", null, { ...q, ip: scope.ip });
  return ok({
    orders: rows.map((r) => ({
      externalId: r.external_id,
      title: r.title,
      status: r.status as OrderStatus,
      createdAt: new Date(r.created_at).toISOString(),
      total: Number(r.total),
      currency: { isoCode: r.currency_iso.trim(), sign: r.sign, numDecimals: r.num_decimals },
      paid: r.paid,
      adminCreated: r.admin_created,
      researcher: { email: r.email, name: `${r.first_name ?? ""} ${r.last_name ?? ""}`.trim() },
    })),
    pagination: { page, pageSize: STAFF_ORDER_PAGE_SIZE, total: count.n },
  });
}

/** Any researcher's order by number (staff), or null. */
async function orderByNumber(scope: Scope, externalId: string): Promise<(OrderView & { userId: number }) | null> {
  if (!EXTERNAL_ID.test(externalId)) return null;
  const row = await orderBaseQuery(scope.app.db).select("o.user_id").where("o.external_id", "=", externalId).executeTakeFirst();
  if (!row) return null;
  const view = toOrderView(row, { impersonating: false, freeReeditSlugs: await freeReeditSlugs(scope.app) });
  return { ...view, userId: row.user_id };
}

export interface StaffOrderPage {
  order: OrderView;
  overrideDownloadAvailable: boolean;
  researcher: { identity: string; email: string; name: string; active: boolean };
  events: StaffEvent[];
  history: Awaited<ReturnType<typeof orderHistory>>;
  deliverables: Deliverable[];
  payments: Awaited<ReturnType<typeof invoicePayments>>;
}

/** The console's order page; the reading is audited. Null when there is no such order or the actor is not staff. */
export async function staffOrderPage(scope: Scope, externalId: string): Promise<StaffOrderPage | null> {
  const actor = staffActor(scope);
  if (!actor) return null;
  const order = await orderByNumber(scope, externalId);
  if (!order) return null;
  const db = scope.app.db;
  const [user, override, history, deliverables, payments] = await Promise.all([
    db
      .selectFrom("users")
      .select(["identity", "email", "first_name", "last_name", "active"])
      .where("id", "=", order.userId)
      .executeTakeFirstOrThrow(),
    db.selectFrom("orders").select("override_download_available").where("id", "=", order.id).executeTakeFirstOrThrow(),
    orderHistory(db, order.id),
    listDeliverables(db, order.id),
    order.invoice ? invoicePayments(scope.app, order.invoice.number) : Promise.resolve([]),
  ]);
  await audit(scope.app, actor.userId, "staff.order.view", { type: "order", id: order.externalId }, { ip: scope.ip });
  const { userId: _owner, ...view } = order;
  return {
    order: view,
    overrideDownloadAvailable: override.override_download_available,
    researcher: {
      identity: user.identity,
      email: user.email,
      name: `${user.first_name ?? ""} ${user.last_name ?? ""}`.trim(),
      active: user.active,
    },
    events: eventsFrom(order.status),
    history,
    deliverables,
    payments,
  };
}

/** Finds the order and the acting staff member for a write; `not-allowed` / `not-found` otherwise. */
async function forWrite(scope: Scope, externalId: string): Promise<Result<{ actor: Actor; order: OrderView & { userId: number } }>> {
  const actor = staffActor(scope);
  if (!actor) return fail("not-allowed");
  const order = await orderByNumber(scope, externalId);
  return order ? ok({ actor, order }) : fail("not-found");
}

/** Starts, completes, reopens or cancels an order (server/orders/life.ts), with an optional note. */
export async function staffTransition(scope: Scope, externalId: string, event: StaffEvent, note?: string | null): Promise<Result> {
  const w = await forWrite(scope, externalId);
  if (!w.ok) return w;
  const { actor, order } = w.value;
  const r = await transitionOrder(scope.app, actor, { orderId: order.id }, event, { note: note?.trim() || null });
  if (!r.ok) return r;
  await afterOrderChange(scope.app, order.userId);
  await audit(
    scope.app,
    actor.userId,
    `staff.order.${event}`,
    { type: "order", id: order.externalId },
    {
      from: r.value.from,
      to: r.value.to,
      ip: scope.ip,
    },
  );
  return ok();
}

/** Releases (or holds back again) the files of an unpaid order (spec 2 §3 overrideDownloadAvailable). */
export async function staffSetOverrideDownload(scope: Scope, externalId: string, on: boolean): Promise<Result> {
  const w = await forWrite(scope, externalId);
  if (!w.ok) return w;
  const { actor, order } = w.value;
  await scope.app.db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("orders").select("status").where("id", "=", order.id).forUpdate().executeTakeFirstOrThrow();
    await trx
      .updateTable("orders")
      .set((eb) => ({ override_download_available: on, updated_at: new Date(), version: eb("version", "+", 1) }))
      .where("id", "=", order.id)
      .execute();
    const status = current.status as OrderStatus;
    await recordHistory(trx, order.id, "download-override", status, status, actor, { data: { on } });
  });
  await afterOrderChange(scope.app, order.userId);
  await audit(scope.app, actor.userId, "staff.order.download-override", { type: "order", id: order.externalId }, { on, ip: scope.ip });
  return ok();
}

/** Issues (or re-issues with the current files) the certificate of a completed order. */
export async function staffIssueCertificate(scope: Scope, externalId: string): Promise<Result<{ code: string; reissued: boolean }>> {
  const w = await forWrite(scope, externalId);
  if (!w.ok) return w;
  const { actor, order } = w.value;
  const r = await issueCertificate(scope.app, actor, order.id);
  if (!r.ok) return r;
  await afterOrderChange(scope.app, order.userId);
  await audit(
    scope.app,
    actor.userId,
    "staff.order.certificate",
    { type: "order", id: order.externalId },
    {
      reissued: r.value.reissued,
      ip: scope.ip,
    },
  );
  return r;
}

/** Records a bank transfer against the order's invoice. Errors: `no-invoice` (409) and recordBankPayment's. */
export async function staffRecordPayment(scope: Scope, externalId: string, input: BankPaymentInput): Promise<Result<RecordedPayment>> {
  const w = await forWrite(scope, externalId);
  if (!w.ok) return w;
  const { actor, order } = w.value;
  if (!order.invoice) return fail("no-invoice");
  const r = await recordBankPayment(scope.app, actor, order.invoice.number, input);
  if (!r.ok) return r;
  await audit(
    scope.app,
    actor.userId,
    "staff.invoice.payment",
    { type: "invoice", id: order.invoice.number },
    {
      order: order.externalId,
      amount: r.value.amount,
      reference: r.value.reference,
      duplicate: r.value.duplicate,
      ip: scope.ip,
    },
  );
  return r;
}

/** Withdraws a delivered file. */
export async function staffRemoveDeliverable(scope: Scope, externalId: string, key: string): Promise<Result> {
  const w = await forWrite(scope, externalId);
  if (!w.ok) return w;
  const { actor, order } = w.value;
  const r = await removeDeliverable(scope.app, actor, order.id, key);
  if (!r.ok) return r;
  await afterOrderChange(scope.app, order.userId);
  await audit(scope.app, actor.userId, "staff.order.deliverable-remove", { type: "order", id: order.externalId }, { key, ip: scope.ip });
  return ok();
}

export interface DeliverableUpload {
  added: Deliverable[];
  /** Refused files: their names and the upload code (`file-type-not-allowed`…, order namespace). */
  rejected: { name: string; code: string }[];
}

/**
 * Delivers the files of a multipart form (field `files`, several allowed): each part is streamed straight into
 * addDeliverable (the file store's content checks; never held in memory). Rate-limited like every upload
 * (per staff member). Errors: `not-allowed`, `not-found`, `upload-rate-limited` (429), `invalid-request`
 * (not multipart, malformed: nothing is kept), `no-files` (nothing chosen).
 */
export async function staffUploadDeliverables(scope: Scope, externalId: string, body: MultipartBody): Promise<Result<DeliverableUpload>> {
  const w = await forWrite(scope, externalId);
  if (!w.ok) return w;
  const { actor, order } = w.value;
  if (!body.isMultipart) return fail("invalid-request");
  const limit = await checkUploadRateLimit(scope.app, { userId: actor.userId, ip: scope.ip });
  if (!limit.allowed) return fail("upload-rate-limited");
  const { maxFiles, maxFileBytes } = await uploadLimits(scope.app);
  const added: Deliverable[] = [];
  const rejected: { name: string; code: string }[] = [];
  const unexpected: unknown[] = [];
  let chain: Promise<void> = Promise.resolve();
  let count = 0;
  let failed: MultipartError | null = null;
  try {
    await body.read({
      maxBody: maxFiles * (maxFileBytes + 16 * 1024) + 1024 * 1024,
      limits: { fileSize: maxFileBytes + 1, files: maxFiles + 5, fields: 20, fieldSize: 4096, parts: maxFiles + 25, headerPairs: 100 },
      onFile({ filename, stream }) {
        if (++count > maxFiles) {
          stream.resume();
          rejected.push({ name: sanitizeFileName(filename), code: "too-many-files" });
          return;
        }
        // One after another: the files are delivered (and listed) in the order they were sent. A later part waits
        // in the parser's buffer meanwhile (backpressure), never in memory as a whole.
        chain = chain.then(() =>
          addDeliverable(scope.app, actor, order.id, stream, filename).then(
            (r) => {
              if (r.ok) added.push(r.value);
              else {
                stream.resume();
                rejected.push({ name: sanitizeFileName(filename), code: r.error });
              }
            },
            (error: unknown) => {
              stream.resume();
              unexpected.push(error);
            },
          ),
        );
        return chain;
      },
    });
  } catch (error) {
    failed = error as MultipartError;
  }
  // Refused from its Content-Length before anything was read: nothing to undo.
  if (failed?.code === "payload-too-large" && count === 0) return fail("file-too-large");
  await chain;
  if (failed || unexpected.length) {
    // Half a request keeps nothing: the files it delivered are withdrawn again.
    for (const d of added) await removeDeliverable(scope.app, actor, order.id, d.key);
    if (unexpected.length && !failed) throw unexpected[0];
    return fail("invalid-request");
  }
  if (added.length === 0 && rejected.length === 0) return fail("no-files");
  if (added.length) {
    await afterOrderChange(scope.app, order.userId);
    await audit(
      scope.app,
      actor.userId,
      "staff.order.deliverable-add",
      { type: "order", id: order.externalId },
      {
        files: added.map((d) => ({ key: d.key, name: d.name, sha256: d.sha256 })),
        rejected,
        ip: scope.ip,
      },
    );
  }
  return ok({ added, rejected });
}
