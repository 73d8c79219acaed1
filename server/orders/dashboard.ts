// The researcher dashboard (issue 11 §3, spec 2 §2 "Dashboard and order list", "Order panel", §9; ADR 031):
// the user's orders 30 a page through the one search of read.ts (the page and GET /api/order/search answer
// the same list), the unpaid-invoice banner, the unfinished order form alert and the referral link.
// Everything is read for the acting user only: another user's orders and invoices never show.
import { sql } from "kysely";
import { fail, ok, type Result } from "#common/result";
import { paths } from "#common/paths";
import type { OrderSearchInput } from "#common/orders/search";
import { filterInstants } from "../kernel/days";
import type { DisplayStatus } from "#common/orders/status";
import type { CurrencyFormat } from "#common/format";
import { isSiteLang, type SiteLang } from "#common/i18n";
import type { Scope } from "../scope";
import { localizationTimeZone } from "../config";
import { mailLinkBase } from "../mail/links";
import { flagContextOf, searchOrders, type OrderView } from "./read";
import { userRowOf } from "../accounts/user-row";

/** Unpaid invoices are listed one by one only up to this many (spec 2 §2, §9); past it the banner counts them. */
export const UNPAID_LISTED_MAX = 10;

/** An order as the API shows it: the internal row id stays on the server. */
export type PublicOrder = Omit<OrderView, "id">;

// Dates of the filter are the kernel's (ADR 056): the invoice list filters by the same days.
export { filterInstants, startOfDay } from "../kernel/days";

async function timeZoneOf(scope: Scope): Promise<string> {
  const { localizations } = await scope.app.config.snapshot();
  return localizationTimeZone(localizations, scope.localization);
}

// ---------------------------------------------------------------------------------------------------------
// The order list: one search for the page and the API.

export interface OrderPage {
  orders: PublicOrder[];
  pagination: { page: number; pageSize: number; total: number; pages: number };
}

/** The acting user's orders matching the parsed filter (app/common/orders/search.ts), newest first, 30 a page. */
export async function searchMyOrders(scope: Scope, input: OrderSearchInput): Promise<Result<OrderPage>> {
  if (scope.userId === null) return fail("unauthorized");
  const timeZone = await timeZoneOf(scope);
  const found = await searchOrders(
    scope.app.db,
    scope.userId,
    { xid: input.xid, orderTitle: input.orderTitle, ...filterInstants(input, timeZone), page: input.page },
    await flagContextOf(scope),
  );
  const { total, pageSize } = found.pagination;
  return ok({
    orders: found.orders.map(({ id: _id, ...order }) => order),
    pagination: { ...found.pagination, pages: Math.max(1, Math.ceil(total / pageSize)) },
  });
}

/** What one order panel shows (spec 2 §2 "Order panel"): a slice of the order, so the page stays light. */
export interface OrderPanel {
  externalId: string;
  title: string;
  displayStatus: DisplayStatus;
  createdAt: string;
  deadline: string | null;
  completedAt: string | null;
  /** Catalogue name keys of the services ordered. */
  services: string[];
  downloadAvailable: boolean;
  /** Completed, files delivered, held back until the invoice is paid (a placed order's "awaiting payment" is its status). */
  filesAwaitingPayment: boolean;
  certificateReady: boolean;
  reeditAvailable: boolean;
  invoice: { number: string; balance: number; status: string } | null;
  /** A boleto waiting to be paid at a bank (spec 2 §2 order panel: "a boleto download link"). */
  boletoUrl: string | null;
  currency: CurrencyFormat;
}

export function toPanel(o: PublicOrder): OrderPanel {
  return {
    externalId: o.externalId,
    title: o.title,
    displayStatus: o.flags.displayStatus,
    createdAt: o.createdAt,
    deadline: o.deadline,
    completedAt: o.flags.completed ? o.completedAt : null,
    services: [...new Set(o.lineItems.map((l) => l.nameKey))],
    // A completed, unpaid order shows "awaiting payment" and no files (the flag holds them back).
    downloadAvailable: o.flags.downloadAvailable,
    filesAwaitingPayment: o.flags.awaitingPayment && o.flags.completed,
    certificateReady: o.flags.certificateReady,
    reeditAvailable: o.flags.reeditAvailable,
    invoice: o.invoice ? { number: o.invoice.number, balance: o.invoice.balance, status: o.invoice.status } : null,
    boletoUrl: o.pendingPayments.find((p) => p.boletoUrl)?.boletoUrl ?? null,
    currency: o.currency,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The banner, the alert and the widgets.

export interface UnpaidInvoice {
  number: string;
  createdAt: string;
  balance: number;
  currency: CurrencyFormat;
}

/**
 * The acting user's unpaid invoices (status 'unpaid', balance above 0): how many, and the invoices themselves
 * only when there are UNPAID_LISTED_MAX or fewer (`null` past that: the banner counts them).
 */
export async function unpaidInvoicesOf(scope: Scope): Promise<{ count: number; invoices: UnpaidInvoice[] | null }> {
  if (scope.userId === null) return { count: 0, invoices: [] };
  const rows = await scope.app.db
    .selectFrom("invoices as i")
    .innerJoin("currencies as c", "c.iso_code", "i.currency_iso")
    .select(["i.number", "i.created_at", "i.balance", "i.currency_iso", "c.sign", "c.num_decimals"])
    .select(sql<number>`count(*) over ()::int`.as("total"))
    .where("i.user_id", "=", scope.userId)
    // Order invoices only: an unpaid prepayment owes nothing (ADR 058).
    .where("i.kind", "=", "order")
    .where("i.status", "=", "unpaid")
    .where("i.balance", ">", "0")
    .orderBy("i.created_at", "desc")
    .orderBy("i.number", "desc")
    .limit(UNPAID_LISTED_MAX + 1)
    .execute();
  const count = Number(rows[0]?.total ?? 0);
  if (count > UNPAID_LISTED_MAX) return { count, invoices: null };
  return {
    count,
    invoices: rows.map((r) => ({
      number: r.number,
      createdAt: new Date(r.created_at).toISOString(),
      balance: Number(r.balance),
      currency: { isoCode: r.currency_iso.trim(), sign: r.sign, numDecimals: r.num_decimals },
    })),
  };
}

/**
 * Whether the acting user left an order form unfinished (spec 2 §2): a draft with services chosen or files
 * uploaded. An empty draft (opening the wizard creates one) is not worth an alert.
 */
export async function hasUnfinishedOrderForm(scope: Scope): Promise<boolean> {
  if (scope.userId === null) return false;
  const row = await scope.app.db
    .selectFrom("order_forms as f")
    .select("f.id")
    .where("f.user_id", "=", scope.userId)
    .where("f.status", "=", "draft")
    .where((eb) =>
      eb.or([
        eb(sql<number>`jsonb_array_length(f.selections)`, ">", 0),
        eb.exists(
          eb.selectFrom("files").select("files.id").whereRef("files.order_form_id", "=", "f.id").where("files.deleted_at", "is", null),
        ),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * The acting user's referral link (spec 2 §2 "Widget row", spec 3 "Referrals"): the sign-up page with their
 * code, on their localisation's site (else the public address; never a request's Host, ADR 025), in the
 * referrer's language (/cn/register… for a Chinese researcher, whose colleagues most likely read Chinese; the
 * page's language switch is one click away). Issue 22 item 2: without a prefix it opened in English.
 */
export async function referralLinkOf(scope: Scope): Promise<string | null> {
  if (scope.userId === null) return null;
  const user = await userRowOf(scope.app, scope.userId);
  if (!user) return null;
  const lang: SiteLang = isSiteLang(user.language) ? user.language : scope.lang;
  return (await mailLinkBase(scope.app, user.localization)) + paths.referralSignUp(lang, user.referral_code);
}

/**
 * The widgets of spec 2 §2 besides referrals, by their rules. Their areas (rewards, prepay and credits,
 * preferred groups) arrive with later issues: until then the dashboard renders none of them (no dead links),
 * and these rules wait for their data.
 */
export interface WidgetInput {
  hasRewards: boolean;
  hideInvoices: boolean;
  /** The user's credit balance in minor units. */
  creditBalance: number;
  preferredGroup: { membershipDisplayed: boolean } | null;
}

export function dashboardWidgets(u: WidgetInput) {
  return {
    referrals: true,
    rewards: u.hasRewards,
    prepayCredits: !u.hasRewards && !u.hideInvoices && u.creditBalance > 0,
    preferredGroup: Boolean(u.preferredGroup?.membershipDisplayed),
    joinGroup: !u.preferredGroup,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The page.

export interface Dashboard extends OrderPage {
  panels: OrderPanel[];
  unpaid: { count: number; invoices: UnpaidInvoice[] | null };
  unfinishedOrderForm: boolean;
  referralLink: string | null;
  /** The clock dates are shown in (the researcher's localisation's). */
  timeZone: string;
}

/** Everything the dashboard shows, read at once. */
export async function dashboardOf(scope: Scope, input: OrderSearchInput): Promise<Result<Omit<Dashboard, "orders">>> {
  const [list, unpaid, unfinishedOrderForm, referralLink, timeZone] = await Promise.all([
    searchMyOrders(scope, input),
    unpaidInvoicesOf(scope),
    hasUnfinishedOrderForm(scope),
    referralLinkOf(scope),
    timeZoneOf(scope),
  ]);
  if (!list.ok) return list;
  return ok({
    panels: list.value.orders.map(toPanel),
    pagination: list.value.pagination,
    unpaid,
    unfinishedOrderForm,
    referralLink,
    timeZone,
  });
}
