// Provider notifications and returns (issue 12 §2, ADR 036): the one place a provider's word reaches the service.
// A notification is verified by its provider's adapter (signature, decryption) before anything else; only a
// verified event goes to applyProviderEvent, which checks reference, amount and currency and records it once.
// The answer is what the provider expects (Alipay `success`, WeChat Pay 204…); a forged or mismatching one is
// refused (400) and changes nothing.
import type { SiteLang } from "#common/i18n";
import { paths } from "#common/paths";
import type { AppContext } from "../context";
import { getProvider, isProviderId } from "./providers";
import type { NotificationInput } from "./providers/types";
import { findPayment, paymentLang, paymentLanding, type PaymentRow } from "./read";
import { applyProviderEvent } from "./confirm";

/** Largest notification body read (providers send a few KiB). */
export const NOTIFICATION_MAX_BYTES = 64 * 1024;

/** The provider's answer to its notification; null for a provider we do not have (404). */
export async function receiveNotification(app: AppContext, providerId: string, input: NotificationInput): Promise<Response | null> {
  if (!isProviderId(providerId)) return null;
  const provider = getProvider(app, providerId);
  const event = await provider.verifyNotification(input).catch((err: unknown) => {
    app.logger.warn({ err, provider: providerId }, "payment notification could not be verified");
    return null;
  });
  if (!event) {
    app.logger.warn({ provider: providerId }, "payment notification refused: signature does not hold");
    return provider.notificationReply(false);
  }
  const applied = await applyProviderEvent(app, providerId, event, "notification");
  return provider.notificationReply(applied.ok);
}

/**
 * The payer came back from the provider (GET query or posted form): the provider's answer about this payment is
 * applied, and the browser goes on — to the pending page while the payment waits, else to its landing.
 * Null: no such payment with this provider.
 */
export async function receiveReturn(
  app: AppContext,
  providerId: string,
  paymentId: string,
  params: URLSearchParams,
): Promise<string | null> {
  if (!isProviderId(providerId)) return null;
  const payment = await findPayment(app, paymentId);
  if (!payment || payment.provider !== providerId) return null;
  const provider = getProvider(app, providerId);
  const event = await provider.handleReturn(payment, params).catch((err: unknown) => {
    app.logger.warn({ err, provider: providerId, paymentId }, "payment return could not be read");
    return null;
  });
  if (event) await applyProviderEvent(app, providerId, event, "return");
  const after = (await findPayment(app, paymentId)) ?? payment;
  return whereNext(paymentLang(after), after);
}

/** The pending page while a payment waits for the payer or the provider (or was refused), else its landing. */
export function whereNext(lang: SiteLang, payment: PaymentRow): string {
  return payment.status === "succeeded" ? paymentLanding(lang, payment) : paths.paymentPending(lang, payment.id);
}
