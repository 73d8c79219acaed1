// Spending prepaid and credit balances on a payment (issue 13, spec 2 §4–§6, ADR 041). The panel's numbers
// and the plan of what a submission spends are computed here, on the server, from the ledger (server/balances):
// the page shows them, and the payment service recomputes them from the submission when it pays, so what is
// spent never comes from the browser.
import { invalid, ok, type Result } from "#common/result";
import type { BalanceChoice, BalancePanel } from "#common/payments/balances";
import { PAYMENT_FIELD as F } from "#common/payments/schemas";
import type { PaymentSubmission } from "#common/payments/types";
import type { DB } from "../db";
import type { Scope } from "../scope";
import { convertMinor, minorOf, parseMajor } from "#common/money";
import { currencyRate, getCatalogue, type Catalogue } from "../catalogue";
import { spendOnInvoice, totalIn, userBalances } from "../billing";
import { lockInvoice, type LockedInvoice } from "../billing/invoices/payments";
import type { Actor } from "../kernel/actor";
import { userRowOf } from "../accounts/user-row";

export const NO_BALANCES: BalanceChoice = { useCredits: false, prepayOption: "none", prepayAmount: null };

export const choiceOfSubmission = (s: PaymentSubmission): BalanceChoice => ({
  useCredits: s.useCredits,
  prepayOption: s.prepayOption,
  prepayAmount: s.prepayAmount,
});

/** What the user may spend, in `currencyIso`: null when none, or when invoices and credits are hidden. */
export async function balancesFor(
  scope: Scope,
  currencyIso: string,
  now = new Date(),
): Promise<{ credits: number; prepayment: number; currency: BalancePanel["currency"] } | null> {
  if (!scope.userId) return null;
  const db = scope.app.db;
  const user = await userRowOf(scope.app, scope.userId);
  // hideInvoices hides invoices, credits and every credit widget (spec 2 §6).
  if (!user || user.hide_invoices) return null;
  const [catalogue, balances] = await Promise.all([getCatalogue(scope.app), userBalances(db, scope.userId, now)]);
  const target = currencyRate(catalogue, currencyIso, now);
  if (!target) return null;
  const prepayment = totalIn(balances.prepayments, target, catalogue, now);
  let credits = totalIn(balances.credits, target, catalogue, now);
  // Credits count only when worth at least 1 in the user's own currency (spec 2 §6).
  const own = currencyRate(catalogue, user.currency_iso.trim(), now);
  if (!own || totalIn(balances.credits, own, catalogue, now) < minorOf(1, own.numDecimals)) credits = 0;
  if (credits <= 0 && prepayment <= 0) return null;
  const c = catalogue.currencies[currencyIso];
  return { credits, prepayment, currency: { isoCode: currencyIso, sign: c.sign, numDecimals: c.numDecimals } };
}

/** Whether the user holds credits usable now (rules.ts then offers the credits method). */
export async function hasUsableCredits(scope: Scope, currencyIso: string): Promise<boolean> {
  return ((await balancesFor(scope, currencyIso))?.credits ?? 0) > 0;
}

/**
 * What a choice spends on `subtotal` (minor units): credits first (they are the ones that expire), then the
 * prepayment, in full or the typed partial amount, never more than is available nor what is left to pay.
 * Errors (field `prepayAmount`): a partial amount that is not a number above 0, or above the maximum.
 */
export function planBalances(
  available: { credits: number; prepayment: number; currency: BalancePanel["currency"] },
  subtotal: number,
  choice: BalanceChoice,
): Result<BalancePanel> {
  const credits = choice.useCredits ? Math.min(available.credits, Math.max(0, subtotal)) : 0;
  const prepayMax = Math.min(available.prepayment, Math.max(0, subtotal - credits));
  let prepayment = 0;
  if (choice.prepayOption === "fullPayment") prepayment = prepayMax;
  else if (choice.prepayOption === "partialPayment" && available.prepayment > 0) {
    // A fraction longer than the currency's is refused, not cut: "1.000" in reais may mean a thousand (ADR 054).
    const minor = parseMajor(choice.prepayAmount ?? "", available.currency.numDecimals);
    if (minor === null) return invalid({ [F.prepayAmount]: "payment:errors.prepay-amount-invalid" });
    if (minor > prepayMax) return invalid({ [F.prepayAmount]: "payment:errors.prepay-amount-exceeds" });
    prepayment = minor;
  }
  return ok({
    currency: available.currency,
    subtotal,
    credits: available.credits,
    prepayment: available.prepayment,
    prepayMax,
    choice: {
      useCredits: choice.useCredits && available.credits > 0,
      prepayOption: available.prepayment > 0 ? choice.prepayOption : "none",
      prepayAmount: choice.prepayAmount,
    },
    applied: { credits, prepayment },
    payable: Math.max(0, subtotal - credits - prepayment),
  });
}

/** The panel for a payment of `subtotal` in `currencyIso` with this choice (null: nothing to spend). */
export async function balancePlan(
  scope: Scope,
  subtotal: number,
  currencyIso: string,
  choice: BalanceChoice,
): Promise<Result<BalancePanel | null>> {
  const available = await balancesFor(scope, currencyIso);
  if (!available) return ok(null);
  return planBalances(available, subtotal, choice);
}

/**
 * Puts the planned balances on a locked invoice (credits, then prepayments), `credits` and `prepayment` in
 * minor units of `payCurrency`. A concurrent spend may have left less than planned: the invoice then keeps
 * the rest due (ADR 041). Returns what was put on it, in the payment's currency.
 */
export async function spendPlanned(
  trx: DB,
  req: {
    userId: number;
    invoice: LockedInvoice;
    credits: number;
    prepayment: number;
    payCurrency: string;
    paymentId?: string | null;
    actor: Actor;
    catalogue?: Catalogue;
    /** Hold instead of spend (ADR 051): the charge's outcome applies or releases them. */
    reserve?: boolean;
  },
  app: Parameters<typeof getCatalogue>[0],
): Promise<{ credits: number; prepayment: number; invoiceAmount: number; movementIds: string[] }> {
  const catalogue = req.catalogue ?? (await getCatalogue(app));
  const now = new Date();
  const pay = currencyRate(catalogue, req.payCurrency, now);
  const inv = currencyRate(catalogue, req.invoice.currency_iso.trim(), now);
  const done = { credits: 0, prepayment: 0, invoiceAmount: 0, movementIds: [] as string[] };
  if (!pay || !inv) return done;
  // A reservation leaves the invoice's balance as it is: what the credits held is not there for the prepayment.
  let room = Number(req.invoice.balance);
  for (const kind of ["credits", "prepayment"] as const) {
    const planned = req[kind];
    if (planned <= 0) continue;
    const spent = await spendOnInvoice(trx, {
      userId: req.userId,
      invoice: req.reserve ? { ...req.invoice, balance: room } : req.invoice,
      reserve: req.reserve,
      from: kind === "credits" ? "credits" : "prepayments",
      max: convertMinor(planned, pay, inv),
      paymentId: req.paymentId ?? null,
      actor: req.actor,
      catalogue,
      now,
    });
    done[kind] = Math.min(planned, convertMinor(spent.amount, inv, pay));
    done.invoiceAmount += spent.amount;
    done.movementIds.push(...spent.movements.map((m) => m.id));
    room -= spent.amount;
  }
  return done;
}

/**
 * Spends a plan over invoices in number order (each locked here, in the caller's transaction), each taking
 * what is left of the plan. Returns what was applied, in the payment's currency.
 */
export async function spendOnInvoices(
  trx: DB,
  app: Parameters<typeof getCatalogue>[0],
  req: {
    userId: number;
    invoiceNumbers: string[];
    credits: number;
    prepayment: number;
    payCurrency: string;
    actor: Actor;
    paymentId?: string | null;
    reserve?: boolean;
  },
): Promise<{ credits: number; prepayment: number; perInvoice: Map<string, number> }> {
  // Read on the transaction's own connection (a cold cache loads it): asking the pool for a second client while
  // this one holds the invoices' locks can wait on a pool the lock's other waiters fill, and on PGlite, whose one
  // connection this transaction holds, it never comes (ADR 048).
  const catalogue = await getCatalogue({ db: trx, cache: app.cache });
  const applied = { credits: 0, prepayment: 0, perInvoice: new Map<string, number>() };
  for (const number of [...req.invoiceNumbers].sort()) {
    const left = { credits: req.credits - applied.credits, prepayment: req.prepayment - applied.prepayment };
    if (left.credits <= 0 && left.prepayment <= 0) break;
    const invoice = await lockInvoice(trx, number);
    // Balances pay an order's invoice, never a prepayment (ADR 058).
    if (!invoice || invoice.kind !== "order" || invoice.user_id !== req.userId || Number(invoice.balance) <= 0) continue;
    const done = await spendPlanned(
      trx,
      {
        userId: req.userId,
        invoice,
        ...left,
        payCurrency: req.payCurrency,
        actor: req.actor,
        catalogue,
        paymentId: req.paymentId,
        reserve: req.reserve,
      },
      app,
    );
    applied.credits += done.credits;
    applied.prepayment += done.prepayment;
    if (done.invoiceAmount > 0) applied.perInvoice.set(number, done.invoiceAmount);
  }
  return applied;
}

/**
 * The dashboard's "Prepay and credits" widget (spec 2 §2): the user's credit and prepaid balance in their own
 * currency, or null when it should not show (no balance, hidden invoices; rewards do not exist yet, so the
 * "no rewards" condition always holds).
 */
export async function dashboardBalance(
  scope: Scope,
): Promise<{ amount: number; currency: BalancePanel["currency"]; prepayOpen: boolean } | null> {
  if (!scope.userId) return null;
  const user = await userRowOf(scope.app, scope.userId);
  if (!user) return null;
  const b = await balancesFor(scope, user.currency_iso.trim());
  if (!b || b.credits + b.prepayment <= 0) return null;
  // prepay_enabled off: the balance still shows (it pays orders and invoices), the link to the prepay page does not.
  const prepayOpen = await scope.app.config.flag("prepay_enabled");
  return { amount: b.credits + b.prepayment, currency: b.currency, prepayOpen };
}
