// Price quotes as CPU for free (issue 10 §5): an identical recent quote is answered again, a rendered
// PDF is kept per estimate and content, concurrent downloads render once, and both calls are limited.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createOrderFormFor, createResearcher, scopeFor } from "../helpers/factories";
import { findQuote, generatePriceQuote, quotePdf, QUOTE_LIMIT_DEFAULTS } from "../../server/order-form";
import { systemScope } from "../../server/scope";
import { PdfPoolBusyError } from "../../server/pdf/pool";

// The seam: count the renders handed to the PDF render pool (they run in its worker threads, ADR 028).
const renders = { count: 0 };
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  const render = t.ctx.pdf.render.bind(t.ctx.pdf);
  vi.spyOn(t.ctx.pdf, "render").mockImplementation((kind, data) => {
    renders.count++;
    return render(kind, data);
  });
});
afterAll(async () => t.close());

const customer = { name: "Ada Lovelace", email: "ada@example.org" };

describe("price-quote cost", () => {
  it("answers the same quote for the same prices, and a new one when they change", async () => {
    const user = await createResearcher(t.ctx);
    const form = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"] });
    const scope = scopeFor(t.ctx, user);
    const a = await generatePriceQuote(scope, form);
    const b = await generatePriceQuote(scope, form);
    expect(a.ok && b.ok).toBe(true);
    expect(b.ok && b.value.estimateId).toBe(a.ok && a.value.estimateId);
    const rows = await t.ctx.db.selectFrom("price_quotes").select("estimate_id").where("order_form_id", "=", form.id).execute();
    expect(rows).toHaveLength(1);
    const other = await generatePriceQuote(scope, { ...form, word_count: (form.word_count ?? 3000) + 1000 });
    expect(other.ok && other.value.estimateId).not.toBe(a.ok && a.value.estimateId);
  });

  it("renders a quote's PDF once for many downloads, concurrent or not, and again when the customer changes", async () => {
    const user = await createResearcher(t.ctx);
    const form = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"] });
    const scope = scopeFor(t.ctx, user);
    const made = await generatePriceQuote(scope, form);
    const quote = (await findQuote(t.ctx, made.ok ? made.value.estimateId : "", { userId: user.id, draftKey: null }))!;
    renders.count = 0;
    const first = await Promise.all([1, 2, 3, 4].map(() => quotePdf(scope, quote, customer)));
    const later = await quotePdf(scope, quote, customer);
    expect(renders.count).toBe(1);
    for (const r of [...first, later]) expect(r.ok && r.value.subarray(0, 5).toString()).toBe("%PDF-");
    expect(later.ok && first[0].ok && later.value.equals(first[0].value)).toBe(true);
    await quotePdf(scope, quote, { ...customer, name: "Ada King" });
    expect(renders.count).toBe(2);
  });

  it("renders in the pool's worker threads, and answers 503-style when its queue is full", async () => {
    const user = await createResearcher(t.ctx);
    const form = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"] });
    const scope = scopeFor(t.ctx, user);
    const made = await generatePriceQuote(scope, form);
    const quote = (await findQuote(t.ctx, made.ok ? made.value.estimateId : "", { userId: user.id, draftKey: null }))!;
    renders.count = 0;
    const pdf = await quotePdf(scope, quote, customer);
    expect(renders.count).toBe(1);
    expect(pdf.ok && pdf.value.subarray(0, 5).toString()).toBe("%PDF-");
    expect(t.ctx.pdf.stats().workers).toBeGreaterThan(0);
    // A full queue: the download is refused with a time to come back and a translated message; nothing is cached.
    vi.mocked(t.ctx.pdf.render).mockRejectedValueOnce(new PdfPoolBusyError(5));
    const busy = await quotePdf({ ...scope, lang: "cn" }, quote, { ...customer, name: "Ada Busy" });
    expect(busy).toMatchObject({ ok: false, error: "service-unavailable", details: { retryAfterSeconds: 5 } });
    expect(busy.ok ? "" : String(busy.details?.message)).toMatch(/[\u4e00-\u9fff]/);
    const again = await quotePdf(scope, quote, { ...customer, name: "Ada Busy" });
    expect(again.ok && again.value.subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("limits quotes and PDF downloads per user and per anonymous address", async () => {
    const user = await createResearcher(t.ctx);
    const form = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"] });
    const scope = scopeFor(t.ctx, user);
    for (let i = 0; i < QUOTE_LIMIT_DEFAULTS.quotesPer10Minutes; i++) expect((await generatePriceQuote(scope, form)).ok).toBe(true);
    expect(await generatePriceQuote(scope, form)).toMatchObject({ ok: false, error: "too-many-requests" });
    // Another user is not affected.
    const other = await createResearcher(t.ctx);
    const otherForm = await createOrderFormFor(t.ctx, other, { services: ["standard-editing"] });
    const made = await generatePriceQuote(scopeFor(t.ctx, other), otherForm);
    expect(made.ok).toBe(true);
    const quote = (await findQuote(t.ctx, made.ok ? made.value.estimateId : "", { userId: other.id, draftKey: null }))!;
    for (let i = 0; i < QUOTE_LIMIT_DEFAULTS.quotePdfsPer10Minutes; i++)
      expect((await quotePdf(scopeFor(t.ctx, other), quote, customer)).ok).toBe(true);
    const over = await quotePdf(scopeFor(t.ctx, other), quote, customer);
    expect(over).toMatchObject({ ok: false, error: "too-many-requests" });
    expect(over.ok ? 0 : over.details?.retryAfterSeconds).toBeGreaterThan(0);
    // Anonymous visitors are counted by address.
    const anonymous = (ip: string) => systemScope(t.ctx, { lang: "en", localization: "US", ip });
    for (let i = 0; i < QUOTE_LIMIT_DEFAULTS.quotePdfsPer10Minutes; i++) await quotePdf(anonymous("10.9.9.9"), quote, null);
    expect((await quotePdf(anonymous("10.9.9.9"), quote, null)).ok).toBe(false);
    expect((await quotePdf(anonymous("10.9.9.10"), quote, null)).ok).toBe(true);
  });
});
