// Price quotes (spec 1 §2, §4 "Price quote"): a snapshot of the priced order form, valid 30 days,
// rendered as a PDF in the visitor's language, e-mailed, or turned back into the order.
import { fail, ok, type Result } from "#common/result";
import { createHash, randomBytes } from "node:crypto";
import type { AppContext } from "../context";
import type { SiteLang } from "#common/i18n";
import { fixedT } from "../i18n";
import { mailLinkBase, sendMail } from "../mail";
import { PRICE_QUOTE_LAYOUT_VERSION, type PriceQuoteData } from "../pdf/price-quote";
import { cachedPdf } from "../pdf/cached";
import { rateLimit } from "../kernel/rate-limit";
import type { Scope } from "../scope";
import { localizationTimeZone } from "../config";
import { priceForm } from "./price";
import { stepContext } from "./progress";
import { hashDraftKey, saveOrderForm, type OrderFormRow, type Owner } from "./store";
import { advance, stepsOf } from "./steps/flow";

export const QUOTE_VALID_DAYS = 30;

/**
 * Limits of the price quote per actor (the signed-in user, else the client address), per 10 minutes
 * (issue 10 §5): quotes made and PDFs served. Configurable in `rateLimits`; a configured object that does
 * not name them keeps these defaults.
 */
export const QUOTE_LIMIT_DEFAULTS = { quotesPer10Minutes: 20, quotePdfsPer10Minutes: 60 } as const;
/** An identical quote of the same form made within this many hours is answered again instead of a new one. */
export const QUOTE_REUSE_HOURS = 24;
/** How long a rendered PDF stays in the shared cache. */
export const QUOTE_PDF_CACHE_SECONDS = 15 * 60;

async function quoteLimit(scope: Scope, key: keyof typeof QUOTE_LIMIT_DEFAULTS): Promise<Result<undefined>> {
  const configured = ((await scope.app.config.snapshot()).config.rateLimits as Record<string, unknown>)[key];
  const limit = typeof configured === "number" && Number.isFinite(configured) && configured > 0 ? configured : QUOTE_LIMIT_DEFAULTS[key];
  const actor = scope.userId ? `user:${scope.userId}` : `ip:${scope.ip}`;
  const r = await rateLimit(scope.app.cache, `${key}:${actor}`, limit, 600);
  return r.allowed ? ok() : fail("too-many-requests", { retryAfterSeconds: r.retryAfterSeconds });
}

/** JSON with sorted keys: a jsonb column gives its keys back in its own order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

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

/** The quote made (or an identical recent one), or `no-services` / `too-many-requests`. */
export type QuoteResult = Result<{ estimateId: string }>;

export async function generatePriceQuote(scope: Scope, form: OrderFormRow): Promise<QuoteResult> {
  const limited = await quoteLimit(scope, "quotesPer10Minutes");
  if (!limited.ok) return limited;
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
  // Asking again for the same prices gives the same quote (and its cached PDF), not one more row to render.
  const recent = await scope.app.db
    .selectFrom("price_quotes")
    .select(["estimate_id", "data", "user_id"])
    .where("order_form_id", "=", form.id)
    .where("created_at", ">", new Date(Date.now() - QUOTE_REUSE_HOURS * 3_600_000))
    .orderBy("created_at", "desc")
    .limit(5)
    .execute();
  const wanted = canonical(data);
  const same = recent.find(
    (r) => r.user_id === scope.userId && canonical(typeof r.data === "string" ? JSON.parse(r.data) : r.data) === wanted,
  );
  if (same) return ok({ estimateId: same.estimate_id });
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

/**
 * The quote as a PDF. Rendering takes 100–600 ms of CPU (more with CJK fonts), in the PDF render pool's
 * worker threads (ADR 028), not on the event loop; a PDF is rendered once per estimate and content (the
 * key includes a hash of everything printed and the layout version) and kept in the shared cache;
 * downloads are limited per actor (issue 10 §5).
 * Errors: `too-many-requests` (details.retryAfterSeconds); `service-unavailable` (details.retryAfterSeconds)
 * when the render queue is full.
 */
export async function quotePdf(
  scope: Scope,
  quote: NonNullable<Awaited<ReturnType<typeof findQuote>>>,
  customer: { name: string; email: string; institution?: string | null } | null,
): Promise<Result<Buffer>> {
  const limited = await quoteLimit(scope, "quotePdfsPer10Minutes");
  if (!limited.ok) return limited;
  const ctx = scope.app;
  const input = await quotePdfData(ctx, quote, customer);
  const digest = createHash("sha256").update(canonical(input)).digest("base64url").slice(0, 22);
  const key = `quote-pdf:${quote.row.estimate_id}:v${PRICE_QUOTE_LAYOUT_VERSION}:${digest}`;
  return cachedPdf(ctx, key, QUOTE_PDF_CACHE_SECONDS, () => ctx.pdf.render("price-quote", input), fixedT(scope.lang, "pdf")("busy"));
}

async function quotePdfData(
  ctx: AppContext,
  quote: NonNullable<Awaited<ReturnType<typeof findQuote>>>,
  customer: { name: string; email: string; institution?: string | null } | null,
): Promise<PriceQuoteData> {
  const { data, row } = quote;
  const t = fixedT(data.lang, "order");
  const { config } = await ctx.config.snapshot();
  return {
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
  };
}

/**
 * E-mails the quote's link to the signed-in user; answers the recipient. The greeting is generic: no text
 * a user typed (not even the account's name) goes into a mail a request makes us send (issue 10 §4).
 * Errors: `too-many-requests` (details.retryAfterSeconds) over the mail limits (server/mail/limits.ts),
 * `email-not-verified` before the owner confirmed the address (ADR 026).
 */
export async function emailQuote(
  ctx: AppContext,
  quote: NonNullable<Awaited<ReturnType<typeof findQuote>>>,
  user: { id: number; email: string; localization: string },
): Promise<Result<string>> {
  const t = fixedT(quote.data.lang, "order");
  // From configuration only, never from the request (issue 10 item 1).
  const link = `${await mailLinkBase(ctx, user.localization)}/api/price-quote/${quote.row.estimate_id}/pdf`;
  const { config } = await ctx.config.snapshot();
  const sent = await sendMail(ctx, {
    to: user.email,
    subject: t("quote.mailSubject", { id: quote.row.estimate_id, company: config.companyShortName }),
    text: t("quote.mailBody", { link, id: quote.row.estimate_id, company: config.companyShortName }),
    template: "price-quote",
    lang: quote.data.lang,
    userId: user.id,
  });
  if (sent.status === "limited") return fail("too-many-requests", { retryAfterSeconds: sent.retryAfterSeconds });
  if (sent.status === "unverified") return fail("email-not-verified");
  return ok(user.email);
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
