// Buying a digital purchase through the shared payment form (spec 3 §4, §6, §9; issue 24 item 2; ADR 073). Like a
// prepayment (server/prepay/payment.ts): the amount is the server's (the offer's price in the user's currency), an
// invoice of kind 'digital' is issued with a pending purchase in one transaction, the provider is charged, and
// billing's invoiceSettled (./billing-handlers.ts) activates the purchase in the settling transaction, once. A
// declined card voids the invoice and the purchase. Purpose 'digital' offers no bank transfer, boleto, credits or
// voucher (server/payments/rules.ts). Money moves exactly once: the Idempotency-Key (one key, one payment), and a
// second key for the same offer while an attempt is open answers payment-in-progress / payment-pending (the user's
// row is the lock the two wait on).
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { TRANSLATION_LANGUAGES, PACKAGE_MONTHS, SUBSCRIPTION_MONTHS, type TranslationLanguage } from "#common/digital/constants";
import { fail, invalid, ok, type Result } from "#common/result";
import { paths } from "#common/paths";
import type { CurrencyFormat } from "#common/format";
import type { PaymentFields, PaymentFormData } from "#common/payments/schemas";
import type { PaymentAnswer, PaymentSubmission } from "#common/payments/types";
import { parsePaymentForm } from "#common/payments/form-schema";
import { methodFacts } from "#common/payments/methods";
import type { Scope } from "../scope";
import { issuePrepaymentInvoice, issuingEntity } from "../billing";
import {
  afterCharge,
  billingOf,
  charge,
  declined,
  detailsOf,
  getProvider,
  idempotent,
  insertPayment,
  keepResult,
  loadPaymentForm,
  markFailed,
  offeredMethodIds,
  offeredMethods,
  paymentAnswer,
} from "../payments";
import { digitalAccess, languagesFor, newReceiptCode } from "./access";
import { loadOffers, userPriceCurrency } from "./load";
import { isValid, purchaseView } from "./store";
import type { AvailablePurchase, DigitalPurchaseView } from "./types";

export interface DigitalPaymentTarget {
  availablePurchaseIdentity: string;
  language?: TranslationLanguage;
}
export interface DigitalPaymentForm {
  offer: AvailablePurchase;
  amount: number;
  currency: CurrencyFormat;
  data: PaymentFormData;
}

interface Priced {
  offer: AvailablePurchase;
  currency: CurrencyFormat;
  /** The languages the purchase will allow (a package bought for one language, or every language offered now). */
  languages: TranslationLanguage[];
}

/** The offer the target names, priced now for the user. Errors: sign-in-required, forbidden, not-found, language-required. */
async function priced(scope: Scope, target: DigitalPaymentTarget): Promise<Result<Priced>> {
  if (scope.userId === null) return fail("sign-in-required");
  const access = await digitalAccess(scope);
  const offer = (await loadOffers(scope)).find((o) => o.identity === target.availablePurchaseIdentity);
  if (!offer) return fail("not-found");
  if (offer.type === "editing" ? !access.editing : !access.translations) return fail("forbidden");
  const offered = languagesFor(access);
  let languages: TranslationLanguage[] = [];
  if (offer.type === "translation") {
    if (target.language !== undefined) {
      if (!(TRANSLATION_LANGUAGES as readonly string[]).includes(target.language) || !offered.includes(target.language))
        return invalid({ language: "digital:errors.language-required" });
      languages = [target.language];
    } else languages = offered;
  }
  const c = await userPriceCurrency(scope);
  return ok({ offer, currency: { isoCode: c.isoCode, sign: c.sign, numDecimals: c.numDecimals }, languages });
}

/** The payment form for an offer: its price (server-side) in the user's currency and the shared form's data. */
export async function digitalPaymentForm(scope: Scope, target: DigitalPaymentTarget): Promise<Result<DigitalPaymentForm>> {
  const p = await priced(scope, target);
  if (!p.ok) return p;
  const { offer, currency } = p.value;
  const methods = await offeredMethods(scope, { purpose: "digital", total: offer.price });
  const data = await loadPaymentForm(scope, { purpose: "digital", total: offer.price, currencyIso: currency.isoCode, methods });
  return ok({ offer, amount: offer.price, currency, data });
}

/**
 * Checks the posted payment form and pays. The terms box unticked → field error
 * payment-accept-terms-and-conditions-failure (the payment form's own key). A retry with the same key answers the same.
 */
export async function submitDigitalPayment(
  scope: Scope,
  target: DigitalPaymentTarget,
  fields: PaymentFields,
  idempotencyKey: string,
): Promise<Result<PaymentAnswer>> {
  const form = await digitalPaymentForm(scope, target);
  if (!form.ok) return form;
  const submission = parsePaymentForm(fields, form.value.data);
  if (!submission.ok) return submission;
  return payDigitalPurchase(scope, target, submission.value, idempotencyKey);
}

/**
 * Pays an offer with a parsed submission (the page and the API come through submitDigitalPayment). Errors:
 * sign-in-required, forbidden, not-found, the terms box, payment-method-required, payment-in-progress,
 * payment-pending, payment-declined.
 */
export async function payDigitalPurchase(
  scope: Scope,
  target: DigitalPaymentTarget,
  s: PaymentSubmission,
  idempotencyKey: string,
): Promise<Result<PaymentAnswer>> {
  if (!s.acceptTerms) return invalid({ acceptTerms: "payment:errors.payment-accept-terms-and-conditions-failure" });
  const p = await priced(scope, target);
  if (!p.ok) return p;
  const { offer, languages } = p.value;
  const allowed = await offeredMethodIds(scope, { purpose: "digital", total: offer.price });
  if (!allowed.includes(s.paymentMethodId)) return fail("payment-method-required");
  const userId = scope.userId!;
  return idempotent(
    scope.app,
    userId,
    idempotencyKey,
    `digital:${offer.identity}:${offer.currencyIso}:${offer.price}`,
    { submission: s, amount: offer.price, languages },
    () => payOnce(scope, userId, offer, languages, s),
    keepResult,
  );
}

async function payOnce(
  scope: Scope,
  userId: number,
  offer: AvailablePurchase,
  languages: TranslationLanguage[],
  submission: PaymentSubmission,
): Promise<Result<PaymentAnswer>> {
  const facts = methodFacts(submission.paymentMethodId);
  if (!facts.provider) return fail("payment-method-required");
  const provider = getProvider(scope.app, facts.provider);
  const legalEntity = await issuingEntity(scope.app, scope.localization);
  const created = await scope.app.db.transaction().execute(async (trx) => {
    // The user's row is the lock: two tabs buying the same offer queue here and the second sees the first's attempt.
    await trx.selectFrom("users").select("id").where("id", "=", userId).forUpdate().executeTakeFirst();
    const busy = await trx
      .selectFrom("payments")
      .select(["id", "status"])
      .where("user_id", "=", userId)
      .where("purpose", "=", "digital")
      .where("status", "in", ["processing", "pending"])
      .where(sql<string>`details->>'digitalOffer'`, "=", offer.identity)
      .executeTakeFirst();
    if (busy?.status === "pending") return fail("payment-pending", { paymentId: busy.id, url: paths.paymentPending(scope.lang, busy.id) });
    if (busy) return fail("payment-in-progress");
    const number = await issuePrepaymentInvoice(trx, {
      kind: "digital",
      userId,
      localization: scope.localization,
      lang: scope.lang,
      currencyIso: offer.currencyIso,
      amount: offer.price,
      methodId: submission.paymentMethodId,
      billing: billingOf(submission),
      purchaseOrder: submission.purchaseOrder,
      fapespProcessNumber: submission.fapespProcessNumber,
      legalEntity,
    });
    const receiptCode = newReceiptCode();
    await trx
      .insertInto("digital_purchases")
      .values({
        id: randomUUID(),
        user_id: userId,
        type: offer.type,
        offer_identity: offer.identity,
        invoice_number: number,
        price: offer.price,
        currency_iso: offer.currencyIso,
        months: offer.type === "editing" ? SUBSCRIPTION_MONTHS : PACKAGE_MONTHS,
        uses_total: offer.numberOfUsesAvailable,
        uses_remaining: offer.numberOfUsesAvailable,
        allowed_languages: JSON.stringify(languages),
        receipt_code: receiptCode,
      })
      .execute();
    const payment = await insertPayment(trx, {
      userId,
      impersonatorId: scope.impersonatorId,
      purpose: "digital",
      orderFormId: null,
      invoiceNumbers: [],
      methodId: submission.paymentMethodId,
      provider,
      amount: offer.price,
      currencyIso: offer.currencyIso,
      exchangeRate: null,
      // Allocated to its invoice: settle() credits it through billing (ADR 058), whose event activates the purchase.
      details: detailsOf(scope, submission, {
        allocations: [{ invoiceNumber: number, amount: offer.price }],
        digitalReceiptCode: receiptCode,
        digitalType: offer.type,
        digitalOffer: offer.identity,
      }),
    });
    return ok({ number, payment });
  });
  if (!created.ok) return created;
  const { number, payment } = created.value;
  const result = await charge(scope, provider, payment, submission, `Digital purchase ${number}`);
  if (result.status === "failed") {
    const failed = await markFailed(scope.app, payment.id, result);
    await voidDigitalInvoice(scope, number);
    return declined(failed);
  }
  return ok(paymentAnswer(await afterCharge(scope.app, payment.id, result)));
}

/** A declined purchase leaves nothing owed: its invoice and its purchase are void (unless money arrived meanwhile). */
async function voidDigitalInvoice(scope: Scope, number: string): Promise<void> {
  await scope.app.db.transaction().execute(async (trx) => {
    const voided = await trx
      .updateTable("invoices")
      .set({ status: "void" })
      .where("number", "=", number)
      .where("kind", "=", "digital")
      .where("status", "=", "unpaid")
      .returning("number")
      .executeTakeFirst();
    if (voided)
      await trx
        .updateTable("digital_purchases")
        .set({ status: "void" })
        .where("invoice_number", "=", number)
        .where("status", "=", "pending")
        .execute();
  });
}

/** The success page's poll (spec 3 §4, every 10 s): the user's purchase by its receipt code, and whether it is active. */
export async function purchaseByReceipt(scope: Scope, receiptCode: string): Promise<Result<DigitalPurchaseView & { active: boolean }>> {
  if (scope.userId === null) return fail("sign-in-required");
  if (!/^[A-Za-z0-9_-]{8,64}$/.test(receiptCode)) return fail("not-found");
  const row = await scope.app.db
    .selectFrom("digital_purchases")
    .selectAll()
    .where("receipt_code", "=", receiptCode)
    .where("user_id", "=", scope.userId)
    .executeTakeFirst();
  if (!row) return fail("not-found");
  return ok({ ...purchaseView(row), active: row.status === "active" && isValid(row) });
}
