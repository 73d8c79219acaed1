// Reading a user's orders. Every query is scoped to the owner: another user's order is not found.
import { sql } from "kysely";
import type { DB } from "../db";
import type { Scope } from "../scope";

export const ORDER_PAGE_SIZE = 30;

export interface OrderView {
  externalId: string;
  title: string;
  status: string;
  createdAt: string;
  deadline: string | null;
  paid: boolean;
  currency: { isoCode: string; sign: string; numDecimals: number };
  total: number;
  subtotal: number;
  lineItems: {
    serviceIdentity: string;
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
}

function baseQuery(db: DB) {
  return db
    .selectFrom("orders as o")
    .innerJoin("currencies as c", "c.iso_code", "o.currency_iso")
    .leftJoin("invoices as i", "i.order_id", "o.id")
    .select([
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

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>["executeTakeFirstOrThrow"]>>;
const parse = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;

function toView(r: Row): OrderView {
  return {
    externalId: r.external_id,
    title: r.title,
    status: r.status,
    createdAt: new Date(r.created_at).toISOString(),
    deadline: r.deadline ? new Date(r.deadline).toISOString() : null,
    paid: r.paid,
    currency: { isoCode: r.currency_iso.trim(), sign: r.sign, numDecimals: r.num_decimals },
    total: Number(r.total),
    subtotal: Number(r.subtotal),
    lineItems: parse<OrderView["lineItems"]>(r.line_items),
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
  };
}

export async function getOrder(db: DB, userId: number, externalId: string): Promise<OrderView | null> {
  if (!/^[A-Z0-9-]{3,32}$/.test(externalId)) return null;
  const row = await baseQuery(db).where("o.user_id", "=", userId).where("o.external_id", "=", externalId).executeTakeFirst();
  return row ? toView(row) : null;
}

export interface OrderSearch {
  xid?: string;
  orderTitle?: string;
  from?: string;
  to?: string;
  page?: number;
}

export async function searchOrders(db: DB, userId: number, q: OrderSearch) {
  const page = Math.max(1, Math.floor(q.page ?? 1));
  let filtered = db.selectFrom("orders as o").where("o.user_id", "=", userId);
  if (q.xid) filtered = filtered.where("o.external_id", "ilike", `%${q.xid.replace(/[\\%_]/g, "")}%`);
  if (q.orderTitle) filtered = filtered.where("o.title", "ilike", `%${q.orderTitle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (q.from && !Number.isNaN(Date.parse(q.from))) filtered = filtered.where("o.created_at", ">=", new Date(q.from));
  if (q.to && !Number.isNaN(Date.parse(q.to)))
    filtered = filtered.where("o.created_at", "<", new Date(Date.parse(q.to) + 24 * 3600 * 1000));
  const ids = filtered.select("o.id");
  const [rows, count] = await Promise.all([
    baseQuery(db)
      .where("o.id", "in", ids)
      .orderBy("o.created_at", "desc")
      .limit(ORDER_PAGE_SIZE)
      .offset((page - 1) * ORDER_PAGE_SIZE)
      .execute(),
    filtered.select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow(),
  ]);
  return { orders: rows.map(toView), pagination: { page, pageSize: ORDER_PAGE_SIZE, total: count.n } };
}

/** One of the acting user's orders (another user's order, or a visitor, is null: "not found"). */
export async function findOrder(scope: Scope, externalId: string): Promise<OrderView | null> {
  return scope.userId ? getOrder(scope.app.db, scope.userId, externalId) : null;
}
