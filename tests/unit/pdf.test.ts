import { describe, expect, it } from "vitest";
import { extractText, getDocumentProxy } from "unpdf";
import { renderPriceQuote, type PriceQuoteData } from "../../server/pdf/price-quote";

const base: PriceQuoteData = {
  lang: "en",
  estimateId: "Q0123456789AB",
  issuedAt: new Date("2026-11-21T10:00:00Z"),
  validUntil: new Date("2026-12-21T10:00:00Z"),
  customer: { name: "Ada Lovelace", email: "ada@example.org", institution: "Analytical Society" },
  company: { name: "Researcher Services", website: "http://127.0.0.1:3000" },
  currency: { isoCode: "USD", sign: "$", numDecimals: 2 },
  lineItems: [{ description: "Standard Editing", quantity: 1, listPrice: 26000, totalPrice: 26000 }],
  discounts: [{ description: "Promotional code", amount: 2600 }],
  subtotal: 26000,
  total: 23400,
  deadline: new Date("2026-12-03T22:00:00Z"),
  wordCount: 4500,
  projectTitle: "Mechanosensing",
  timeZone: "America/New_York",
};

async function text(pdf: Buffer) {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { text, totalPages } = await extractText(doc, { mergePages: true });
  return { text, totalPages };
}

describe("price-quote PDF", () => {
  it("is a real PDF with the amounts, dates and validity", async () => {
    const pdf = await renderPriceQuote(base);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const { text: t } = await text(pdf);
    for (const s of ["Price quote", "Q0123456789AB", "Standard Editing", "$260", "-$26", "$234", "Valid until", "21 Dec 2026", "Ada Lovelace"]) expect(t).toContain(s);
  });

  it("embeds a CJK font and renders Chinese and Japanese labels", async () => {
    const zh = await renderPriceQuote({ ...base, lang: "cn", currency: { isoCode: "CNY", sign: "¥", numDecimals: 2 }, lineItems: [{ description: "标准润色", quantity: 1, listPrice: 187200, totalPrice: 187200 }] });
    expect(zh.toString("latin1")).toMatch(/\/FontFile2/);
    expect(zh.toString("latin1")).toMatch(/NotoSansSC/);
    const { text: t } = await text(zh);
    expect(t).toContain("报价单");
    expect(t).toContain("标准润色");
    expect(t).toContain("¥1,872");
    const ja = await text(await renderPriceQuote({ ...base, lang: "jp", currency: { isoCode: "JPY", sign: "¥", numDecimals: 0 }, lineItems: [{ description: "ネイティブ校正", quantity: 1, listPrice: 15000, totalPrice: 15000 }], subtotal: 15000, total: 15000, discounts: [] }));
    expect(ja.text).toContain("お見積もり");
    expect(ja.text).toContain("¥15,000");
  });

  it("formats euro and real with dot thousands and continues long quotes on more pages", async () => {
    const pt = await text(await renderPriceQuote({ ...base, lang: "br", currency: { isoCode: "BRL", sign: "R$", numDecimals: 2 }, subtotal: 123450, total: 123450, discounts: [] }));
    expect(pt.text).toContain("Orçamento");
    expect(pt.text).toContain("R$1.234,50");
    const many = Array.from({ length: 60 }, (_, i) => ({ description: `Figure Formatting ${i + 1}`, quantity: 1, listPrice: 2500, totalPrice: 2500 }));
    const long = await text(await renderPriceQuote({ ...base, lineItems: many }));
    expect(long.totalPages).toBeGreaterThanOrEqual(2);
    expect(long.text).toContain("Figure Formatting 60");
  });
});
