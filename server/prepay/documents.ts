// The retainer invoice as a PDF (GET /api/retainer-invoice/{n}/pdf, issue 13 §1): the invoice documents' layout
// (server/pdf/invoice-document.ts) and their words (`invoices:pdf`), with the prepay namespace's own (title,
// the prepayment line, the bank details an unpaid bank-transfer prepayment is paid to). The owner's only
// (another user's, or one hidden from its owner, is not found); rendered once per content like invoice PDFs.
// Its issuer is the legal entity stored on it when it was issued (ADR 052), whatever the config says today.
import { fail, type Result } from "#common/result";
import { PAYMENT_METHOD } from "#common/payments/methods";
import type { Scope } from "../scope";
import { bankDetailsFor } from "../config";
import { fixedT } from "../i18n";
import { oneLineInvoicePdf } from "../billing";
import { validNumber } from "./retainer";

/** The owner's retainer invoice as a PDF. Errors: `unauthorized`, `not-found`. */
export async function retainerInvoicePdf(scope: Scope, number: string): Promise<Result<Buffer>> {
  if (scope.userId === null) return fail("unauthorized");
  if (!validNumber(number)) return fail("not-found");
  const { config } = await scope.app.config.snapshot();
  const pre = (lang: Parameters<typeof fixedT>[0]) => fixedT(lang, "prepay");
  return oneLineInvoicePdf(scope.app, scope.userId, number, {
    kind: "prepayment",
    refuseHidden: true,
    tag: "retainer",
    title: (lang) => String(pre(lang)("pdf.title")),
    numberLabel: (lang) => String(pre(lang)("pdf.number")),
    line: (lang) => String(pre(lang)("pdf.line")),
    // An unpaid bank-transfer prepayment prints where to send the money.
    sections: ({ lang, balance, methodId, currencyIso, number }) => {
      const bank = balance > 0 && methodId === PAYMENT_METHOD.bankTransfer ? bankDetailsFor(config, currencyIso) : null;
      if (!bank) return [];
      const t = pre(lang);
      return [
        {
          heading: String(t("bank.heading")),
          paragraphs: [
            String(t("bank.beneficiary", { value: bank.beneficiary })),
            String(t("bank.bankName", { value: bank.bankName })),
            String(t("bank.account", { value: bank.account })),
            String(t("bank.swift", { value: bank.swift })),
            String(t("bank.quote", { number })),
          ],
        },
      ];
    },
    note: (lang) => String(pre(lang)("pdf.note")),
  });
}
