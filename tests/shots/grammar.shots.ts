import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { makeDocx } from "../helpers/fixtures";
import { plantedDocx, unreadableDocx } from "../e2e/fixtures/grammar-manuscripts";

// The grammar check screenshots (issue 23 "Done when"): the list with rows and the reports (an exceptional one and a
// poor one, whose next steps differ), JavaScript off, cn and br, 360 and 1280 px wide, saved to GRAMMAR_SHOTS_DIR
// (/work/shots/grammar by default) for a person to look at. Run: npx playwright test -c tests/shots/playwright.config.ts
// tests/shots/grammar.shots.ts (after the build). Not a test suite.
const DIR = process.env.GRAMMAR_SHOTS_DIR ?? "/work/shots/grammar";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** Many errors of every kind: a text that scores poor and gets the editing next steps. */
const ROUGH = [
  "Teh results shows that protien levels was higher then expected in teh samples , and this are important .",
  "Their is many reason for this this effect, wich we dicuss below , allthough the the data is limited.",
  "Its clear that the the method need more work , and we beleive that futher studys will definately help.",
]
  .join("\n")
  .repeat(4);

async function account(request: APIRequestContext, country: string, currency: string) {
  const email = `shots-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
  const password = "Shots#Grammar-2026";
  const r = await request.post("/api/auth/register", {
    data: {
      email,
      password,
      firstName: "Ana",
      lastName: "Souza",
      countryCode: "US",
      phoneNumber: "2025550123",
      country,
      currency,
      language: "en",
      agreeToTOS: true,
    },
  });
  expect(r.status(), await r.text()).toBe(201);
  return { email, password };
}

async function upload(page: Page, lang: string, name: string, buffer: Buffer): Promise<string> {
  await page.goto(`/${lang}/researcher/grammar-check`);
  await page.locator("#gc-file").setInputFiles({ name, mimeType: DOCX, buffer });
  await page.locator("form.gc-upload button[type=submit]").click();
  await page.waitForURL(/\/details\//);
  return page.url();
}

async function settled(page: Page, url: string) {
  for (let i = 0; i < 60; i++) {
    await page.goto(url);
    if ((await page.locator(".issue-list, .alert-danger").count()) > 0) return;
    await page.waitForTimeout(1000);
  }
  throw new Error(`not settled: ${url}`);
}

for (const [lang, country, currency] of [
  ["cn", "CN", "CNY"],
  ["br", "BR", "BRL"],
] as const) {
  test(`grammar check pages in ${lang}`, async ({ page, request }) => {
    fs.mkdirSync(DIR, { recursive: true });
    const user = await account(request, country, currency).catch(() => account(request, "US", "USD"));
    expect((await page.request.post("/api/auth/login", { data: user })).status()).toBe(200);
    const good = await upload(page, lang, "drought-soil-bacteria.docx", await plantedDocx());
    const rough = await upload(page, lang, "first-draft-methods.docx", await makeDocx(ROUGH));
    const broken = await upload(page, lang, "damaged-file.docx", unreadableDocx());
    for (const url of [good, rough, broken]) await settled(page, url);
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      const shots: [string, string][] = [
        ["list", `/${lang}/researcher/grammar-check`],
        ["report-exceptional", new URL(good).pathname],
        ["report-poor", new URL(rough).pathname],
        // The no-JavaScript confirmation pages (ADR 071): archive a completed check, delete a failed one.
        ["confirm-archive", new URL(good).pathname.replace("/details/", "/archive/")],
        ["confirm-delete", new URL(broken).pathname.replace("/details/", "/delete/")],
      ];
      for (const [name, url] of shots) {
        await page.goto(url);
        await page.screenshot({ path: path.join(DIR, `${lang}-${name}-${width}.png`), fullPage: true });
      }
    }
  });
}
