import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { makeDocx } from "../helpers/fixtures";
import { unreadableDocx } from "../e2e/fixtures/grammar-manuscripts";

// The digital editing and translation screenshots (issue 24, ADR 074): every new page, JavaScript off, cn and br, 360
// and 1280 px wide, saved to DIGITAL_SHOTS_DIR (/work/shots/digital by default) for a person to look at. The states
// are made through the pages themselves (PayPal sandbox purchases, real uploads through the worker). Run after the
// build: npx playwright test -c tests/shots/playwright.config.ts tests/shots/digital.shots.ts. Not a test suite.
const DIR = process.env.DIGITAL_SHOTS_DIR ?? "/work/shots/digital";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const STAFF = { email: "staff@example.com", password: "Staff#2026!" };

async function account(request: APIRequestContext, country: string, currency: string) {
  const email = `shots-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
  const password = "Shots#Digital-2026";
  const r = await request.post("/api/auth/register", {
    data: {
      email,
      password,
      firstName: "Ana",
      lastName: "Souza",
      countryCode: country,
      phoneNumber: country === "CN" ? "13800138000" : "2025550123",
      country,
      currency,
      language: "en",
      agreeToTOS: true,
    },
  });
  expect(r.status(), await r.text()).toBe(201);
  return { email, password };
}

/** A purchase through the English payment form and the PayPal sandbox (no JavaScript needed). */
async function payByPayPal(page: Page, button: string) {
  await page.locator(".pm-method:not(.pm-brazil-only)", { hasText: "PayPal" }).click();
  const billing = page.locator("fieldset.pm-address").first();
  await billing.getByLabel("Address", { exact: true }).fill("1 Main Street");
  await billing.getByLabel("City").fill("Boston");
  await billing.getByLabel("Country").selectOption({ label: "United States" });
  await billing.getByLabel("State or province").selectOption({ label: "Massachusetts" });
  await billing.getByLabel("Zip or postcode").fill("02108");
  await page.getByLabel("I accept the terms of service").check();
  await page.getByRole("button", { name: button }).click();
  await page.waitForURL(/\/payment-sandbox\/paypal\//);
  await page.getByRole("button", { name: "Approve" }).click();
  await page.waitForURL(/notice=/, { timeout: 30_000 });
}

async function settled(page: Page, api: string, name: string) {
  for (let i = 0; i < 60; i++) {
    const body = (await (await page.request.get(`/api/${api}/search`)).json()) as { results: { fileName: string; status: string }[] };
    const row = body.results.find((r) => r.fileName === name);
    if (row && row.status !== "processing") return;
    await page.waitForTimeout(1000);
  }
  throw new Error(`not settled: ${name}`);
}

for (const [lang, country, currency] of [
  ["cn", "CN", "CNY"],
  ["br", "BR", "BRL"],
] as const) {
  test(`digital pages in ${lang}`, async ({ page, request, browser, baseURL }) => {
    fs.mkdirSync(DIR, { recursive: true });
    const user = await account(request, country, currency).catch(() => account(request, "US", "USD"));
    expect((await page.request.post("/api/auth/login", { data: user })).status()).toBe(200);
    const shoot = async (name: string, url: string) => {
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(url);
        await page.screenshot({ path: path.join(DIR, `${lang}-${name}-${width}.png`), fullPage: true });
      }
    };
    // Before anything is bought: the offers.
    await shoot("editing-empty", `/${lang}/researcher/digital-editing`);
    await shoot("subscribe", `/${lang}/researcher/digital-editing/subscribe`);
    await shoot("translations-empty", `/${lang}/researcher/digital-translations`);
    await shoot("purchase", `/${lang}/researcher/digital-translations/purchase?package=three-uses&language=es_ES`);
    await shoot("chinese-trial", `/${lang}/chinese-digital-trial`);

    // The purchases go through PayPal's sandbox, which a US account has (the Chinese site offers no PayPal).
    await page.context().clearCookies();
    const payer = await account(request, "US", "USD");
    expect((await page.request.post("/api/auth/login", { data: payer })).status()).toBe(200);
    // The subscription, a proofread document and a damaged one.
    await page.goto("/en/researcher/digital-editing/subscribe");
    await payByPayPal(page, "Pay and subscribe");
    const good = "soil-bacteria-methods.docx";
    for (const [name, buffer] of [
      [good, await makeDocx("Teh samples were dried and weighed. We measured a a second sample.\nTheir is no evidence of change.")],
      ["damaged-file.docx", unreadableDocx()],
    ] as const) {
      await page.goto("/en/researcher/digital-editing");
      await page.locator("#digital-file").setInputFiles({ name, mimeType: DOCX, buffer });
      await page.getByLabel("British English").check();
      await page.getByRole("button", { name: "Proofread my document" }).click();
      await page.waitForURL(/\/en\/researcher\/digital-editing$/);
      await settled(page, "digital-edit", name);
    }
    // Three Spanish translations, one used.
    await page.goto("/en/researcher/digital-translations/purchase?package=three-uses&language=es_ES");
    await payByPayPal(page, "Pay");
    await page.goto("/en/researcher/digital-translations");
    await page
      .locator("#digital-file")
      .setInputFiles({ name: "resultados-preliminares.docx", mimeType: DOCX, buffer: await makeDocx("La casa es grande.") });
    await page.getByLabel("Language of the document").selectOption("es_ES");
    await page.getByRole("button", { name: "Translate into English" }).click();
    await settled(page, "digital-order", "resultados-preliminares.docx");

    const edits = (await (await page.request.get("/api/digital-edit/search")).json()) as {
      results: { identity: string; fileName: string }[];
    };
    const done = edits.results.find((r) => r.fileName === good)!;
    const failed = edits.results.find((r) => r.fileName !== good)!;
    await shoot("editing-list", `/${lang}/researcher/digital-editing`);
    await shoot("editing-details", `/${lang}/researcher/digital-editing/details/${done.identity}`);
    await shoot("editing-delete", `/${lang}/researcher/digital-editing/delete/${failed.identity}`);
    await shoot("translations-list", `/${lang}/researcher/digital-translations`);
    await shoot("add-in", `/${lang}/researcher/digital-editing/add-in`);
    await shoot("survey", `/${lang}/researcher/digital-editing/survey`);
    // The survey answered (the no-JavaScript thanks), then read by staff.
    await page.goto(`/${lang}/researcher/digital-editing/survey`);
    await page.locator('input[name="usefulness"][value="4"]').check();
    await page.locator('input[name="recommend"][value="yes"]').check();
    await page.locator("#digital-survey-comment").fill("Útil para o primeiro rascunho; 有用。");
    await page.locator(".digital-survey button[type=submit]").click();
    await page.screenshot({ path: path.join(DIR, `${lang}-survey-thanks-1280.png`), fullPage: true });

    const staffContext = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const staff = await staffContext.newPage();
    expect((await staff.request.post("/api/auth/login", { data: STAFF })).status()).toBe(200);
    for (const width of [360, 1280]) {
      await staff.setViewportSize({ width, height: 900 });
      await staff.goto(`/${lang}/staff/surveys`);
      await staff.screenshot({ path: path.join(DIR, `${lang}-staff-surveys-${width}.png`), fullPage: true });
    }
    await staffContext.close();
  });
}
