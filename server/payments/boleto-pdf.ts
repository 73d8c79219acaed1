// The boleto's PDF (GET /api/payment/{paymentId}/boleto.pdf): gathered here from the payment, drawn in the PDF
// pool (server/pdf/boleto.ts) once per payment and kept in the shared cache (server/pdf/cached.ts).
import { fail, type Result } from "#common/result";
import { formatDate, formatMoney } from "#common/format";
import type { AppContext } from "../context";
import { fixedT } from "../i18n";
import { cachedPdf } from "../pdf/cached";
import { BOLETO_LAYOUT_VERSION, type BoletoPdfData } from "../pdf/boleto";
import { paymentLang, type PaymentRow } from "./read";

export const BOLETO_PDF_CACHE_SECONDS = 24 * 60 * 60;

/** "529.982.247-25" (CPF), "12.ABC.345/01DE-35" (CNPJ). */
export function formatTaxId(taxId: { type: string; number: string } | null | undefined): string {
  if (!taxId) return "";
  const n = taxId.number;
  if (taxId.type === "CPF" && n.length === 11) return `CPF ${n.slice(0, 3)}.${n.slice(3, 6)}.${n.slice(6, 9)}-${n.slice(9)}`;
  if (taxId.type === "CNPJ" && n.length === 14)
    return `CNPJ ${n.slice(0, 2)}.${n.slice(2, 5)}.${n.slice(5, 8)}/${n.slice(8, 12)}-${n.slice(12)}`;
  return `${taxId.type} ${n}`;
}

async function boletoData(app: AppContext, payment: PaymentRow): Promise<BoletoPdfData | null> {
  const next = payment.nextAction;
  if (payment.provider !== "boleto" || next?.kind !== "boleto") return null;
  const lang = paymentLang(payment);
  const t = fixedT(lang, "sandbox");
  const [{ config }, currency, user] = await Promise.all([
    app.config.snapshot(),
    app.db.selectFrom("currencies").select(["sign", "num_decimals"]).where("iso_code", "=", payment.currencyIso).executeTakeFirst(),
    app.db.selectFrom("users").select(["first_name", "last_name"]).where("id", "=", payment.userId).executeTakeFirstOrThrow(),
  ]);
  const billingName = typeof payment.details.billing?.name === "string" ? payment.details.billing.name : "";
  return {
    lang,
    testMode: payment.sandbox,
    beneficiary: config.companyShortName,
    payerName: billingName || `${user.first_name} ${user.last_name}`.trim(),
    payerTaxId: formatTaxId(payment.details.taxId),
    amount: formatMoney(payment.amount, {
      isoCode: payment.currencyIso,
      sign: currency?.sign ?? "R$",
      numDecimals: currency?.num_decimals ?? 2,
    }),
    dueOn: formatDate(`${next.dueOn}T12:00:00Z`, lang),
    issuedOn: formatDate(payment.createdAt, lang),
    ourNumber: payment.providerRef ?? "",
    line: next.line,
    barcode: next.barcode,
    labels: {
      title: t("boleto.title"),
      testMode: t("testMode"),
      beneficiary: t("boleto.beneficiary"),
      payer: t("boleto.payer"),
      amount: t("amount"),
      dueOn: t("boleto.dueOn"),
      issuedOn: t("boleto.issuedOn"),
      ourNumber: t("boleto.ourNumber"),
      line: t("boleto.line"),
      instructions: t("boleto.instructions"),
    },
  };
}

/** The boleto of a payment as a PDF. Error: not-found (not a boleto payment). */
export async function boletoPdf(app: AppContext, payment: PaymentRow): Promise<Result<Buffer>> {
  const data = await boletoData(app, payment);
  if (!data) return fail("not-found");
  const key = `boleto-pdf:${payment.id}:v${BOLETO_LAYOUT_VERSION}:${data.lang}`;
  return cachedPdf(app, key, BOLETO_PDF_CACHE_SECONDS, () => app.pdf.render("boleto", data));
}
