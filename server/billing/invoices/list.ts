// The researcher's invoices (issue 12 §4, spec 2 §2 "Invoices", §3 "Invoice", §5 "Unpaid invoice view", §9):
// the history, newest first, 10 a page, filtered by the days of the researcher's clock (from, to: MM/dd/yyyy,
// as the dashboard's search) and the order number; the 'unpaid' view keeps the invoices that can be paid
// (balance above 0 and not pending a write-off). Read for the acting user only; a user whose invoices are
// hidden (users.hide_invoices, spec 2 §6) sees none. Each row carries what its actions need: the payments
// (receipts), whether its order was delivered (statement of delivery), a pending boleto, and whether its
// localisation allows fapiao processing after payment.
import { sql } from "kysely";
import { fail, invalid, ok, type Result } from "#common/result";
import type { CurrencyFormat } from "#common/format";
import { INVOICE_PAGE_SIZE, type InvoiceListInput } from "#common/invoices/list";
import { PAYMENT_METHOD } from "#common/payments/methods";
import type { Scope } from "../../scope";
import { localizationTimeZone } from "../../config";
import { filterInstants } from "../../kernel/days";
import { fapiaosOfInvoices } from "../../fapiao";
import { settlementOf, type SettlementKind } from "./settlement";
import { surplusOfInvoices, type Surplus } from "./surplus";

export interface InvoiceReceipt {
  /** The ledger row's id: GET /api/payment/{id}/pdf. */
  id: string;
  amount: number;
  receivedOn: string;
  /** Money received, or a balance spent (its document says it settled the invoice, not that money came in). */
  kind: SettlementKind;
}

export interface InvoiceRow {
  invoiceNumber: string;
  orderNumber: string;
  orderTitle: string;
  createdAt: string;
  dueAt: string | null;
  /** Minor units of `currency`. */
  totalAmount: number;
  balance: number;
  status: string;
  currency: CurrencyFormat;
  /** The amount in USD cents and the rate it was priced at (units of `currency` per 1 USD), stored at issue. */
  usdTotal: number | null;
  exchangeRate: string | null;
  localization: string;
  pendingWriteoff: boolean;
  /** Payable now (the unpaid view's rule). */
  unpaid: boolean;
  /** The order was delivered: the statement of delivery is ready (else 'pending'). */
  statementOfDelivery: "ready" | "pending";
  receipts: InvoiceReceipt[];
  /** A pending boleto of this invoice (GET /api/payment/{id}/boleto.pdf), or null. */
  boletoPaymentId: string | null;
  /** What its payments captured beyond its amount and where that went (ADR 051: credited, or refunded since). */
  surplus: Surplus[];
  /** The invoice's open payment attempt (ADR 051): its page is offered instead of "Pay". */
  pendingPaymentId: string | null;
  /** The localisation allows fapiao processing after payment: the fapiao column applies. */
  allowsFapiao: boolean;
  /** The invoice's live fapiao (spec 2 §3 "Invoice" fapiao: status, type, number, url, completed), or null. */
  fapiao: { id: number; status: string; type: string; number: string | null; url: string | null; completed: boolean } | null;
}

export interface InvoicePage {
  invoices: InvoiceRow[];
  pagination: { page: number; pageSize: number; total: number; pages: number };
  /** The localisation's clock the dates are shown in. */
  timeZone: string;
  /** Some listed invoice's localisation allows fapiao: the fapiao column shows. */
  fapiaoColumn: boolean;
}

/** Whether the user's invoices are hidden from them (spec 2 §6 hideInvoices). */
export async function invoicesHidden(scope: Scope): Promise<boolean> {
  if (scope.userId === null) return true;
  const u = await scope.app.db.selectFrom("users").select("hide_invoices").where("id", "=", scope.userId).executeTakeFirst();
  return !u || u.hide_invoices;
}

const DAY_MS = 24 * 3600 * 1000;

/** The user's invoices matching the filter of `input` (its page aside): the list's one query. */
function filteredInvoices(scope: Scope, userId: number, input: InvoiceListInput, timeZone: string) {
  const { from, to } = filterInstants(input, timeZone);
  const orderNumber = input.orderNumber?.toUpperCase();
  let q = scope.app.db
    .selectFrom("invoices as i")
    .innerJoin("orders as o", "o.id", "i.order_id")
    .innerJoin("users as u", "u.id", "i.user_id")
    .innerJoin("currencies as c", "c.iso_code", "i.currency_iso")
    // The order invoices' list: a prepayment is listed on the prepay page (ADR 058).
    .where("i.kind", "=", "order")
    .where("i.user_id", "=", userId);
  if (input.unpaidOnly) q = q.where("i.balance", ">", "0").where("i.pending_writeoff", "=", false).where("i.status", "<>", "void");
  if (from) q = q.where("i.created_at", ">=", new Date(from));
  if (to) q = q.where("i.created_at", "<", new Date(Date.parse(to) + DAY_MS));
  // The order number as researchers write it (their order's id), or the invoice's own number.
  if (orderNumber) q = q.where((eb) => eb.or([eb(sql`upper(o.external_id)`, "=", orderNumber), eb("i.number", "=", orderNumber)]));
  return q;
}

/** The most invoices one payment pays (the pay page's address holds at most this many numbers). */
export const PAY_MANY_MAX = 50;

export interface EveryUnpaid {
  /** Every unpaid invoice matching the filter, on every page, oldest first, at most PAY_MANY_MAX. */
  numbers: string[];
  /** How many match in all (more than `numbers` holds when above PAY_MANY_MAX). */
  count: number;
  /** The balances of `numbers` per currency, from the database (never from the page). */
  totals: { currency: CurrencyFormat; amount: number }[];
}

/**
 * Every unpaid invoice of the acting user matching the list's filter, across its pages (issue 21 defect 11b:
 * "Select all" ticked only the page's 10 of 26). Oldest first, so the longest-due are paid when there are more
 * than one payment may carry.
 */
export async function everyUnpaidInvoice(scope: Scope, input: InvoiceListInput): Promise<EveryUnpaid> {
  if (scope.userId === null || (await invoicesHidden(scope))) return { numbers: [], count: 0, totals: [] };
  const { localizations } = await scope.app.config.snapshot();
  const timeZone = localizationTimeZone(localizations, scope.localization);
  const rows = await filteredInvoices(scope, scope.userId, { ...input, unpaidOnly: true }, timeZone)
    .select(["i.number", "i.balance", "i.currency_iso", "c.sign", "c.num_decimals"])
    .orderBy("i.created_at", "asc")
    .orderBy("i.number", "asc")
    .execute();
  const totals: EveryUnpaid["totals"] = [];
  for (const r of rows.slice(0, PAY_MANY_MAX)) {
    const iso = r.currency_iso.trim();
    const t = totals.find((x) => x.currency.isoCode === iso);
    if (t) t.amount += Number(r.balance);
    else totals.push({ currency: { isoCode: iso, sign: r.sign, numDecimals: r.num_decimals }, amount: Number(r.balance) });
  }
  return { numbers: rows.slice(0, PAY_MANY_MAX).map((r) => r.number), count: rows.length, totals };
}

/** The acting user's invoices matching `input`, newest first, INVOICE_PAGE_SIZE a page. */
export async function listInvoices(scope: Scope, input: InvoiceListInput): Promise<Result<InvoicePage>> {
  if (scope.userId === null) return fail("unauthorized");
  const { localizations } = await scope.app.config.snapshot();
  const timeZone = localizationTimeZone(localizations, scope.localization);
  // One round trip for the page and its count (the window count), hidden invoices (spec 2 §6) filtered in the same
  // query; then one batch of lookups in parallel (ADR 081: the list made five sequential round trips before).
  const q = filteredInvoices(scope, scope.userId, input, timeZone).where("u.hide_invoices", "=", false);
  const rows = await q
    .select([
      "i.number",
      "o.external_id",
      "o.title",
      "o.completed_at",
      "i.created_at",
      "i.due_at",
      "i.amount",
      "i.balance",
      "i.status",
      "i.pending_writeoff",
      "i.currency_iso",
      "c.sign",
      "c.num_decimals",
      "i.usd_total",
      sql<string | null>`i.exchange_rate::text`.as("exchange_rate"),
      sql<string>`coalesce(i.localization, u.localization)`.as("localization"),
      sql<number>`count(*) over ()::int`.as("total"),
    ])
    .orderBy("i.created_at", "desc")
    .orderBy("i.number", "desc")
    .limit(INVOICE_PAGE_SIZE)
    .offset((input.page - 1) * INVOICE_PAGE_SIZE)
    .execute();
  // A page past the last has no row to carry the count: only then is it counted apart.
  const total = rows.length
    ? Number(rows[0].total)
    : input.page > 1
      ? Number((await q.select(sql<number>`count(*)::int`.as("n")).executeTakeFirst())?.n ?? 0)
      : 0;
  const numbers = rows.map((r) => r.number);
  const [receipts, boletos, attempts, surplus, fapiaos] = numbers.length
    ? await Promise.all([
        receiptsOf(scope, numbers),
        pendingBoletosOf(scope, numbers),
        pendingBoletosOf(scope, numbers, true),
        surplusOfInvoices(scope.app.db, scope.userId, numbers),
        fapiaosOfInvoices(scope, numbers),
      ])
    : [new Map(), new Map(), new Map(), new Map(), new Map()];
  const fapiaoAfterPayment = new Set(localizations.filter((l) => l.allowsFapiaoProcessingAfterPayment).map((l) => l.identity));
  const invoices: InvoiceRow[] = rows.map((r) => {
    const balance = Number(r.balance);
    return {
      invoiceNumber: r.number,
      orderNumber: r.external_id,
      orderTitle: r.title,
      createdAt: new Date(r.created_at).toISOString(),
      dueAt: r.due_at ? new Date(r.due_at).toISOString() : null,
      totalAmount: Number(r.amount),
      balance,
      status: r.status,
      currency: { isoCode: r.currency_iso.trim(), sign: r.sign, numDecimals: r.num_decimals },
      usdTotal: r.usd_total === null ? null : Number(r.usd_total),
      exchangeRate: r.exchange_rate,
      localization: r.localization,
      pendingWriteoff: r.pending_writeoff,
      unpaid: balance > 0 && !r.pending_writeoff && r.status !== "void",
      statementOfDelivery: r.completed_at ? "ready" : "pending",
      receipts: receipts.get(r.number) ?? [],
      boletoPaymentId: boletos.get(r.number) ?? null,
      surplus: surplus.get(r.number) ?? [],
      pendingPaymentId: attempts.get(r.number) ?? null,
      allowsFapiao: fapiaoAfterPayment.has(r.localization),
      fapiao: fapiaoOf(fapiaos.get(r.number)),
    };
  });
  return ok({
    invoices,
    pagination: { page: input.page, pageSize: INVOICE_PAGE_SIZE, total, pages: Math.max(1, Math.ceil(total / INVOICE_PAGE_SIZE)) },
    timeZone,
    fapiaoColumn: invoices.some((i) => i.allowsFapiao || i.fapiao !== null),
  });
}

/** The payments (ledger rows of kind payment) of these invoices, oldest first: one receipt each. */
async function receiptsOf(scope: Scope, numbers: string[]): Promise<Map<string, InvoiceReceipt[]>> {
  const rows = await scope.app.db
    .selectFrom("invoice_payments")
    .select(["id", "invoice_number", "amount", "payment_method_id", "reference", sql<string>`received_on::text`.as("received_on")])
    .where("invoice_number", "in", numbers)
    .where("kind", "=", "payment")
    .orderBy("id")
    .execute();
  const out = new Map<string, InvoiceReceipt[]>();
  for (const r of rows) {
    const list = out.get(r.invoice_number) ?? [];
    const kind = settlementOf(r.payment_method_id, r.reference).kind;
    list.push({ id: String(r.id), amount: Number(r.amount), receivedOn: r.received_on.slice(0, 10), kind });
    out.set(r.invoice_number, list);
  }
  return out;
}

/** A pending boleto per invoice (spec 2 §2 "boleto download link (when a pending payment has boletoUrl)"): the newest. */
async function pendingBoletosOf(scope: Scope, numbers: string[], anyMethod = false): Promise<Map<string, string>> {
  let q = scope.app.db
    .selectFrom("payments")
    .select(["id", "invoice_numbers"])
    .where("user_id", "=", scope.userId!)
    .where("status", "=", "pending");
  // Any open attempt (ADR 051), or only the boletos (their PDF link): of invoice payments and of orders placed
  // with a boleto in the wizard alike (issue 21 defect 11c: those had no "Boleto" action).
  if (!anyMethod) q = q.where("method_id", "=", PAYMENT_METHOD.boleto);
  const rows = await q
    .where(sql<boolean>`invoice_numbers ?| ${sql.val(numbers)}::text[]`)
    .orderBy("created_at", "asc")
    .execute();
  const out = new Map<string, string>();
  for (const r of rows) {
    const list = (typeof r.invoice_numbers === "string" ? JSON.parse(r.invoice_numbers) : r.invoice_numbers) as string[];
    for (const n of list) if (numbers.includes(n)) out.set(n, String(r.id));
  }
  return out;
}

/** One invoice of the acting user as the list shows it (the order details page's invoice panel), or null. */
export async function invoiceRowOf(scope: Scope, invoiceNumber: string): Promise<InvoiceRow | null> {
  const r = await listInvoices(scope, { page: 1, orderNumber: invoiceNumber });
  return r.ok ? (r.value.invoices.find((i) => i.invoiceNumber === invoiceNumber) ?? null) : null;
}

/** The unpaid invoices (the list's rule) of the acting user by number: the selection's total, and checks. */
export async function unpaidInvoicesByNumber(scope: Scope, numbers: string[]) {
  if (scope.userId === null || !numbers.length || (await invoicesHidden(scope))) return [];
  return scope.app.db
    .selectFrom("invoices")
    .select(["number", "balance", "currency_iso"])
    .where("user_id", "=", scope.userId)
    .where("kind", "=", "order")
    .where("number", "in", numbers)
    .where("balance", ">", "0")
    .where("pending_writeoff", "=", false)
    .where("status", "<>", "void")
    .execute();
}

/**
 * GET /api/invoice/load (spec 2 §7): the user's pending invoice payments, the invoices of the page asked for, the
 * unpaid ones, the user's currency and the methods an invoice may be paid with, and whether vouchers apply.
 */
export async function loadInvoices(scope: Scope, input: InvoiceListInput) {
  const page = await listInvoices(scope, input);
  if (!page.ok) return page;
  const userId = scope.userId!;
  const hidden = await invoicesHidden(scope);
  const [user, unpaid, pending, snapshot] = await Promise.all([
    scope.app.db
      .selectFrom("users as u")
      .innerJoin("currencies as c", "c.iso_code", "u.currency_iso")
      .select(["c.iso_code", "c.sign", "c.short_name", "c.num_decimals", "c.name", "u.voucher_available", "u.localization"])
      .where("u.id", "=", userId)
      .executeTakeFirstOrThrow(),
    hidden ? Promise.resolve([]) : listInvoices(scope, { page: 1, unpaidOnly: true }).then((r) => (r.ok ? r.value.invoices : [])),
    scope.app.db
      .selectFrom("payments")
      .select(["id", "method_id", "invoice_numbers", "amount", "currency_iso", "created_at"])
      .where("user_id", "=", userId)
      .where("purpose", "=", "invoices")
      .where("status", "in", ["pending", "processing"])
      .orderBy("created_at", "desc")
      .execute(),
    scope.app.config.snapshot(),
  ]);
  const localization = snapshot.localizations.find((l) => l.identity === user.localization);
  return ok({
    pendingPayments: pending.map((p) => ({
      id: String(p.id),
      paymentMethodId: p.method_id,
      invoiceNumbers: (typeof p.invoice_numbers === "string" ? JSON.parse(p.invoice_numbers) : p.invoice_numbers) as string[],
      amount: Number(p.amount),
      currency: p.currency_iso.trim(),
      createdAt: new Date(p.created_at).toISOString(),
    })),
    invoices: page.value.invoices,
    pagination: page.value.pagination,
    unpaidInvoices: unpaid.map((i) => ({
      invoiceNumber: i.invoiceNumber,
      transactionDate: i.createdAt,
      balance: i.balance,
      currency: i.currency.isoCode,
    })),
    currency: {
      isoCode: user.iso_code.trim(),
      sign: user.sign,
      shortName: user.short_name,
      numDecimals: user.num_decimals,
      name: user.name,
    },
    paymentMethods: localization?.paymentMethods ?? [],
    voucherAvailable: user.voucher_available,
  });
}

/**
 * The invoices of a selection that may be paid now (the acting user's, unpaid), in the order chosen; the pay
 * page's address is made of them. Error: `selection-required` (field `invoice`) when none of them can be paid.
 */
export async function payableSelection(scope: Scope, numbers: string[]): Promise<Result<string[]>> {
  const payable = new Set((await unpaidInvoicesByNumber(scope, numbers)).map((i) => i.number));
  const chosen = [...new Set(numbers)].filter((n) => payable.has(n));
  return chosen.length ? ok(chosen) : invalid({ invoice: "invoices:errors.selection-required" }, "selection-required");
}

/** An invoice's fapiao as the list and GET /api/invoice/load show it (issue 13 §4). */
function fapiaoOf(f: import("../../fapiao").FapiaoView | undefined): InvoiceRow["fapiao"] {
  if (!f) return null;
  const completed = f.status === "issued";
  return {
    id: f.id,
    status: f.status,
    type: f.type,
    number: f.fapiaoNumber,
    url: completed && f.hasPdf ? `/api/fapiao/${f.id}/pdf` : null,
    completed,
  };
}
