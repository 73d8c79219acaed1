// Buying a digital purchase through the shared payment form (spec 3 §4, §6, issue 24).
import { fail, type Result } from "#common/result";
import type { CurrencyFormat } from "#common/format";
import type { TranslationLanguage } from "#common/digital/constants";
import type { PaymentFields, PaymentFormData } from "#common/payments/schemas";
import type { PaymentAnswer } from "#common/payments/types";
import type { Scope } from "../scope";
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

export async function digitalPaymentForm(scope: Scope, target: DigitalPaymentTarget): Promise<Result<DigitalPaymentForm>> {
  void scope, target;
  return fail("not-implemented");
}
export async function submitDigitalPayment(
  scope: Scope,
  target: DigitalPaymentTarget,
  fields: PaymentFields,
  idempotencyKey: string,
): Promise<Result<PaymentAnswer>> {
  void scope, target, fields, idempotencyKey;
  return fail("not-implemented");
}
export async function purchaseByReceipt(scope: Scope, receiptCode: string): Promise<Result<DigitalPurchaseView & { active: boolean }>> {
  void scope, receiptCode;
  return fail("not-implemented");
}
