// A digital purchase's invoice as a PDF (GET /api/digital-invoice/{number}/pdf, issue 24, ADR 073): the invoice
// documents' layout (server/pdf/invoice-document.ts) and words (`invoices:pdf`), one line naming the offer
// (`digital:offers.<identity>`), and the payments received on it (the receipt: provider, reference, date). The
// owner's only; a void (declined) one is not found. Its issuer is the legal entity stored at issue (ADR 052).
import { fail, type Result } from "#common/result";
import type { Scope } from "../scope";
import { fixedT } from "../i18n";
import { oneLineInvoicePdf } from "../billing";

const NUMBER = /^D[A-Z]{2}\d{1,12}$/;

/** The owner's digital invoice as a PDF. Errors: `sign-in-required`, `not-found`. */
export async function digitalInvoicePdf(scope: Scope, number: string): Promise<Result<Buffer>> {
  if (scope.userId === null) return fail("sign-in-required");
  if (!NUMBER.test(number)) return fail("not-found");
  const purchase = await scope.app.db
    .selectFrom("digital_purchases")
    .select("offer_identity")
    .where("invoice_number", "=", number)
    .where("user_id", "=", scope.userId)
    .executeTakeFirst();
  if (!purchase) return fail("not-found");
  return oneLineInvoicePdf(scope.app, scope.userId, number, {
    kind: "digital",
    refuseHidden: false,
    tag: "digital",
    line: (lang) => String(fixedT(lang, "digital")(`offers.${purchase.offer_identity}`)),
  });
}
