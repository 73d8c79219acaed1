// The pending payment's page (/{lang}/researcher/payment/{paymentId}, issue 12 §2): what the researcher must do
// next — scan a QR code (Alipay, WeChat Pay), pay a boleto, go on to the provider — and, while the payment
// waits, nothing else: the page refreshes itself and moves on to the landing once the payment is settled.
import QRCode from "qrcode";
import { fail, ok, type Result } from "#common/result";
import { formatDate, formatDateTime, formatMoney } from "#common/format";
import { formatBoletoLine } from "#common/payments/boleto";
import type { DeclineReason } from "#common/payments/declines";
import { paths } from "#common/paths";
import type { Scope } from "../scope";
import { localizationTimeZone } from "../config";
import { isProviderId } from "./providers";
import { currencyFormat } from "./sandbox";
import { declineReasonOf, ownPayment, paymentLanding } from "./read";

export type PendingNext =
  | { kind: "qr"; provider: "alipay" | "wechat"; qrDataUrl: string; expiresAt: string; sandboxUrl: string | null }
  | { kind: "boleto"; line: string; dueOn: string; pdfUrl: string; sandboxUrl: string | null }
  | { kind: "redirect"; url: string }
  | { kind: "form"; action: string; method: "post" | "get"; fields: Record<string, string> };

export interface PendingView {
  paymentId: string;
  provider: string;
  status: "pending" | "processing" | "succeeded" | "failed" | "cancelled" | "refunded";
  sandbox: boolean;
  amount: string;
  /** A failed or cancelled payment's reason (`payment:declines.<reason>`). */
  error: DeclineReason | null;
  next: PendingNext | null;
  /** Where the researcher goes on: the landing of the payment. */
  landing: string;
}

/** The user's own payment as its pending page shows it. Error: not-found (another user's, or none). */
export async function pendingPaymentView(scope: Scope, paymentId: string): Promise<Result<PendingView>> {
  const payment = await ownPayment(scope, paymentId);
  if (!payment) return fail("not-found");
  const lang = scope.lang;
  const currency = await currencyFormat(scope.app, payment.currencyIso, await decimalsOf(scope, payment.currencyIso));
  const sandboxUrl = (provider: string) =>
    payment.sandbox && isProviderId(provider) ? paths.paymentSandbox(lang, provider, payment.id) : null;
  const action = payment.status === "pending" ? payment.nextAction : null;
  let next: PendingNext | null = null;
  if (action?.kind === "qr" && (payment.provider === "alipay" || payment.provider === "wechat")) {
    next = {
      kind: "qr",
      provider: payment.provider,
      qrDataUrl: await QRCode.toDataURL(action.content, { errorCorrectionLevel: "M", margin: 2, width: 240 }),
      // In the page's time zone (Asia/Shanghai on the Chinese site): in UTC it read as expired on arrival (issue 22).
      expiresAt: formatDateTime(
        action.expiresAt,
        lang,
        localizationTimeZone((await scope.app.config.snapshot()).localizations, scope.localization),
      ),
      sandboxUrl: sandboxUrl(payment.provider),
    };
  } else if (action?.kind === "boleto") {
    next = {
      kind: "boleto",
      line: formatBoletoLine(action.line),
      dueOn: formatDate(`${action.dueOn}T12:00:00Z`, lang),
      pdfUrl: paths.api.boletoPdf(payment.id),
      sandboxUrl: sandboxUrl("boleto"),
    };
  } else if (action?.kind === "redirect") next = { kind: "redirect", url: action.url };
  else if (action?.kind === "form") next = { kind: "form", action: action.action, method: action.method, fields: action.fields };
  return ok({
    paymentId: payment.id,
    provider: payment.provider,
    status: payment.status,
    sandbox: payment.sandbox,
    amount: formatMoney(payment.amount, currency),
    // Why it failed, as a reason the page words in its language; the provider's text is for staff.
    error: payment.status === "failed" || payment.status === "cancelled" ? declineReasonOf(payment) : null,
    next,
    landing: paymentLanding(lang, payment),
  });
}

async function decimalsOf(scope: Scope, iso: string): Promise<number> {
  const row = await scope.app.db.selectFrom("currencies").select("num_decimals").where("iso_code", "=", iso).executeTakeFirst();
  return row?.num_decimals ?? 2;
}
