// Charging a created attempt through its provider and recording the answer (issue 12, ADR 034/051): the request
// built from the server's own data (never the browser's amounts), the provider called under the attempt's lease,
// a decline marked failed with its held balances released, an acceptance moved on (a sale settled at once, a
// started payment kept waiting with its next action), and `undo` for a charge whose order could not be placed.
import { sql } from "kysely";
import { paths } from "#common/paths";
import type { PaymentSubmission } from "#common/payments/types";
import type { AppContext } from "../context";
import type { Scope } from "../scope";
import { mailLinkBase } from "../mail/links";
import { leaseUntil, withLease } from "./attempts";
import { creditOverpayment } from "../billing";
import { releaseReservations } from "./reserve";
import type { ChargeRequest, ChargeResult, PaymentProvider } from "./providers/types";
import { SYSTEM_ACTOR } from "../kernel/actor";
import { type PaymentRow, type PaymentStatus, type Row, readPayment, toPayment } from "./read";
import { recordEvent } from "./record-event";
import { instrumentOf } from "./instruments";
import { refundAtProvider } from "./refund-at-provider";
import { settle } from "./settle";

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
      // The instrument's identity as the provider gives it (a card's uniqueNumberIdentifier): issue 25's referrals
      // refuse a referral between two accounts that paid with one instrument.
      ...instrumentOf(provider.id, result.data),
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
      .set({
        status: "failed",
        error: result.error,
        provider_ref: result.providerRef ?? null,
        // The provider's code beside its text, for staff and for the reason the researcher reads (#common/payments/declines).
        ...(result.code ? { details: sql`details || ${JSON.stringify({ declineCode: result.code })}::jsonb` } : {}),
        lease_until: null,
        updated_at: new Date(),
      })
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
