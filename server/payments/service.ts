// Taking money (issue 12, ADR 034): the one module that creates payments, talks to providers through their
// interface, and settles what they confirm. Pages, the API, provider returns and notifications all come here.
//
// - Amounts come from the server only: an order form is priced by server/order-form, invoices are read locked.
// - Every attempt is a payments row; only settle() moves money into the invoice_payments ledger, once.
// - One charge at a time per order form or invoice: the row is locked while an attempt is created, and a second
//   attempt finds the first one `processing`. With the idempotency key (idempotency.ts) on top, 50 identical
//   submits make one payment row and one charge.
// - The wizard's "pay and place the order" is orders' (server/orders/pay.ts, ADR 056): it calls these functions;
//   payments never imports orders or prepay, and tells them what settled through events (events.ts).
import { sql } from "kysely";
import { fail, ok, type Result } from "#common/result";
import { paths } from "#common/paths";
import { isSiteLang, type SiteLang } from "#common/i18n";
import type { PaymentAnswer, PaymentSubmission } from "#common/payments/types";
import type { BalancePanel } from "#common/payments/balances";
import { methodFacts, type ProviderId } from "#common/payments/methods";
import type { AppContext } from "../context";
import type { DB } from "../db";
import type { Scope } from "../scope";
import { mailLinkBase } from "../mail/links";
import type { Actor } from "../kernel/actor";
import { SYSTEM_ACTOR } from "../kernel/actor";
import { creditInvoice, lockInvoice } from "../invoices/payments";
import { parseDecimal } from "../catalogue/money";
import { storeOrderFapiao } from "../fapiao";
import { idempotent, storedAnswer } from "./idempotency";
import { leaseUntil, openAttemptRefusal, withLease } from "./attempts";
import { prepaymentSettled } from "./events";
import { billingChanged } from "../invoices/events";
import { creditOverpayment, type Overpayment } from "../balances";
import { applyReservations, releaseReservations } from "./reserve";
import { offeredMethodIds } from "./offer";
import { getProvider } from "./providers";
import { balancePlan, choiceOfSubmission, spendOnInvoices } from "./balances";
import { PAYMENT_METHOD } from "#common/payments/methods";
import type { ChargeRequest, ChargeResult, NextAction, PaymentProvider, ProviderEvent } from "./providers/types";

export type PaymentPurpose = "order-form" | "invoices" | "prepay" | "digital";
export type PaymentStatus = "processing" | "pending" | "succeeded" | "failed" | "cancelled" | "refunded";

export interface PaymentRow {
  id: string;
  userId: number;
  purpose: PaymentPurpose;
  orderFormId: string | null;
  invoiceNumbers: string[];
  methodId: number;
  provider: string;
  sandbox: boolean;
  status: PaymentStatus;
  amount: number;
  currencyIso: string;
  exchangeRate: string | null;
  providerRef: string | null;
  nextAction: NextAction | null;
  error: string | null;
  refundedAmount: number;
  createdAt: Date;
  paidAt: Date | null;
  details: PaymentDetails;
}

/** What a payment remembers besides its amount (payments.details). */
export interface PaymentDetails {
  lang?: SiteLang;
  /** The order the wizard placed with this payment (its thank-you page is the landing). */
  orderExternalId?: string;
  /** Per invoice, the amount in the invoice's currency this payment pays (pay many in USD converts). */
  allocations?: { invoiceNumber: string; amount: number }[];
  billing?: Record<string, unknown> | null;
  taxId?: { type: string; number: string } | null;
  installments?: number | null;
  brazilChoice?: string | null;
  fapespProcessNumber?: string | null;
  /** Before ADR 051: money that arrived for nothing left to pay. Now an overpayment credit (`overpayments`). */
  unallocated?: number;
  /** Money captured beyond what was due, deposited on the researcher's overpayment credits (ADR 051). */
  overpayments?: Overpayment[];
  /** Staff refunds (ADR 051): how much came off the surplus, and the invoices re-opened when staff chose to. */
  refunds?: { amount: number; fromSurplus: number; reopened: { invoiceNumber: string; amount: number }[]; at: string }[];
  /** Issue 13: what the researcher's credits and prepayment put on the invoices (minor units of the payment). */
  creditsApplied?: number;
  prepaymentApplied?: number;
  /** A prepayment (purpose prepay): the retainer invoice it pays (issue 13, ADR 040). */
  retainerInvoiceNumber?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_INVOICES = 50;

export type Row = {
  id: string;
  user_id: number;
  purpose: string;
  order_form_id: string | null;
  invoice_numbers: string[];
  method_id: number;
  provider: string;
  sandbox: boolean;
  status: string;
  amount: string | number;
  currency_iso: string;
  exchange_rate: string | null;
  provider_ref: string | null;
  next_action: Record<string, unknown> | null;
  error: string | null;
  refunded_amount: string | number;
  created_at: Date;
  paid_at: Date | null;
  details: Record<string, unknown>;
};

export function toPayment(r: Row): PaymentRow {
  return {
    id: r.id,
    userId: r.user_id,
    purpose: r.purpose as PaymentPurpose,
    orderFormId: r.order_form_id,
    invoiceNumbers: r.invoice_numbers ?? [],
    methodId: r.method_id,
    provider: r.provider,
    sandbox: r.sandbox,
    status: r.status as PaymentStatus,
    amount: Number(r.amount),
    currencyIso: r.currency_iso.trim(),
    exchangeRate: r.exchange_rate,
    providerRef: r.provider_ref,
    nextAction: r.next_action as NextAction | null,
    error: r.error,
    refundedAmount: Number(r.refunded_amount),
    createdAt: new Date(r.created_at),
    paidAt: r.paid_at ? new Date(r.paid_at) : null,
    details: (r.details ?? {}) as PaymentDetails,
  };
}

export async function readPayment(db: DB, id: string, lock = false): Promise<PaymentRow | null> {
  if (!UUID.test(id)) return null;
  let q = db.selectFrom("payments").selectAll().where("id", "=", id);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toPayment(row as unknown as Row) : null;
}

/** A payment by id (any owner: provider returns and notifications, staff). */
export function findPayment(app: AppContext, id: string): Promise<PaymentRow | null> {
  return readPayment(app.db, id);
}

/** The signed-in user's own payment, else null (another user's payment is "not found"). */
export async function ownPayment(scope: Scope, id: string): Promise<PaymentRow | null> {
  const payment = await readPayment(scope.app.db, id);
  return payment && scope.userId !== null && payment.userId === scope.userId ? payment : null;
}

/** Where the researcher lands once a payment has an outcome (spec 2 §2 landings). */
export function paymentLanding(lang: SiteLang, payment: PaymentRow): string {
  const good = payment.status === "succeeded" || payment.status === "pending";
  if (payment.details.orderExternalId) return paths.orderThankYou(lang, payment.details.orderExternalId);
  if (payment.purpose === "prepay") return paths.prepayComplete(lang, good ? "success" : "error");
  return paths.invoicesUnpaidLanding(lang, good ? "success" : "error");
}

/** The language a payment's pages speak: the one it was made in. */
export const paymentLang = (payment: PaymentRow): SiteLang => (isSiteLang(payment.details.lang) ? payment.details.lang : "en");

/** The answer to the page or the API for a payment in its current state. */
export function paymentAnswer(payment: PaymentRow): PaymentAnswer {
  const lang = paymentLang(payment);
  const base = { paymentId: payment.id, redirectForm: null, error: null };
  if (payment.status === "failed" || payment.status === "cancelled")
    return { ...base, status: "failed", redirectUrl: null, error: payment.error ?? "" };
  if (payment.status === "pending" && payment.nextAction) {
    const next = payment.nextAction;
    if (next.kind === "redirect") return { ...base, status: "pending", redirectUrl: next.url };
    if (next.kind === "form")
      return {
        ...base,
        status: "pending",
        redirectUrl: null,
        redirectForm: { action: next.action, method: next.method, fields: next.fields },
      };
    return { ...base, status: "pending", redirectUrl: paths.paymentPending(lang, payment.id) };
  }
  return { ...base, status: payment.status === "pending" ? "pending" : "succeeded", redirectUrl: paymentLanding(lang, payment) };
}

/** Declines and settled payments are the request's answer (replayed); refusals of the input are not (ADR 034). */
export const keepResult = (r: Result<PaymentAnswer>) => r.ok || r.error === "payment-declined";

/** 'There was a problem saving your payment: %(error)s.' travels as the decline's `details.message`. */
export function declined(payment: PaymentRow): Result<PaymentAnswer> {
  return fail("payment-declined", { message: payment.error ?? "", paymentId: payment.id });
}

// ─── Invoices: pay one or many ──────────────────────────────────────────────────────────────────────────────

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

// ─── Provider calls ─────────────────────────────────────────────────────────────────────────────────────────

export interface NewPayment {
  userId: number;
  impersonatorId: number | null;
  purpose: PaymentPurpose;
  orderFormId: string | null;
  invoiceNumbers: string[];
  methodId: number;
  provider: PaymentProvider;
  amount: number;
  currencyIso: string;
  exchangeRate: string | null;
  details: PaymentDetails;
}

export async function insertPayment(trx: DB, p: NewPayment): Promise<PaymentRow> {
  const row = await trx
    .insertInto("payments")
    .values({
      user_id: p.userId,
      impersonator_id: p.impersonatorId,
      purpose: p.purpose,
      order_form_id: p.orderFormId,
      invoice_numbers: JSON.stringify(p.invoiceNumbers),
      method_id: p.methodId,
      provider: p.provider.id,
      sandbox: p.provider.sandbox,
      status: "processing",
      lease_until: leaseUntil(),
      amount: p.amount,
      currency_iso: p.currencyIso,
      exchange_rate: p.exchangeRate,
      details: JSON.stringify(p.details),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toPayment(row as unknown as Row);
}

export function billingOf(s: PaymentSubmission): Record<string, unknown> | null {
  const address = s.address ?? null;
  const invoice = s.invoiceAddressSameAsBilling ? address : (s.invoiceAddress ?? address);
  return invoice ? { ...invoice, vat: invoice.vat ?? null } : null;
}

export function detailsOf(scope: Scope, s: PaymentSubmission, extra: PaymentDetails): PaymentDetails {
  return {
    lang: scope.lang,
    billing: billingOf(s),
    taxId: s.taxId,
    installments: s.installments,
    brazilChoice: s.brazilChoice,
    fapespProcessNumber: s.fapespProcessNumber,
    ...extra,
  };
}

export async function charge(
  scope: Scope,
  provider: PaymentProvider,
  payment: PaymentRow,
  s: PaymentSubmission,
  description: string,
): Promise<ChargeResult> {
  const [base, user, currency, country] = await Promise.all([
    mailLinkBase(scope.app, scope.localization),
    scope.app.db
      .selectFrom("users")
      .select(["email", "first_name", "last_name"])
      .where("id", "=", payment.userId)
      .executeTakeFirstOrThrow(),
    scope.app.db.selectFrom("currencies").select("num_decimals").where("iso_code", "=", payment.currencyIso).executeTakeFirst(),
    s.address ? scope.app.db.selectFrom("countries").select("iso2").where("id", "=", s.address.countryId).executeTakeFirst() : null,
  ]);
  const request: ChargeRequest = {
    paymentId: payment.id,
    amount: payment.amount,
    currencyIso: payment.currencyIso,
    numDecimals: currency?.num_decimals ?? 2,
    description,
    lang: scope.lang,
    payer: {
      name: s.address?.name || `${user.first_name} ${user.last_name}`.trim(),
      email: user.email,
      taxId: s.taxId ?? undefined,
      address:
        s.address && country
          ? {
              address1: s.address.address1,
              address2: s.address.address2,
              city: s.address.city,
              state: s.address.state,
              zip: s.address.zip,
              countryIso2: country.iso2,
            }
          : undefined,
      phone: s.address?.phone ?? null,
    },
    returnUrl: base + paths.api.paymentReturn(provider.id, payment.id),
    cancelUrl: base + paths.api.paymentReturn(provider.id, payment.id, { cancel: 1 }),
    notifyUrl: base + paths.api.paymentNotify(provider.id),
    nonce: s.nonce ?? undefined,
    installments: s.installments ?? undefined,
    checkoutId: s.checkoutId ?? undefined,
  };
  try {
    // The lease is renewed while this process waits for the provider: if it dies here, the recovery job asks.
    const result = await withLease(scope.app.db, payment.id, () => provider.charge(request));
    await recordEvent(scope.app.db, payment.id, provider.id, "create", null, true, result.status, {
      providerRef: result.providerRef ?? null,
      ...(result.status === "failed" ? { error: result.error, code: result.code ?? null } : {}),
    });
    return result;
  } catch (error) {
    scope.app.logger.warn({ err: error, paymentId: payment.id, provider: provider.id }, "payment provider unavailable");
    // Nothing is known to have moved; the attempt ends here and the researcher may try again.
    return { status: "failed", error: "provider-unavailable", code: "provider-unavailable" };
  }
}

export async function markFailed(app: AppContext, id: string, result: Extract<ChargeResult, { status: "failed" }>): Promise<PaymentRow> {
  return app.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("payments")
      .set({ status: "failed", error: result.error, provider_ref: result.providerRef ?? null, lease_until: null, updated_at: new Date() })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    // A declined charge spends nothing (ADR 051): the balances held for it are given back.
    await releaseReservations(trx, { paymentId: id }, SYSTEM_ACTOR);
    return toPayment(row as unknown as Row);
  });
}

/** Records a provider's acceptance: settles a sale, or keeps a started payment waiting with its next action. */
export async function afterCharge(app: AppContext, id: string, result: Exclude<ChargeResult, { status: "failed" }>): Promise<PaymentRow> {
  await app.db
    .updateTable("payments")
    .set({
      // A sale stays `processing` under its lease until settle() below: if this process dies in between, the
      // recovery job finds it at once (a `pending` one it would leave for hours) and asks the provider.
      status: result.status === "pending" ? "pending" : "processing",
      lease_until: result.status === "pending" ? null : leaseUntil(),
      provider_ref: result.providerRef,
      next_action: result.status === "pending" ? JSON.stringify(result.next) : null,
      updated_at: new Date(),
    })
    .where("id", "=", id)
    .execute();
  if (result.status === "succeeded") await settle(app, id, SYSTEM_ACTOR);
  return (await readPayment(app.db, id))!;
}

/** A provider accepted but no order could be placed: refund a sale, forget a started payment. */
export async function undo(
  app: AppContext,
  provider: PaymentProvider,
  payment: PaymentRow,
  result: Exclude<ChargeResult, { status: "failed" }>,
) {
  let status: PaymentStatus = "cancelled";
  if (result.status === "succeeded") {
    const refund = await refundAtProvider(app.db, provider, { ...payment, providerRef: result.providerRef }, payment.amount, {});
    status = refund.ok ? "refunded" : "succeeded";
  }
  await app.db.transaction().execute(async (trx) => {
    await releaseReservations(trx, { paymentId: payment.id }, SYSTEM_ACTOR);
    // A sale the provider would not refund: the money stays the researcher's, as an overpayment credit (ADR 051).
    const credited =
      status === "succeeded" ? await creditOverpayment(trx, payment, payment.currencyIso, payment.amount, SYSTEM_ACTOR) : null;
    await trx
      .updateTable("payments")
      .set({
        status,
        provider_ref: result.providerRef,
        error: "order-not-placed",
        lease_until: null,
        refunded_amount: status === "refunded" ? payment.amount : 0,
        details: JSON.stringify({ ...payment.details, ...(credited ? { overpayments: [credited] } : {}) }),
        updated_at: new Date(),
      })
      .where("id", "=", payment.id)
      .execute();
  });
}

// The portal acting (provider notifications, the recovery job): the kernel's (ADR 056).
export { SYSTEM_ACTOR };

/**
 * Asks the provider to give back `amount` of a payment and records the answer as a `refund` event (with `data`,
 * and who asked); a provider that throws is a failed refund. The one way money goes back (staff refunds, undo).
 */
export async function refundAtProvider(
  db: DB,
  provider: PaymentProvider,
  payment: { id: string; providerRef: string; amount: number; currencyIso: string },
  amount: number,
  data: Record<string, unknown>,
  actorUserId: number | null = null,
): Promise<{ ok: true; refundRef: string } | { ok: false; error: string }> {
  const refund = await provider
    .refund({ id: payment.id, providerRef: payment.providerRef, amount: payment.amount, currencyIso: payment.currencyIso }, amount)
    .catch((e: unknown) => ({ ok: false as const, error: String(e) }));
  await recordEvent(
    db,
    payment.id,
    provider.id,
    "refund",
    null,
    true,
    refund.ok ? "refunded" : "failed",
    { ...data, ...(refund.ok ? { refundRef: refund.refundRef } : { error: refund.error }) },
    actorUserId,
  );
  return refund;
}

export async function recordEvent(
  db: DB,
  paymentId: string | null,
  provider: string,
  kind: string,
  eventId: string | null,
  verified: boolean,
  outcome: string,
  data: Record<string, unknown>,
  actorUserId: number | null = null,
): Promise<boolean> {
  const row = await db
    .insertInto("payment_events")
    .values({
      payment_id: paymentId,
      provider,
      kind,
      event_id: eventId,
      verified,
      outcome,
      data: JSON.stringify(data),
      actor_user_id: actorUserId,
    })
    .onConflict((oc) => oc.columns(["provider", "event_id"]).where("event_id", "is not", null).doNothing())
    .returning("id")
    .executeTakeFirst();
  return Boolean(row);
}

// ─── Settling ───────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Moves a payment's money onto its invoices, once: the payment's row is locked, a settled payment is left as
 * it is, the balances held for it are spent first, and each invoice gets its allocation (never more than its
 * balance); money for an invoice paid otherwise meanwhile becomes the researcher's overpayment credit (ADR 051).
 */
async function settle(app: AppContext, paymentId: string, actor: Actor): Promise<{ payment: PaymentRow; changed: boolean }> {
  const r = await app.db.transaction().execute(async (trx) => {
    const payment = (await readPayment(trx, paymentId, true))!;
    if (payment.status === "succeeded" || payment.status === "refunded") return { payment, changed: false };
    // What arrived for nothing left to pay, per currency (an allocation is in its invoice's currency).
    const surplus = new Map<string, number>();
    const addSurplus = (iso: string, amount: number) => amount > 0 && surplus.set(iso, (surplus.get(iso) ?? 0) + amount);
    const today = new Date().toISOString().slice(0, 10);
    const allocations = payment.details.allocations ?? [];
    // Balances held for this payment go on first (ADR 051): the provider's money pays what they leave.
    await applyReservations(trx, app, { paymentId: payment.id, userId: payment.userId, actor });
    for (const a of [...allocations].sort((x, y) => (x.invoiceNumber < y.invoiceNumber ? -1 : 1))) {
      const invoice = await lockInvoice(trx, a.invoiceNumber);
      const balance = invoice ? Number(invoice.balance) : 0;
      const amount = Math.min(balance, a.amount);
      if (invoice) addSurplus(invoice.currency_iso.trim(), a.amount - amount);
      else addSurplus(payment.currencyIso, a.amount - amount);
      if (!invoice || amount <= 0) continue;
      await creditInvoice(
        trx,
        invoice,
        {
          amount,
          paymentMethodId: payment.methodId,
          reference: `${payment.provider}:${payment.providerRef ?? payment.id}`,
          receivedOn: today,
          paymentId: payment.id,
          paidAmount: payment.currencyIso === invoice.currency_iso.trim() ? null : payment.amount,
          paidCurrencyIso: payment.currencyIso === invoice.currency_iso.trim() ? null : payment.currencyIso,
          exchangeRate: payment.exchangeRate,
        },
        actor,
      );
    }
    // A prepayment's money goes onto its retainer invoice and, once paid, becomes a balance (ADR 040).
    // Prepay's handler does it (ADR 056); without one the payment does not settle (the recovery job asks again).
    const prepay = payment.purpose === "prepay" ? payment.details.retainerInvoiceNumber : undefined;
    if (prepay) {
      if (prepaymentSettled.handlerCount === 0) throw new Error("no handler for prepayment-settled");
      await prepaymentSettled.emit(trx, {
        payment: { ...payment, retainerInvoiceNumber: prepay },
        actor,
        leftOver: (amount) => addSurplus(payment.currencyIso, amount),
      });
    }
    if (allocations.length === 0 && !prepay) addSurplus(payment.currencyIso, payment.amount);
    // A capture beyond what is due stays the researcher's, visibly: an overpayment credit (ADR 051).
    const overpayments: Overpayment[] = [];
    for (const [iso, amount] of [...surplus].sort()) {
      const credited = await creditOverpayment(trx, payment, iso, amount, actor);
      if (credited) overpayments.push(credited);
    }
    const settled = await trx
      .updateTable("payments")
      .set({
        status: "succeeded",
        lease_until: null,
        paid_at: new Date(),
        updated_at: new Date(),
        next_action: null,
        error: null,
        details: JSON.stringify({ ...payment.details, ...(overpayments.length ? { overpayments } : {}) }),
      })
      .where("id", "=", payment.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { payment: toPayment(settled as unknown as Row), changed: true };
  });
  if (r.changed) await billingChanged.emit(app, { userId: r.payment.userId });
  return r;
}

/**
 * A provider's verified word about a payment (a signed notification, or its answer when the payer returned).
 * Acted on only when it is about this payment: our reference, the provider's own reference once known, the
 * amount and the currency must all match; anything else is recorded as rejected and changes nothing. Each
 * event is acted on once: a replayed notification finds its (provider, event id) recorded.
 */
export async function applyProviderEvent(
  app: AppContext,
  provider: ProviderId,
  event: ProviderEvent,
  kind: "return" | "notification",
): Promise<Result<{ payment: PaymentRow; changed: boolean }>> {
  const payment = await readPayment(app.db, event.reference);
  const reject = async (reason: string) => {
    await recordEvent(app.db, payment?.id ?? null, provider, "rejected", null, false, reason, {
      claimed: { ...event, data: undefined },
      kind,
    });
    app.logger.warn({ provider, reference: event.reference, reason }, "payment event rejected");
    return fail(reason === "unknown-payment" ? "not-found" : "payment-event-mismatch");
  };
  if (!payment || payment.provider !== provider) return reject("unknown-payment");
  if (payment.providerRef && event.providerRef !== payment.providerRef) return reject("provider-reference-mismatch");
  if (event.amount !== payment.amount || event.currencyIso.trim().toUpperCase() !== payment.currencyIso) return reject("amount-mismatch");
  const fresh = await recordEvent(app.db, payment.id, provider, kind, event.eventId, true, event.outcome, {
    providerRef: event.providerRef,
    error: event.error ?? null,
    ...(event.data ?? {}),
  });
  if (!fresh) return ok({ payment, changed: false });
  if (event.outcome === "succeeded") return ok(await settle(app, payment.id, SYSTEM_ACTOR));
  if ((event.outcome === "failed" || event.outcome === "cancelled") && (payment.status === "pending" || payment.status === "processing")) {
    const outcome = event.outcome;
    const row = await app.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable("payments")
        .set({ status: outcome, error: event.error ?? outcome, next_action: null, lease_until: null, updated_at: new Date() })
        .where("id", "=", payment.id)
        .where("status", "in", ["pending", "processing"])
        .returningAll()
        .executeTakeFirst();
      if (updated) await releaseReservations(trx, { paymentId: payment.id }, SYSTEM_ACTOR);
      return updated;
    });
    return ok({ payment: row ? toPayment(row as unknown as Row) : payment, changed: Boolean(row) });
  }
  return ok({ payment, changed: false });
}

// Refunds (staff) are refund.ts's (ADR 051).

// ─── Money ──────────────────────────────────────────────────────────────────────────────────────────────────

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
  const r = parseDecimal(rate.rate);
  // amount / 10^d / rate × 100 cents = amount × 100 × 10^scale / (10^d × units), rounded up.
  const num = BigInt(amount) * 100n * 10n ** BigInt(r.scale);
  const den = 10n ** BigInt(currency.num_decimals) * r.units;
  return Number((num + den - 1n) / den);
}

/** A refusal thrown out of a transaction so that it rolls back (a balance asked for and no longer there). */
class Refused extends Error {
  constructor(readonly result: Result<never>) {
    super(result.ok ? "" : result.error);
  }
}

export async function refusing<T>(run: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Refused) return error.result;
    throw error;
  }
}

/**
 * ADR 051: a balance asked for must be there whole, or the payment is refused (never made without it). One
 * minor unit per invoice and kind is the rounding a conversion may lose.
 */
export function refuseShortfall(plan: BalancePanel, got: { credits: number; prepayment: number }, invoices: number) {
  const slack = 2 * invoices;
  if (got.credits + slack < plan.applied.credits || got.prepayment + slack < plan.applied.prepayment)
    throw new Refused(fail("balance-unavailable"));
}

/** A payment made wholly from balances (no provider), or a provider method with nothing left due after them. */
interface AppliedOnly {
  appliedOnly: true;
  creditsApplied?: number;
  prepaymentApplied?: number;
}

/** The balances a submission asks to spend; choosing the credits method means using them (spec 2 §4). */
export function balanceChoice(s: PaymentSubmission) {
  const choice = choiceOfSubmission(s);
  return s.paymentMethodId === PAYMENT_METHOD.credits ? { ...choice, useCredits: true } : choice;
}
