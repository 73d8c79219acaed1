// What the billing screenshots (tests/shots/billing.shots.ts) show, made when their portal starts: a researcher of
// the China site (cn) and one of the Brazil site (br), and a US researcher whose card payment paid an invoice and whose late card capture on another invoice became an
// overpayment credit (ADR 051), for the staff payment pages. The facts the spec needs are written to a JSON file.
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { AppContext } from "../../server/context";
import { createInvoice, createResearcher, scopeFor, TEST_PASSWORD } from "../helpers/factories";
import { paymentSubmission } from "../helpers/payments";
import { applyProviderEvent, payInvoices } from "../../server/payments";
import { recordBankPayment } from "../../server/billing";
import { PAYMENT_METHOD } from "../../app/common/payments/methods";

export interface ShotFacts {
  password: string;
  researchers: Record<"cn" | "br", { email: string }>;
  /** Staff payment pages: a card payment with nothing over, and an overpaid one. */
  payments: { card: string; overpaid: string };
}

export async function seedShots(ctx: AppContext, factsFile: string): Promise<ShotFacts> {
  // The researchers of the China and Brazil sites; their orders are placed by the spec through the API, so that
  // they are issued by their site's company as a real order is (the factories place orders on the US site).
  const cn = await createResearcher(ctx, {
    countryCode: "CN",
    country: "CN",
    phoneNumber: "13800138000",
    currency: "USD",
    language: "cn",
    firstName: "伟",
    lastName: "李",
  });
  const br = await createResearcher(ctx, {
    countryCode: "BR",
    country: "BR",
    phoneNumber: "11987654321",
    currency: "BRL",
    language: "br",
    firstName: "Ana",
    lastName: "Souza",
  });

  // The staff pages' payments: a US researcher's card payment, and a card capture that arrived after the invoice
  // was paid by bank transfer (the late capture of ADR 051), credited as an overpayment.
  const us = await createResearcher(ctx, { firstName: "Ada", lastName: "Lovelace" });
  const first = await createInvoice(ctx, us);
  const paid = await payInvoices(
    scopeFor(ctx, us),
    [first.invoice.number],
    paymentSubmission(PAYMENT_METHOD.creditCard, { nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}` }),
    randomUUID(),
  );
  if (!paid.ok || !paid.value.paymentId) throw new Error(`shots: the card payment failed: ${JSON.stringify(paid)}`);
  const second = await createInvoice(ctx, us);
  const amount = Number(second.invoice.amount);
  const late = await ctx.db
    .insertInto("payments")
    .values({
      user_id: us.id,
      purpose: "invoices",
      invoice_numbers: JSON.stringify([second.invoice.number]),
      method_id: PAYMENT_METHOD.creditCard,
      provider: "card",
      sandbox: true,
      status: "pending",
      amount,
      currency_iso: "USD",
      provider_ref: `shot-${randomUUID().slice(0, 8)}`,
      details: JSON.stringify({ lang: "en", allocations: [{ invoiceNumber: second.invoice.number, amount }] }),
    })
    .returning(["id", "provider_ref"])
    .executeTakeFirstOrThrow();
  const bank = await recordBankPayment(ctx, { userId: null }, second.invoice.number, {
    amount: (amount / 100).toFixed(2),
    reference: "WIRE-SHOTS-1",
    receivedOn: new Date().toISOString().slice(0, 10),
  });
  if (!bank.ok) throw new Error(`shots: the bank payment failed: ${bank.error}`);
  const settled = await applyProviderEvent(
    ctx,
    "card",
    {
      eventId: `shot-${randomUUID()}`,
      reference: late.id,
      providerRef: late.provider_ref!,
      outcome: "succeeded",
      amount,
      currencyIso: "USD",
    },
    "notification",
  );
  if (!settled.ok || !settled.value.payment.details.overpayments?.length) throw new Error("shots: the late capture was not credited");

  const facts: ShotFacts = {
    password: TEST_PASSWORD,
    researchers: { cn: { email: cn.email }, br: { email: br.email } },
    payments: { card: paid.value.paymentId, overpaid: late.id },
  };
  fs.mkdirSync(path.dirname(factsFile), { recursive: true });
  fs.writeFileSync(factsFile, JSON.stringify(facts, null, 2));
  return facts;
}
