// Boleto bancário (PAYMENTS.md "Brazil"): a charge issues a boleto (the 47-digit typed line, the 44-digit barcode,
// a due date 3 days ahead) the payer pays at a bank, an ATM or in a banking app; the bank confirms the payment by
// a signed notification (JSON body, hex HMAC-SHA256 of it in X-Boleto-Signature) naming our reference and the
// amount. Boletos are issued in BRL only.
//
// The sandbox's "pay the boleto" page (paths.paymentSandbox(lang, "boleto", id)) sends the bank's confirmation.
import { randomUUID } from "node:crypto";
import { barcodeToLine, boletoBarcode, dueOnAfter } from "#common/payments/boleto";
import type { AppContext } from "../../context";
import type { ChargeRequest, ChargeResult, NotificationInput, PaymentProvider, ProviderEvent, RefundResult } from "./types";
import { hmacSha256Hex, verifyHmacSha256Hex } from "./signatures";
import { digits, sandboxSecret, saveSession, sessionOf, type SandboxSession } from "./keys";

export const BOLETO_DUE_DAYS = 3;
export const BOLETO_SIGNATURE_HEADER = "x-boleto-signature";

export interface BoletoKeys {
  bank: string;
  notifySecret: string;
}

export const sandboxBoletoKeys = (app: Pick<AppContext, "secrets">): BoletoKeys => ({
  bank: "001",
  notifySecret: sandboxSecret(app, "boleto-bank"),
});

/** The bank's confirmation of a paid boleto, signed. */
export function sandboxBoletoNotification(
  app: Pick<AppContext, "secrets">,
  session: SandboxSession,
  paidAt = new Date(),
): NotificationInput {
  const body = JSON.stringify({
    event_id: randomUUID(),
    type: "boleto.paid",
    our_number: session.providerRef,
    reference: session.paymentId,
    amount: session.amount,
    currency: session.currencyIso,
    paid_at: paidAt.toISOString(),
  });
  const headers = new Headers({ "content-type": "application/json" });
  headers.set(BOLETO_SIGNATURE_HEADER, hmacSha256Hex(sandboxBoletoKeys(app).notifySecret, body));
  return { headers, body, query: new URLSearchParams() };
}

export class BoletoProvider implements PaymentProvider {
  readonly id = "boleto" as const;
  readonly sandbox: boolean;
  constructor(
    private readonly app: Pick<AppContext, "cache">,
    private readonly keys: BoletoKeys,
    sandbox = true,
  ) {
    this.sandbox = sandbox;
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    if (request.currencyIso !== "BRL") return { status: "failed", code: "currency", error: "Boletos are issued in BRL only" };
    if (!request.payer.taxId) return { status: "failed", code: "tax-id", error: "A boleto needs the payer's CPF or CNPJ" };
    // The free field: our number (nosso número, 17 digits) and the wallet (8), as the bank's layout puts them.
    const ourNumber = digits(17);
    const dueOn = dueOnAfter(new Date(), BOLETO_DUE_DAYS);
    const barcode = boletoBarcode({ bank: this.keys.bank, dueOn, amount: request.amount, freeField: `${ourNumber}00000018` });
    const line = barcodeToLine(barcode);
    if (this.sandbox) await saveSession(this.app, sessionOf("boleto", request, request.lang, ourNumber, { dueOn, boletoLine: line }));
    return {
      status: "pending",
      providerRef: ourNumber,
      next: { kind: "boleto", line, barcode, dueOn },
      data: { ourNumber },
    };
  }

  async handleReturn(): Promise<ProviderEvent | null> {
    return null;
  }

  async verifyNotification(input: NotificationInput): Promise<ProviderEvent | null> {
    const signature = input.headers.get(BOLETO_SIGNATURE_HEADER) ?? "";
    if (!signature || !verifyHmacSha256Hex(this.keys.notifySecret, input.body, signature)) return null;
    let n: { event_id?: string; type?: string; our_number?: string; reference?: string; amount?: number; currency?: string };
    try {
      n = JSON.parse(input.body);
    } catch {
      return null;
    }
    if (n.type !== "boleto.paid" || !n.our_number || !n.reference || typeof n.amount !== "number" || !n.currency) return null;
    return {
      // A boleto is paid once: the bank's repeated confirmations are one event.
      eventId: `paid:${n.our_number}`,
      reference: n.reference,
      providerRef: n.our_number,
      outcome: "succeeded",
      amount: n.amount,
      currencyIso: n.currency,
      data: { bankEventId: n.event_id },
    };
  }

  notificationReply(accepted: boolean): Response {
    return new Response(null, { status: accepted ? 204 : 400 });
  }

  /** A boleto is not refunded through the bank: money goes back by transfer (a staff task). */
  async refund(): Promise<RefundResult> {
    return { ok: false, error: "boleto-refund-by-transfer" };
  }
}
