// Reading a user's orders. Every query is scoped to the owner: another user's order is not found. Each order
// carries the flags of server/orders/life.ts (downloadAvailable, reeditAvailable…), derived there and only there.
import { sql } from "kysely";
import { paths } from "#common/paths";
import { PAYMENT_METHOD } from "#common/payments/methods";
import type { DB } from "../db";
import type { Scope } from "../scope";
import type { AppContext } from "../context";
import { getCatalogue } from "../catalogue";
import { deriveOrderFlags, type FlagContext, type OrderFlags } from "./life";

export const ORDER_PAGE_SIZE = 30;

export interface OrderView {
  /** Internal id: for server code only (staff console, joins); never shown to researchers. */
  id: number;
  externalId: string;
  title: string;
  status: string;
  createdAt: string;
  deadline: string | null;
  completedAt: string | null;
  paid: boolean;
  flags: OrderFlags;
  adminCreated: boolean;
  styleOfEnglish: string | null;
  journal: { name: string; url?: string } | null;
  notificationEmails: string[];
  deliverableCount: number;
  certificate: { code: string; title: string; authors: string; issuedAt: string } | null;
  reworkOf: string | null;
  currency: { isoCode: string; sign: string; numDecimals: number };
  total: number;
  subtotal: number;
  lineItems: {
    serviceIdentity: string;
    serviceSlug?: string;
    type?: string;
    nameKey: string;
    quantity: number;
    listPrice: number;
    discountAmount: number;
    totalPrice: number;
  }[];
  discounts: { kind: string; descriptionKey: string; appliedAmount: number }[];
  paymentMethodId: number;
  purchaseOrder: string | null;
  invoice: { number: string; amount: number; balance: number; status: string; dueAt: string | null } | null;
  /**
   * Payments of this order's invoice started with a provider and not yet confirmed (spec 2 §3 pendingPayments):
   * a boleto to pay, a QR code to scan. boletoUrl is set for boletos.
   */
  pendingPayments: { id: string; methodId: number; boletoUrl: string | null }[];
}

export function orderBaseQuery(db: DB) {
  return db
    .selectFrom("orders as o")
    .innerJoin("currencies as c", "c.iso_code", "o.currency_iso")
    .leftJoin("invoices as i", "i.order_id", "o.id")
    .leftJoin("certificates as cert", "cert.order_id", "o.id")
    .leftJoin("orders as ro", "ro.id", "o.rework_of_order_id")
    .select((eb) => [
      // The invoice's payments still waiting for their provider (ADR 034), newest first.
      sql<{ id: string; method_id: number }[] | null>`(
        select json_agg(json_build_object('id', p.id, 'method_id', p.method_id) order by p.created_at desc)
        from payments p
        where p.status in ('pending', 'processing') and jsonb_exists(p.invoice_numbers, i.number)
      )`.as("pending_payments"),
      eb
        .selectFrom("deliverables as d")
        .select(sql<number>`count(*)::int`.as("n"))
        .whereRef("d.order_id", "=", "o.id")
        .where("d.removed_at", "is", null)
        .as("deliverable_count"),
    ])
    .select([
      "o.id",
      "o.completed_at",
      "o.override_download_available",
      "o.admin_created",
      "o.style_of_english",
      "o.journal",
      "o.notification_emails",
      "cert.code as cert_code",
      "cert.title as cert_title",
      "cert.authors as cert_authors",
      "cert.issued_at as cert_issued_at",
      "ro.external_id as rework_of",
      "o.external_id",
      "o.title",
      "o.status",
      "o.created_at",
      "o.deadline",
      "o.paid",
      "o.currency_iso",
      "c.sign",
      "c.num_decimals",
      "o.total",
      "o.subtotal",
      "o.line_items",
      "o.discounts",
      "o.payment_method_id",
      "o.purchase_order",
      "i.number as invoice_number",
      "i.amount as invoice_amount",
      "i.balance as invoice_balance",
      "i.status as invoice_status",
      "i.due_at as invoice_due_at",
    ]);
}

export type OrderRow = Awaited<ReturnType<ReturnType<typeof orderBaseQuery>["executeTakeFirstOrThrow"]>>;
const parse = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;
const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** The services whose orders get a free re-edit: every rework service free with them (catalogue). */
export async function freeReeditSlugs(app: AppContext): Promise<Set<string>> {
  const catalogue = await getCatalogue(app);
  return new Set(catalogue.services.filter((s) => s.group === "rework").flatMap((s) => s.price.freeWith));
}

/** The flag context of a request: staff viewing as the researcher relax the re-edit rules (spec 2 §4). */
export async function flagContextOf(scope: Pick<Scope, "app" | "impersonatorId">): Promise<FlagContext> {
  return { impersonating: scope.impersonatorId !== null, freeReeditSlugs: await freeReeditSlugs(scope.app) };
}

export function toOrderView(r: OrderRow, flagContext: FlagContext): OrderView {
  const lineItems = parse<OrderView["lineItems"]>(r.line_items);
  const deliverableCount = Number(r.deliverable_count ?? 0);
  return {
    id: r.id,
    externalId: r.external_id,
    title: r.title,
    status: r.status,
    createdAt: new Date(r.created_at).toISOString(),
    deadline: iso(r.deadline),
    completedAt: iso(r.completed_at),
    paid: r.paid,
    flags: deriveOrderFlags(
      {
        status: r.status,
        paid: r.paid,
        completedAt: r.completed_at,
        overrideDownloadAvailable: r.override_download_available,
        hasUnpaidInvoice: r.invoice_status === "unpaid" && Number(r.invoice_balance) > 0,
        lines: lineItems,
        deliverableCount,
        hasCertificate: r.cert_code !== null,
      },
      flagContext,
    ),
    adminCreated: r.admin_created,
    styleOfEnglish: r.style_of_english,
    journal: r.journal ? parse<{ name: string; url?: string }>(r.journal) : null,
    notificationEmails: parse<string[]>(r.notification_emails) ?? [],
    deliverableCount,
    certificate: r.cert_code
      ? { code: r.cert_code, title: r.cert_title ?? "", authors: r.cert_authors ?? "", issuedAt: iso(r.cert_issued_at)! }
      : null,
    reworkOf: r.rework_of,
    currency: { isoCode: r.currency_iso.trim(), sign: r.sign, numDecimals: r.num_decimals },
    total: Number(r.total),
    subtotal: Number(r.subtotal),
    lineItems,
    discounts: parse<OrderView["discounts"]>(r.discounts),
    paymentMethodId: r.payment_method_id,
    purchaseOrder: r.purchase_order,
    invoice: r.invoice_number
      ? {
          number: r.invoice_number,
          amount: Number(r.invoice_amount),
          balance: Number(r.invoice_balance),
          status: r.invoice_status!,
          dueAt: r.invoice_due_at ? new Date(r.invoice_due_at).toISOString() : null,
        }
      : null,
    pendingPayments: (parse<{ id: string; method_id: number }[] | null>(r.pending_payments) ?? []).map((p) => ({
      id: p.id,
      methodId: p.method_id,
      boletoUrl: p.method_id === PAYMENT_METHOD.boleto ? paths.api.boletoPdf(p.id) : null,
    })),
  };
}

export const EXTERNAL_ID = /^[A-Z0-9-]{3,32}$/;

export async function getOrder(db: DB, userId: number, externalId: string, flagContext: FlagContext): Promise<OrderView | null> {
  if (!EXTERNAL_ID.test(externalId)) return null;
  const row = await orderBaseQuery(db).where("o.user_id", "=", userId).where("o.external_id", "=", externalId).executeTakeFirst();
  return row ? toOrderView(row, flagContext) : null;
}

export interface OrderSearch {
  xid?: string;
  orderTitle?: string;
  from?: string;
  to?: string;
  page?: number;
}

export async function searchOrders(db: DB, userId: number, q: OrderSearch, flagContext: FlagContext) {
  const page = Math.max(1, Math.floor(q.page ?? 1));
  let filtered = db.selectFrom("orders as o").where("o.user_id", "=", userId);
  if (q.xid) filtered = filtered.where("o.external_id", "ilike", `%${q.xid.replace(/[\\%_]/g, "")}%`);
  if (q.orderTitle) filtered = filtered.where("o.title", "ilike", `%${q.orderTitle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (q.from && !Number.isNaN(Date.parse(q.from))) filtered = filtered.where("o.created_at", ">=", new Date(q.from));
  if (q.to && !Number.isNaN(Date.parse(q.to)))
    filtered = filtered.where("o.created_at", "<", new Date(Date.parse(q.to) + 24 * 3600 * 1000));
  const ids = filtered.select("o.id");
  const [rows, count] = await Promise.all([
    orderBaseQuery(db)
      .where("o.id", "in", ids)
      .orderBy("o.created_at", "desc")
      .limit(ORDER_PAGE_SIZE)
      .offset((page - 1) * ORDER_PAGE_SIZE)
      .execute(),
    filtered.select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow(),
  ]);
  return { orders: rows.map((r) => toOrderView(r, flagContext)), pagination: { page, pageSize: ORDER_PAGE_SIZE, total: count.n } };
}

/** One of the acting user's orders (another user's order, or a visitor, is null: "not found"). */
export async function findOrder(scope: Scope, externalId: string): Promise<OrderView | null> {
  return scope.userId ? getOrder(scope.app.db, scope.userId, externalId, await flagContextOf(scope)) : null;
}
