import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import sharp from "sharp";
import { SEEDED_STAFF } from "../e2e/helpers";

// The referral and testimonial screenshots (issue 25 "Done when", ADR 076): 'My Referrals' (with a referred
// colleague), the testimonial form with its error, the staff testimonials list and one testimonial with its photo,
// JavaScript off, cn and br, 360 and 1280 px wide, saved to REFERRALS_SHOTS_DIR (/work/shots/referrals by default).
// Run after the build: SHOTS_PORT=3325 npx playwright test -c tests/shots/playwright.config.ts tests/shots/referrals.shots.ts
const DIR = process.env.REFERRALS_SHOTS_DIR ?? "/work/shots/referrals";

async function account(
  request: APIRequestContext,
  lang: string,
  country: string,
  currency: string,
  firstName: string,
  referralCode?: string,
) {
  const email = `shots-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
  const password = "Shots#Referral-2026";
  const r = await request.post("/api/auth/register", {
    data: {
      email,
      password,
      firstName,
      lastName: "Souza",
      countryCode: "US",
      phoneNumber: "2025550123",
      country,
      currency,
      language: lang,
      agreeToTOS: true,
      referralCode,
    },
  });
  expect(r.status(), await r.text()).toBe(201);
  return { email, password };
}

for (const [lang, country, currency] of [
  ["cn", "CN", "CNY"],
  ["br", "BR", "BRL"],
] as const) {
  test(`referral and testimonial pages in ${lang}`, async ({ page, browser, playwright, baseURL }) => {
    fs.mkdirSync(DIR, { recursive: true });
    const user = await account(page.request, lang, country, currency, "Ana").catch(() => account(page.request, lang, "US", "USD", "Ana"));
    expect((await page.request.post("/api/auth/login", { data: user })).status()).toBe(200);
    const load = await (await page.request.get("/api/referral-rewards/load")).json();
    // A colleague registers through the link (a fresh request context: no session).
    const other = await playwright.request.newContext({ baseURL });
    await account(other, lang, "US", "USD", "Bruno", load.referralCode);
    await other.dispose();
    const PNG = await sharp({ create: { width: 480, height: 320, channels: 3, background: { r: 40, g: 110, b: 150 } } })
      .png()
      .toBuffer();
    const text = lang === "cn" ? "润色非常专业，返回也很快。" : "Revisão cuidadosa e rápida. Recomendo!";
    const created = await page.request.post("/api/testimonials/create", {
      multipart: { testimonial: text, testimonialFiles: { name: "me.png", mimeType: "image/png", buffer: PNG } },
    });
    expect(created.status()).toBe(201);
    const { id } = await created.json();
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/${lang}/referral-rewards`);
      await page.screenshot({ path: path.join(DIR, `${lang}-referral-rewards-${width}.png`), fullPage: true });
      await page.goto(`/${lang}/testimonials/submit`);
      await page.screenshot({ path: path.join(DIR, `${lang}-testimonial-form-${width}.png`), fullPage: true });
      await page.locator("form.stack button[type=submit]").click();
      await page.screenshot({ path: path.join(DIR, `${lang}-testimonial-error-${width}.png`), fullPage: true });
      await page.locator("#testimonial-text").fill(text);
      await page.locator("form.stack button[type=submit]").click();
      await page.screenshot({ path: path.join(DIR, `${lang}-testimonial-received-${width}.png`), fullPage: false });
    }
    const staffContext = await browser.newContext({ javaScriptEnabled: false });
    const staff = await staffContext.newPage();
    expect((await staff.request.post("/api/auth/login", { data: SEEDED_STAFF })).status()).toBe(200);
    for (const width of [360, 1280]) {
      await staff.setViewportSize({ width, height: 900 });
      await staff.goto(`/${lang}/staff/testimonials`);
      await staff.screenshot({ path: path.join(DIR, `${lang}-staff-testimonials-${width}.png`), fullPage: true });
      await staff.goto(`/${lang}/staff/testimonials/${id}`);
      await staff.screenshot({ path: path.join(DIR, `${lang}-staff-testimonial-${width}.png`), fullPage: true });
    }
    await staffContext.close();
  });
}
