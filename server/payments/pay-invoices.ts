// Paying a researcher's unpaid invoices, one or many at once (the pay page and POST /api/payoff/payment; spec 2 §2
// "Pay screen", issues 12, 13 and 21). It exists apart from the provider calls because it owns what is paid for:
// the invoices read under their row locks (in number order), their total in their currency or in USD at the day's
// rates, one open attempt per invoice (ADR 051), the balances spent or held with the charge (ADR 041/051), and the
// idempotency key's scope and fingerprint. Creating, charging and settling the attempt are the other files'.
import { sql } from "kysely";
import { fail, ok, type Result } from "#common/result";
import { paths } from "#common/paths";
import type { PaymentAnswer, PaymentSubmission } from "#common/payments/types";
import { methodFacts } from "#common/payments/methods";
import type { DB } from "../db";
import type { Scope } from "../scope";
import { convertMinor, USD } from "#common/money";
import { storeOrderFapiao } from "../fapiao";
import { idempotent, storedAnswer } from "./idempotency";
import { openAttemptRefusal } from "./attempts";
import { billingChanged } from "../billing/invoices/events";
import { offeredMethodIds } from "./offer";
import { getProvider } from "./providers";
import { balancePlan, spendOnInvoices } from "./balances";
import { PAYMENT_METHOD } from "#common/payments/methods";
import type { Actor } from "../kernel/actor";
import { afterCharge, charge, markFailed } from "./charge";
import { type PaymentRow, type Row, declined, keepResult, paymentAnswer, toPayment } from "./read";
import { balanceChoice, refuseShortfall, refusing } from "./refuse";
import { detailsOf, insertPayment } from "./submit";

const MAX_INVOICES = 50;

/**
 * Pays the user's unpaid invoices at once (the pay page, POST /api/payoff/payment). The amount is their balances:
 * in their currency when they share one, else in USD at the day's rates (spec 2 §2 "Pay screen"), each invoice's
 * share kept on the payment so it is credited exactly.
 */
export async function payInvoices(
  scope: Scope,
  invoiceNumbers: string[],
  submission: PaymentSubmission,
  idempotencyKey: string,
  /** The body as posted: the key's fingerprint, so a replay after the invoices were paid can be compared with it. */
  fields?: Record<string, string>,
): Promise<Result<PaymentAnswer>> {
  const userId = scope.userId;
  if (!userId) return fail("sign-in-required");
  const numbers = [...new Set(invoiceNumbers.map((n) => n.trim()).filter(Boolean))].sort();
  if (numbers.length === 0 || numbers.length > MAX_INVOICES) return fail("not-found");
  return idempotent(
    scope.app,
    userId,
    idempotencyKey,
    invoicesScope(numbers),
    fields ? { fields: postedFields(fields) } : { submission },
    () => payInvoicesOnce(scope, userId, numbers, submission),
    keepResult,
  );
}

/** The scope of an invoices payment's idempotency key: the invoices, in number order. */
const invoicesScope = (numbers: string[]) => `invoices:${[...new Set(numbers.map((n) => n.trim()).filter(Boolean))].sort().join(",")}`;

/**
 * The first answer of a finished payment of these invoices under this key (a retry after the invoices were
 * paid by it), or null. The caller asks when the invoices can no longer be paid.
 */
export async function replayedInvoicesPayment(
  scope: Scope,
  invoiceNumbers: string[],
  idempotencyKey: string,
  fields?: Record<string, string>,
): Promise<Result<PaymentAnswer> | null> {
  if (!scope.userId) return null;
  return storedAnswer<PaymentAnswer>(
    scope.app,
    scope.userId,
    idempotencyKey,
    invoicesScope(invoiceNumbers),
    fields ? { fields: postedFields(fields) } : undefined,
  );
}

/** The posted fields that make a request (the key itself and empty fields do not). */
function postedFields(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([k, v]) => v !== "" && k !== "idempotencyKey" && k !== "_csrf"));
}

export interface InvoiceTotal {
  invoices: { number: string; balance: number; currencyIso: string }[];
  amount: number;
  currencyIso: string;
  /** Units of currencyIso per 1 USD when the invoices' currencies differ and the total is in USD. */
  exchangeRate: string | null;
  allocations: { invoiceNumber: string; amount: number }[];
}

/** The user's unpaid invoices among `numbers` and what paying them all costs; not-found unless all are theirs. */
export async function invoicesTotal(db: DB, userId: number, numbers: string[], lock = false): Promise<Result<InvoiceTotal>> {
  let q = db
    .selectFrom("invoices")
    .select(["number", "balance", "currency_iso", "status", "pending_writeoff"])
    .where("user_id", "=", userId)
    // Order invoices: a prepayment is paid through prepay's own form (ADR 058).
    .where("kind", "=", "order")
    .where("number", "in", numbers)
    .orderBy("number");
  if (lock) q = q.forUpdate();
  const rows = await q.execute();
  if (rows.length !== numbers.length) return fail("not-found");
  if (rows.some((r) => Number(r.balance) <= 0 || r.pending_writeoff || r.status !== "unpaid")) return fail("invoice-already-paid");
  const invoices = rows.map((r) => ({ number: r.number, balance: Number(r.balance), currencyIso: r.currency_iso.trim() }));
  const currencies = new Set(invoices.map((i) => i.currencyIso));
  const allocations = invoices.map((i) => ({ invoiceNumber: i.number, amount: i.balance }));
  if (currencies.size === 1)
    return ok({
      invoices,
      amount: invoices.reduce((a, i) => a + i.balance, 0),
      currencyIso: invoices[0].currencyIso,
      exchangeRate: null,
      allocations,
    });
  // Mixed currencies: the total in USD, each balance converted at the day's rate (rounded up to the cent, so
  // the money received always covers every invoice).
  let usd = 0;
  for (const i of invoices) usd += await toUsdCents(db, i.balance, i.currencyIso);
  return ok({ invoices, amount: usd, currencyIso: "USD", exchangeRate: "1", allocations });
}

async function payInvoicesOnce(
  scope: Scope,
  userId: number,
  numbers: string[],
  submission: PaymentSubmission,
): Promise<Result<PaymentAnswer>> {
  const facts = methodFacts(submission.paymentMethodId);
  if (!submission.acceptTerms) return fail("accept-terms");
  const peek = await invoicesTotal(scope.app.db, userId, numbers);
  if (!peek.ok) return peek;
  // Balances (issue 13, ADR 041): planned from the submission and the ledger, spent on the invoices under
  // their locks before the provider is asked for what is left.
  const plan = await balancePlan(scope, peek.value.amount, peek.value.currencyIso, balanceChoice(submission));
  if (!plan.ok) return plan;
  const balances = plan.value && plan.value.applied.credits + plan.value.applied.prepayment > 0 ? plan.value : null;
  const allowed = await offeredMethodIds(scope, {
    purpose: "invoices",
    total: balances ? balances.payable : peek.value.amount,
    currencyIso: peek.value.currencyIso,
  });
  // Balances covering everything: free, or the credits method that chose them.
  const covered = balances?.payable === 0 && submission.paymentMethodId === PAYMENT_METHOD.credits;
  if (!allowed.includes(submission.paymentMethodId) && !covered) return fail("payment-method-required");
  if (!facts.provider && !balances) return fail("payment-method-required");
  const provider = facts.provider ? getProvider(scope.app, facts.provider) : null;
  const actor: Actor = { userId, impersonatorId: scope.impersonatorId };
  const created = await refusing(() =>
    scope.app.db.transaction().execute(async (trx): Promise<Result<PaymentRow | AppliedOnly>> => {
      // The invoices' rows are the lock (in number order: no deadlock between two overlapping sets).
      const locked = await invoicesTotal(trx, userId, numbers, true);
      if (!locked.ok) return locked;
      // One open attempt per invoice (ADR 051): a pending boleto, PayPal order or QR code is the researcher's
      // way to pay; a second attempt is refused with a link to it.
      const open = await openAttemptRefusal(trx, numbers, scope.lang);
      if (open) return open;
      const spend = (reserve: boolean, paymentId: string | null) =>
        spendOnInvoices(trx, scope.app, {
          userId,
          invoiceNumbers: numbers,
          credits: balances!.applied.credits,
          prepayment: balances!.applied.prepayment,
          payCurrency: locked.value.currencyIso,
          actor,
          paymentId,
          reserve,
        });
      // Balances covering everything with no provider: spent at once, or refused when no longer there.
      if (!provider || (balances && balances.payable === 0)) {
        if (!balances) return fail("payment-method-required");
        const applied = await spend(false, null);
        refuseShortfall(balances, applied, numbers.length);
        return ok({ appliedOnly: true as const, creditsApplied: applied.credits, prepaymentApplied: applied.prepayment });
      }
      const payment = await insertPayment(trx, {
        userId,
        impersonatorId: scope.impersonatorId,
        purpose: "invoices",
        orderFormId: null,
        invoiceNumbers: numbers,
        methodId: submission.paymentMethodId,
        provider,
        amount: locked.value.amount,
        currencyIso: locked.value.currencyIso,
        exchangeRate: locked.value.exchangeRate,
        details: detailsOf(scope, submission, { allocations: locked.value.allocations }),
      });
      if (!balances) return ok(payment);
      // The balances are held for this charge, not spent (ADR 051): a decline gives them back untouched.
      const held = await spend(true, payment.id);
      refuseShortfall(balances, held, numbers.length);
      const left = locked.value.invoices
        .map((i) => ({ ...i, balance: i.balance - (held.perInvoice.get(i.number) ?? 0) }))
        .filter((i) => i.balance > 0);
      let amount = 0;
      for (const i of left) amount += locked.value.exchangeRate ? await toUsdCents(trx, i.balance, i.currencyIso) : i.balance;
      const details = detailsOf(scope, submission, {
        allocations: left.map((i) => ({ invoiceNumber: i.number, amount: i.balance })),
        creditsApplied: held.credits,
        prepaymentApplied: held.prepayment,
      });
      const row = await trx
        .updateTable("payments")
        .set({ amount, details: JSON.stringify(details) })
        .where("id", "=", payment.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return ok(toPayment(row as unknown as Row));
    }),
  );
  if (!created.ok) return created;
  if ("appliedOnly" in created.value) {
    const { creditsApplied, prepaymentApplied } = created.value;
    await billingChanged.emit(scope.app, { userId });
    return ok({
      paymentId: null,
      status: "succeeded",
      redirectUrl: paths.invoicesUnpaidLanding(scope.lang, "success"),
      redirectForm: null,
      error: null,
      creditsApplied,
      prepaymentApplied,
    });
  }
  if (!provider) return fail("payment-method-required");
  const payment = created.value;
  const result = await charge(scope, provider, payment, submission, numbers.join(", "));
  if (result.status === "failed") return declined(await markFailed(scope.app, payment.id, result));
  // One invoice only: the form offers the order fapiao only then (spec 2 §2 "Pay screen").
  await storeOrderFapiao(scope.app, userId, numbers.length === 1 ? numbers[0] : null, submission);
  return ok(paymentAnswer(await afterCharge(scope.app, payment.id, result)));
}

/** Minor units of `iso` as USD cents at the latest rate (rounded up: what is received covers the invoice). */
async function toUsdCents(db: DB, amount: number, iso: string): Promise<number> {
  if (iso === "USD") return amount;
  const [rate, currency] = await Promise.all([
    db
      .selectFrom("exchange_rates")
      .select(sql<string>`rate::text`.as("rate"))
      .where("iso_code", "=", iso)
      .where("effective_on", "<=", sql<string>`current_date`)
      .orderBy("effective_on", "desc")
      .executeTakeFirst(),
    db.selectFrom("currencies").select("num_decimals").where("iso_code", "=", iso).executeTakeFirst(),
  ]);
  if (!rate || !currency) throw new Error(`no exchange rate for ${iso}`);
  return convertMinor(amount, { isoCode: iso, numDecimals: currency.num_decimals, rate: rate.rate }, USD, "up");
}

/** A payment made wholly from balances (no provider), or a provider method with nothing left due after them. */
interface AppliedOnly {
  appliedOnly: true;
  creditsApplied?: number;
  prepaymentApplied?: number;
}
