import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { extractText, getDocumentProxy } from "unpdf";
import { renderPriceQuote, writePriceQuote, type PriceQuoteData } from "../../server/pdf/price-quote";
import { PDF_RESOURCES } from "../../server/pdf/labels";
import { pickFamily } from "../../server/pdf/fonts";
import { formatDate, formatDateTime } from "../../app/common/format";
import { SITE_LANGS, type SiteLang } from "../../app/common/i18n";

const USD = { isoCode: "USD", sign: "$", numDecimals: 2 };
const EUR = { isoCode: "EUR", sign: "€", numDecimals: 2 };
const BRL = { isoCode: "BRL", sign: "R$", numDecimals: 2 };
const JPY = { isoCode: "JPY", sign: "¥", numDecimals: 0 };
const CNY = { isoCode: "CNY", sign: "¥", numDecimals: 2 };

const base: PriceQuoteData = {
  lang: "en",
  estimateId: "Q0123456789AB",
  issuedAt: new Date("2026-11-21T10:00:00Z"),
  validUntil: new Date("2026-12-21T10:00:00Z"),
  customer: { name: "Ada Lovelace", email: "ada@example.org", institution: "Analytical Society" },
  company: {
    name: "Researcher Services",
    address: ["100 Main Street", "Durham, NC 27701"],
    email: "support@example.com",
    website: "https://example.com",
  },
  currency: USD,
  lineItems: [
    { description: "Standard Editing", quantity: 1, listPrice: 130000, discountAmount: 10000, totalPrice: 120000 },
    { description: "Figure Formatting", quantity: 2, listPrice: 5000, totalPrice: 5000 },
  ],
  discounts: [{ description: "Promotional code WELCOME", amount: 2550 }],
  subtotal: 125000,
  total: 122450,
  deadline: new Date("2026-12-03T22:00:00Z"),
  wordCount: 4500,
  projectTitle: "Mechanosensing in migrating cells",
  notes: ["One free re-edit within 365 days."],
  timeZone: "UTC",
};

/** Per language: the quote, the strings that must appear in its text, in order of the brief. */
const quotes: Record<SiteLang, { data: PriceQuoteData; expected: string[] }> = {
  en: {
    data: base,
    expected: [
      "Price quote",
      "Quote number",
      "Valid until",
      "Estimated delivery",
      "Subtotal",
      "Total",
      "Description",
      "Amount",
      "$1,300",
      "-$100",
      "$1,200",
      "$50",
      "$1,250",
      "-$25.50",
      "$1,224.50",
      "Page 1 of 1",
    ],
  },
  cn: {
    data: {
      ...base,
      lang: "cn",
      currency: CNY,
      customer: { name: "王伟", email: "wang.wei@example.cn", institution: "清华大学化学系" },
      lineItems: [{ description: "标准润色", quantity: 1, listPrice: 187200, totalPrice: 187200 }],
      discounts: [],
      subtotal: 187200,
      total: 187200,
      projectTitle: "细胞迁移中的机械感应",
      timeZone: "Asia/Shanghai",
    },
    expected: [
      "报价单",
      "报价单号",
      "有效期至",
      "预计交付时间",
      "小计",
      "总计",
      "服务项目",
      "金额",
      "标准润色",
      "王伟",
      "清华大学化学系",
      "¥1,872",
      "第 1 页，共 1 页",
    ],
  },
  jp: {
    data: {
      ...base,
      lang: "jp",
      currency: JPY,
      customer: { name: "山田太郎", email: "t.yamada@example.jp", institution: "東京大学" },
      lineItems: [{ description: "英文校正（スタンダード）", quantity: 1, listPrice: 15000, totalPrice: 15000 }],
      discounts: [],
      subtotal: 15000,
      total: 15000,
      timeZone: "Asia/Tokyo",
    },
    expected: [
      "見積書",
      "見積番号",
      "有効期限",
      "納品予定日",
      "小計",
      "合計",
      "品目",
      "金額",
      "英文校正",
      "山田太郎",
      "東京大学",
      "¥15,000",
      "1 / 1 ページ",
    ],
  },
  br: {
    data: {
      ...base,
      lang: "br",
      currency: BRL,
      customer: { name: "João Araújo", email: "joao@example.com.br", institution: "Universidade de São Paulo" },
      lineItems: [{ description: "Edição padrão", quantity: 1, listPrice: 123450, totalPrice: 123450 }],
      discounts: [],
      subtotal: 123450,
      total: 123450,
      timeZone: "America/Sao_Paulo",
    },
    expected: [
      "Orçamento",
      "Número do orçamento",
      "Válido até",
      "Entrega estimada",
      "Subtotal",
      "Total",
      "Descrição",
      "Valor",
      "João Araújo",
      "Universidade de São Paulo",
      "R$1.234,50",
      "Página 1 de 1",
    ],
  },
  es: {
    data: {
      ...base,
      lang: "es",
      currency: EUR,
      customer: { name: "José Núñez", email: "jose@example.es", institution: "Universidad de Córdoba" },
      lineItems: [{ description: "Edición estándar", quantity: 1, listPrice: 123450, totalPrice: 123450 }],
      discounts: [{ description: "Código promocional", amount: 3450 }],
      subtotal: 123450,
      total: 120000,
      timeZone: "Europe/Madrid",
    },
    expected: [
      "Presupuesto",
      "Número de presupuesto",
      "Válido hasta",
      "Entrega estimada",
      "Subtotal",
      "Total",
      "Descripción",
      "Importe",
      "José Núñez",
      "Universidad de Córdoba",
      "€1.234,50",
      "-€34,50",
      "€1.200",
      "Página 1 de 1",
    ],
  },
};

async function read(pdf: Buffer) {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { text: pages, totalPages } = await extractText(doc, { mergePages: false });
  const info = (await doc.getMetadata()).info as Record<string, unknown>;
  return { pages, text: pages.join("\n"), totalPages, info };
}

/** Extracted text without the spaces pdf.js puts between runs (CJK text has none of its own). */
const squeeze = (s: string) => s.replace(/\s+/g, "");

describe("price-quote PDF", () => {
  it.each(SITE_LANGS)("renders a real quote in %s with translated labels, amounts and dates", async (lang) => {
    const { data, expected } = quotes[lang];
    const pdf = await renderPriceQuote(data);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.subarray(-6).toString("latin1")).toContain("%%EOF");
    const { text, totalPages, info } = await read(pdf);
    expect(totalPages).toBe(1);
    for (const s of expected) expect(squeeze(text), `${lang}: ${s}`).toContain(squeeze(s));
    expect(text).toContain("Q0123456789AB");
    const tz = data.timeZone!;
    expect(squeeze(text)).toContain(squeeze(formatDate(data.validUntil, lang, tz)));
    expect(squeeze(text)).toContain(squeeze(formatDate(data.issuedAt, lang, tz)));
    expect(squeeze(text)).toContain(squeeze(formatDateTime(data.deadline!, lang, tz)));
    const title = (PDF_RESOURCES[lang].priceQuote as Record<string, string>).title;
    expect(info.Title).toBe(`${title} Q0123456789AB`);
    expect(info.Author).toBe("Researcher Services");
    expect(info.Language).toBe({ en: "en-US", cn: "zh-CN", jp: "ja-JP", br: "pt-BR", es: "es-ES" }[lang]);
  });

  it("embeds subset CJK fonts: Simplified Chinese forms for Chinese, Japanese forms for Japanese", async () => {
    const zh = (await renderPriceQuote(quotes.cn.data)).toString("latin1");
    expect(zh).toMatch(/\/FontFile[23] \d+ 0 R/);
    expect(zh).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansHans-Regular/);
    expect(zh).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansHans-Bold/);
    expect(zh).not.toMatch(/NotoSansJP/);
    const ja = (await renderPriceQuote(quotes.jp.data)).toString("latin1");
    expect(ja).toMatch(/\/FontFile[23] \d+ 0 R/);
    expect(ja).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansJP-Regular/);
    expect(ja).not.toMatch(/NotoSansHans/);
    // Latin languages are set in the same embedded font (no unembedded standard fonts).
    const en = (await renderPriceQuote(base)).toString("latin1");
    expect(en).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansHans-Regular/);
    expect(en).not.toMatch(/\/Helvetica/);
    // Subsetting keeps the files small although the font files are 4–9 MB.
    expect(zh.length).toBeLessThan(400_000);
    expect(en.length).toBeLessThan(150_000);
  });

  it("sets text the document font lacks in the other CJK font (a Chinese name in a Japanese quote)", async () => {
    expect(pickFamily("山田太郎 見積書", ["jp", "sc"])).toBe("jp");
    expect(pickFamily("张伟", ["jp", "sc"])).toBe("sc"); // 张 is simplified only
    const pdf = await renderPriceQuote({
      ...quotes.jp.data,
      customer: { name: "张伟", email: "zhang@example.cn", institution: "复旦大学" },
    });
    const raw = pdf.toString("latin1");
    expect(raw).toMatch(/NotoSansJP-Regular/);
    expect(raw).toMatch(/NotoSansHans-(Regular|Bold)/);
    const { text } = await read(pdf);
    expect(squeeze(text)).toContain("张伟");
    expect(squeeze(text)).toContain("复旦大学");
  });

  it("shows list price and discount columns only when a line has a discount", async () => {
    const withDiscount = await read(await renderPriceQuote(base));
    expect(withDiscount.text).toContain("List price");
    expect(withDiscount.text).toContain("Discount");
    const plain = await read(
      await renderPriceQuote({
        ...base,
        lineItems: [{ description: "Standard Editing", quantity: 1, listPrice: 120000, totalPrice: 120000 }],
      }),
    );
    expect(plain.text).not.toContain("List price");
    expect(plain.text).toContain("$1,200");
  });

  it("says the delivery date comes with the order when there is no deadline, and lists the notes", async () => {
    const { text } = await read(await renderPriceQuote({ ...base, deadline: null }));
    expect(text).toContain("The delivery date is confirmed when the order is placed.");
    expect(text).toContain("One free re-edit within 365 days.");
    expect(text).toContain("This quote is valid until 21 Dec 2026.");
  });

  it("continues a 60-line quote on more pages with the table header and page numbers on each", async () => {
    const lineItems = Array.from({ length: 60 }, (_, i) => ({
      description: `Figure formatting, figure ${i + 1}`,
      quantity: 1,
      listPrice: 2500,
      totalPrice: 2500,
    }));
    const { pages, totalPages, text } = await read(
      await renderPriceQuote({ ...base, lineItems, discounts: [], subtotal: 150000, total: 150000 }),
    );
    expect(totalPages).toBeGreaterThanOrEqual(2);
    for (let i = 1; i <= 60; i++) expect(text).toContain(`Figure formatting, figure ${i}`);
    pages.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${totalPages}`);
      expect(page).toContain("Q0123456789AB");
    });
    // The table header is repeated on every page the table reaches; the total comes once, at the end.
    expect(pages.filter((p) => p.includes("Description")).length).toBe(pages.filter((p) => /Figure formatting/.test(p)).length);
    expect(pages.at(-1)).toContain("$1,500");
    expect(pages.at(-1)).toContain("Estimated delivery");
  });

  it("streams the same document into a Writable", async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (c: Buffer) => chunks.push(c));
    await writePriceQuote(quotes.br.data, out);
    const pdf = Buffer.concat(chunks);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const { text } = await read(pdf);
    expect(text).toContain("R$1.234,50");
    expect(text).toContain("Orçamento");
  });

  it("has real translations of every pdf label in all five languages", () => {
    const flatten = (tree: Record<string, unknown>, prefix = ""): Record<string, string> =>
      Object.fromEntries(
        Object.entries(tree).flatMap(([k, v]) =>
          v && typeof v === "object"
            ? Object.entries(flatten(v as Record<string, unknown>, `${prefix}${k}.`))
            : [[`${prefix}${k}`, String(v)]],
        ),
      );
    const en = flatten(PDF_RESOURCES.en);
    const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const lang of SITE_LANGS.filter((l) => l !== "en")) {
      const other = flatten(PDF_RESOURCES[lang]);
      expect(Object.keys(other).sort(), lang).toEqual(Object.keys(en).sort());
      for (const [key, value] of Object.entries(other)) {
        expect(value.trim(), `${lang}:${key}`).not.toBe("");
        expect(vars(value), `${lang}:${key}`).toEqual(vars(en[key]));
      }
      // "Subtotal" and "Total" are the same words in Portuguese and Spanish; little else may be.
      const same = Object.keys(en).filter((k) => other[k] === en[k]);
      expect(same.length, `${lang} untranslated: ${same.join(", ")}`).toBeLessThanOrEqual(2);
    }
  });
});
