// What the prepay pages and GET /api/prepay/load show (spec 2 §2 "Prepay", §3 Prepayment and Credit): the
// researcher's retainer invoices with what is left of each prepaid balance, their credits with a positive
// balance, and the total credit balance in the user's currency (server/balances totalIn, the day's rates).
import { sql } from "kysely";
import { formatDate, formatMoney, type CurrencyFormat } from "#common/format";
import { PAYMENT_METHOD } from "#common/payments/methods";
import { paths } from "#common/paths";
import { prepaymentTakesFapiao } from "#common/fapiao/rules";
import type { CreditView, PrepaymentView } from "#common/prepay/types";
export type { CreditView, PrepaymentView };
import type { Scope } from "../scope";
import { getCatalogue, currencyRate } from "../catalogue";
import { totalIn, userBalances } from "../billing";
import { bankDetailsFor } from "../config";
import { prepayAccount, prepayMinimum, type PrepayAccount } from "./retainer";

export interface PrepayData {
  account: PrepayAccount;
  /** The prepay_enabled flag. */
  enabled: boolean;
  prepayments: PrepaymentView[];
  credits: CreditView[];
  /** Available prepayments and credits, in the user's currency. */
  totalBalance: number;
  /** The smallest prepayment, minor units of the user's currency. */
  minimum: number;
}

/** The signed-in researcher's prepayments and credits, or null for a visitor. Hidden invoices: empty lists. */
export async function loadPrepayData(scope: Scope): Promise<PrepayData | null> {
  const account = await prepayAccount(scope);
  if (!account) return null;
  const snapshot = await scope.app.config.snapshot();
  const minimum = await prepayMinimum(scope, account.currency);
  const base = { account, enabled: snapshot.flags.prepay_enabled, minimum };
  if (account.hideInvoices) return { ...base, prepayments: [], credits: [], totalBalance: 0 };
  const db = scope.app.db;
  const userId = account.userId;
  const [retainers, balances, currencies, catalogue] = await Promise.all([
    db
      .selectFrom("invoices")
      .select(["number", "status", "currency_iso", "amount", "balance", "created_at", "expires_at", "method_id"])
      .where("user_id", "=", userId)
      .where("kind", "=", "prepayment")
      .where("status", "in", ["unpaid", "paid"])
      .orderBy("created_at", "desc")
      .orderBy("number", "desc")
      .execute(),
    userBalances(db, userId),
    db.selectFrom("currencies").select(["iso_code", "sign", "num_decimals"]).execute(),
    getCatalogue(scope.app),
  ]);
  const currencyOf = (iso: string): CurrencyFormat => {
    const c = currencies.find((x) => x.iso_code.trim() === iso.trim());
    return { isoCode: iso.trim(), sign: c?.sign ?? iso, numDecimals: c?.num_decimals ?? 2 };
  };
  const numbers = retainers.map((r) => r.number);
  const [boletos, fapiaos, received] = numbers.length
    ? await Promise.all([
        db
          .selectFrom("payments")
          .select(["id", sql<string>`details->>'retainerInvoiceNumber'`.as("n")])
          .where("user_id", "=", userId)
          .where("purpose", "=", "prepay")
          .where("method_id", "=", PAYMENT_METHOD.boleto)
          .where("status", "=", "pending")
          .orderBy("created_at", "asc")
          .execute(),
        db
          .selectFrom("fapiaos")
          .select(["id", "status", "retainer_invoice_number"])
          .where("retainer_invoice_number", "in", numbers)
          .where("status", "<>", "cancelled")
          .execute(),
        db
          .selectFrom("invoice_payments")
          .select(["id", "amount", "invoice_number as retainer_invoice_number"])
          .where("invoice_number", "in", numbers)
          .where("kind", "=", "payment")
          .orderBy("id", "asc")
          .execute(),
      ])
    : [[], [], []];
  const available = new Map(balances.prepayments.map((p) => [p.number, p.available]));
  const fapiaoOn = snapshot.flags.fapiao_enabled && account.countryIso2 === "CN";
  const date = (d: Date) => formatDate(d, scope.lang);
  const prepayments: PrepaymentView[] = retainers.map((r) => {
    const boleto = boletos.filter((b) => b.n === r.number).pop();
    const fapiao = fapiaos.find((f) => f.retainer_invoice_number === r.number);
    const last = received.filter((p) => p.retainer_invoice_number === r.number).pop();
    const paid = r.status === "paid";
    return {
      retainerInvoiceNumber: r.number,
      status: paid ? "paid" : "unpaid",
      currency: currencyOf(r.currency_iso),
      totalAmount: Number(r.amount),
      availablePrepaymentAmount: paid ? (available.get(r.number) ?? 0) : 0,
      balance: Number(r.balance),
      formattedDate: date(new Date(r.created_at)),
      transactionDate: new Date(r.created_at).toISOString(),
      expirationDate: r.expires_at ? new Date(r.expires_at).toISOString() : null,
      boletoUrl: !paid && boleto ? paths.api.boletoPdf(boleto.id) : null,
      pdfUrl: paths.api.retainerInvoicePdf(r.number),
      fapiaoAvailable: fapiaoOn && paid && prepaymentTakesFapiao(r.number),
      fapiao: fapiao ? { id: fapiao.id, status: fapiao.status } : null,
      payment: last ? { id: String(last.id), amount: Number(last.amount) } : null,
      methodId: r.method_id,
    };
  });
  const credits: CreditView[] = balances.credits
    .filter((c) => c.available > 0)
    .map((c) => ({
      referenceNumber: c.number,
      currency: currencyOf(c.currencyIso),
      totalAmount: c.total,
      balance: c.available,
      formattedDate: date(c.createdAt),
      transactionDate: c.createdAt.toISOString(),
      formattedExpirationDate: c.expiresAt ? date(c.expiresAt) : "",
    }));
  const now = new Date();
  const rate = currencyRate(catalogue, account.currency.isoCode, now);
  const totalBalance = rate ? totalIn([...balances.prepayments, ...balances.credits], rate, catalogue, now) : 0;
  return { ...base, prepayments, credits, totalBalance };
}

/** The amount formatted for the page's messages ('The amount needs to be more than {{price}}'). */
export const minimumText = (d: PrepayData) => formatMoney(d.minimum, d.account.currency);

/** Where a bank-transfer prepayment in `currencyIso` is paid to (config bankDetails, as invoices show it). */
export async function prepayBankDetails(scope: Scope, currencyIso: string) {
  const { config } = await scope.app.config.snapshot();
  return bankDetailsFor(config, currencyIso);
}
