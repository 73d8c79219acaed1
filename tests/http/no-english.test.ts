// No English on the Chinese and Portuguese sites (issue 9 §4): currency and country names from the ICU
// data, the locale's own 12-hour clock (上午/下午 on Chinese pages), validation messages in the page's language (never zod's English),
// bank details in the invoice's currency with translated labels, the referral credit in the researcher's
// currency, and error and promo texts that are never raw keys or English status texts (§3.13).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal, type SignedInUser } from "../helpers/portal";
import { createOrderFormFor, createPlacedOrder } from "../helpers/factories";

let portal: TestPortal;
let brazilian: SignedInUser;
let chinese: SignedInUser;
beforeAll(async () => {
  portal = await startRelaxedPortal();
  brazilian = await portal.researcher({ country: "BR", countryCode: "BR", phoneNumber: "11987654321", currency: "BRL", language: "br" });
  chinese = await portal.researcher({ country: "CN", countryCode: "CN", phoneNumber: "13800138000", currency: "CNY", language: "cn" });
});
afterAll(async () => portal.stop());

/** English that must not appear on a page of another language (besides the language switcher's "English"). */
const ENGLISH: RegExp[] = [
  /US Dollar|British Pound|Japanese Yen|Brazilian Real|Chinese Yuan/,
  /\bBrazil\b|United States|Germany/,
  /Example Bank|set in the staff configuration/,
  /Not Found|expected string|Invalid input|Too big|Too small/,
  /promo\.[a-z-]+/,
];

/** The page's visible text and attributes: scripts (translation resources, route data) left out. */
async function page(client: Client, path: string, init?: { form?: Record<string, string> }): Promise<string> {
  const r = init?.form ? await client.post(path, init.form) : await client.get(path);
  const html = await r.text();
  return html.replace(/<script[\s\S]*?<\/script>/g, "");
}

function expectNoEnglish(html: string, where: string, lang: "cn" | "br" = "cn") {
  // The clock is 12-hour everywhere (spec 3 §9, ADR 062): Chinese names its day periods (上午/下午); Brazilian
  // Portuguese writes AM/PM, as its CLDR data does, so "3:07 PM" is English only on a Chinese page.
  const patterns = lang === "cn" ? [...ENGLISH, /\d (AM|PM)\b/] : ENGLISH;
  for (const pattern of patterns) expect(pattern.exec(html)?.[0], `${where}: ${pattern}`).toBeUndefined();
}

describe.each(["cn", "br"] as const)("/%s pages", (lang) => {
  it("register: currency names in the page's language", async () => {
    const html = await page(new Client(portal.url), `/${lang}/register`, {
      form: { intent: "check-email", email: `new.${lang}.${Date.now()}@example.org` },
    });
    expect(html).toContain('name="currency"');
    expect(html).toContain(lang === "cn" ? "英镑" : "Libra esterlina");
    expectNoEnglish(html, "register", lang);
  });

  it("wizard: the currency picker, an unknown ?promo= and an error page", async () => {
    const c = new Client(portal.url);
    // The link's code is offered on a confirmation page (issue 10 §10), in the page's language too.
    let html = await page(c, `/${lang}/researcher/submit/new?promo=foo-bar`);
    expectNoEnglish(html, "promo confirmation", lang);
    html = await page(c, `/${lang}/researcher/submit/get-started`);
    expect(html).toContain(lang === "cn" ? "欧元" : "Euro");
    expectNoEnglish(html, "get-started", lang);
    html = await page(c, `/${lang}/researcher/submit/get-started?promo=foo-bar`);
    expect(html).not.toMatch(/role="alert"[^>]*>[^<]*foo-bar/);
    expectNoEnglish(html, "promo", lang);
    // An unknown quote: the wizard's error page says so in the page's language, not "Not Found".
    html = await page(c, `/${lang}/researcher/submit/price-quote-completed/no-such-quote`);
    expect(html).toContain(lang === "cn" ? "页面未找到" : "Página não encontrada");
    expectNoEnglish(html, "wizard error", lang);
  });

  it("account: addresses with the country in the page's language, too-long details in words", async () => {
    const user = lang === "br" ? brazilian : chinese;
    let r = await user.client.post(`/${lang}/account/addresses/new`, {
      intent: "save",
      label: "billing",
      name: "Ana Lima",
      address1: "Rua Augusta 100",
      city: "São Paulo",
      state: "SP",
      zip: "01304-000",
      country: "BR",
    });
    expect(r.status).toBe(303);
    let html = await page(user.client, `/${lang}/account/addresses`);
    expect(html).toContain(lang === "cn" ? "巴西" : "Brasil");
    expectNoEnglish(html, "addresses", lang);
    const account = await page(user.client, `/${lang}/account`);
    expect(account).toContain('name="firstName"');
    r = await user.client.post(`/${lang}/account?index`, {
      intent: "details",
      title: "x".repeat(41),
      firstName: "y".repeat(101),
      lastName: "Lima",
      institution: "z".repeat(201),
      countryCode: lang === "br" ? "BR" : "CN",
      phoneNumber: lang === "br" ? "11987654321" : "13800138000",
      country: lang === "br" ? "BR" : "CN",
      language: lang,
    });
    expect(r.status).toBe(400);
    html = (await r.text()).replace(/<script[\s\S]*?<\/script>/g, "");
    expect(html).toContain(lang === "cn" ? "内容过长。" : "Este texto é longo demais.");
    // A too-long name says so, not "enter your name".
    expect(html).toContain(lang === "cn" ? "姓名过长。" : "Este nome é longo demais.");
    expect(html).not.toContain(lang === "cn" ? "请输入您的名。" : "Informe seu nome.");
    expectNoEnglish(html, "details", lang);
  });

  it("order: times on the locale's clock, bank details in the invoice's currency, referral credit in the order's currency", async () => {
    const user = lang === "br" ? brazilian : chinese;
    const currencyIso = lang === "br" ? "BRL" : "CNY";
    const order = await createPlacedOrder(portal.ctx, user, { currencyIso });
    let html = await page(user.client, `/${lang}/researcher/index/details/${order.externalId}/thank-you`);
    expect(html).toContain(lang === "br" ? "Banco Paulista de Comércio" : "北京华信银行");
    expect(html).toMatch(/\d{1,2}:\d{2}/);
    expectNoEnglish(html, "thank-you", lang);
    if (lang === "cn") expect(html).toMatch(/[上下]午\d{1,2}:\d{2}/);
    await createOrderFormFor(portal.ctx, user, { services: ["standard-editing"], projectTitle: "Solos", currencyIso });
    html = await page(user.client, `/${lang}/researcher/submit/payment-details`);
    expect(html).toContain('referral-form"');
    expect(html).not.toContain("$40");
    expect(html).toContain(lang === "br" ? "R$224" : "¥288");
    expectNoEnglish(html, "payment", lang);
  });
});
