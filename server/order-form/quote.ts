// Price quotes (spec 1 §2, §4 "Price quote"): a snapshot of the priced order form, valid 30 days,
// rendered as a PDF in the visitor's language, e-mailed, or turned back into the order.
import { fail, ok, type Result } from "#common/result";
import { randomBytes } from "node:crypto";
import type { AppContext } from "../context";
import type { SiteLang } from "#common/i18n";
import { fixedT } from "../i18n";
import { mailLinkBase, sendMail } from "../mail";
import { renderPriceQuote } from "../pdf/price-quote";
import type { Scope } from "../scope";
import { localizationTimeZone } from "../config";
import { priceForm } from "./price";
import { stepContext } from "./progress";
import { hashDraftKey, saveOrderForm, type OrderFormRow, type Owner } from "./store";
import { advance, stepsOf } from "./steps/flow";

export const QUOTE_VALID_DAYS = 30;

interface QuoteSnapshot {
  lang: SiteLang;
  currency: { isoCode: string; sign: string; numDecimals: number };
  lineItems: { nameKey: string; quantity: number; listPrice: number; totalPrice: number }[];
  discounts: { descriptionKey: string; appliedAmount: number }[];
  subtotal: number;
  total: number;
  deadline: string | null;
  wordCount: number | null;
  projectTitle: string | null;
  timeZone: string;
  draftKeyHash: string | null;
}

/** The quote made, or `no-services` / `quote-failed`. */
export type QuoteResult = Result<{ estimateId: string }>;

export async function generatePriceQuote(scope: Scope, form: OrderFormRow): Promise<QuoteResult> {
  const price = await priceForm(scope, form).catch(() => null);
  if (!price) return fail("no-services");
  const snapshot = await scope.app.config.snapshot();
  const estimateId = `Q${randomBytes(6).toString("hex").toUpperCase()}`;
  const data: QuoteSnapshot = {
    lang: scope.lang,
    currency: { isoCode: price.currency.isoCode, sign: price.currency.sign, numDecimals: price.currency.numDecimals },
    lineItems: price.lineItems.map((l) => ({ nameKey: l.nameKey, quantity: l.quantity, listPrice: l.listPrice, totalPrice: l.totalPrice })),
    discounts: price.discounts.filter((d) => d.applied).map((d) => ({ descriptionKey: d.descriptionKey, appliedAmount: d.appliedAmount })),
    subtotal: price.subtotal,
    total: price.total,
    deadline: price.deadline ? price.deadline.toISOString() : null,
    wordCount: form.word_count,
    projectTitle: form.project_title,
    timeZone: localizationTimeZone(snapshot.localizations, scope.localization),
    draftKeyHash: scope.userId ? null : scope.draftKey ? hashDraftKey(scope.draftKey) : null,
  };
  await scope.app.db
    .insertInto("price_quotes")
    .values({
      estimate_id: estimateId,
      order_form_id: form.id,
      user_id: scope.userId,
      data: JSON.stringify(data),
      valid_until: new Date(Date.now() + QUOTE_VALID_DAYS * 86_400_000),
    })
    .execute();
  return ok({ estimateId });
}

/** A quote of this owner (another user's or another browser's quote is not found). */
export async function findQuote(ctx: AppContext, estimateId: string, owner: Owner) {
  if (!/^Q[0-9A-F]{12}$/.test(estimateId)) return null;
  const row = await ctx.db.selectFrom("price_quotes").selectAll().where("estimate_id", "=", estimateId).executeTakeFirst();
  if (!row) return null;
  const data = (typeof row.data === "string" ? JSON.parse(row.data) : row.data) as unknown as QuoteSnapshot;
  const mine =
    row.user_id !== null ? row.user_id === owner.userId : Boolean(owner.draftKey && data.draftKeyHash === hashDraftKey(owner.draftKey));
  return mine ? { row, data } : null;
}

export async function quotePdf(
  ctx: AppContext,
  quote: NonNullable<Awaited<ReturnType<typeof findQuote>>>,
  customer: { name: string; email: string; institution?: string | null } | null,
): Promise<Buffer> {
  const { data, row } = quote;
  const t = fixedT(data.lang, "order");
  const { config } = await ctx.config.snapshot();
  return renderPriceQuote({
    lang: data.lang,
    estimateId: row.estimate_id,
    issuedAt: new Date(row.created_at),
    validUntil: new Date(row.valid_until),
    customer,
    company: { name: config.companyShortName, website: config.website },
    currency: data.currency,
    lineItems: data.lineItems.map((l) => ({
      description: t(l.nameKey),
      quantity: l.quantity,
      listPrice: l.listPrice,
      totalPrice: l.totalPrice,
    })),
    discounts: data.discounts.map((d) => ({ description: t(d.descriptionKey), amount: d.appliedAmount })),
    subtotal: data.subtotal,
    total: data.total,
    deadline: data.deadline ? new Date(data.deadline) : null,
    wordCount: data.wordCount,
    projectTitle: data.projectTitle,
    timeZone: data.timeZone,
  });
}

/** E-mails the quote's link to the signed-in user; returns the recipient. */
export async function emailQuote(
  ctx: AppContext,
  quote: NonNullable<Awaited<ReturnType<typeof findQuote>>>,
  user: { id: number; email: string; firstName: string; localization: string },
): Promise<string> {
  const t = fixedT(quote.data.lang, "order");
  // From configuration only, never from the request (issue 10 item 1).
  const link = `${await mailLinkBase(ctx, user.localization)}/api/price-quote/${quote.row.estimate_id}/pdf`;
  const { config } = await ctx.config.snapshot();
  await sendMail(ctx, {
    to: user.email,
    subject: t("quote.mailSubject", { id: quote.row.estimate_id, company: config.companyShortName }),
    text: t("quote.mailBody", { name: user.firstName, link, id: quote.row.estimate_id, company: config.companyShortName }),
    template: "price-quote",
    lang: quote.data.lang,
    userId: user.id,
  });
  return user.email;
}

/**
 * "Convert to order": back to the order, at the details step (spec 1 §4), also from a form that had
 * reached payment: the researcher confirms the details the quote was made from before paying.
 */
export async function convertQuote(scope: Scope, form: OrderFormRow): Promise<OrderFormRow> {
  const ctx = await stepContext(scope, form);
  const steps = stepsOf(form, ctx);
  if (form.current_step === "details") return form;
  if (steps.indexOf(form.current_step as never) > steps.indexOf("details"))
    return saveOrderForm(scope.app.db, form, { current_step: "details" });
  // Services are chosen (a quote needs them): the order continues at the details step.
  let current = form.current_step as Parameters<typeof advance>[1];
  while (steps.indexOf(current) < steps.indexOf("details")) current = advance({ ...form, current_step: current }, current, ctx);
  return saveOrderForm(scope.app.db, form, { current_step: current });
}
