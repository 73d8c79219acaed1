import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Browser } from "@playwright/test";
import { SEEDED_STAFF, placeBankTransferOrder } from "../e2e/helpers";

// The rewards and promotions screenshots (issue 25 "Done when", ADR 075): /researcher/rewards, /researcher/coupons, the
// dashboard's rewards widget, the thank-you view's rewards block, the staff console's promotions, JavaScript off, cn
// and br, 360 and 1280 px wide, saved to REWARDS_SHOTS_DIR (/work/shots/rewards by default). The researcher's two
// orders are paid by staff in the console (level 1 and its code), and staff make a highlighted campaign code. Run
// after the build: SHOTS_PORT=3315 npx playwright test -c tests/shots/playwright.config.ts tests/shots/rewards.shots.ts.
// Not a test suite.
const DIR = process.env.REWARDS_SHOTS_DIR ?? "/work/shots/rewards";

async function account(request: APIRequestContext, country: string, currency: string) {
  const email = `shots-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
  const password = "Shots#Rewards-2026";
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

async function asStaff(browser: Browser, act: (staff: import("@playwright/test").Page) => Promise<void>) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const staff = await context.newPage();
  expect((await staff.request.post("/api/auth/login", { data: SEEDED_STAFF })).status()).toBe(200);
  await act(staff);
  await context.close();
}

for (const [lang, country, currency] of [
  ["cn", "CN", "CNY"],
  ["br", "BR", "BRL"],
] as const) {
  test(`rewards pages in ${lang}`, async ({ page, request, browser }) => {
    fs.mkdirSync(DIR, { recursive: true });
    const user = await account(request, country, currency).catch(() => account(request, "US", "USD"));
    expect((await page.request.post("/api/auth/login", { data: user })).status()).toBe(200);
    // A Brazilian researcher's payment form asks the Brazil question too.
    const extra = lang === "br" ? { brazilPaymentMethods: "no-requirements" } : {};
    const orders = [
      await placeBankTransferOrder(page.request, "Soil bacteria under drought", extra),
      await placeBankTransferOrder(page.request, "Coral reefs in warmer water", extra),
    ];
    let campaignPage = "";
    await asStaff(browser, async (staff) => {
      for (const o of orders) {
        await staff.goto(`/en/staff/orders/${o.externalId}`);
        await staff.getByLabel("Bank reference").fill(`WIRE-${o.externalId}`);
        await staff.getByRole("button", { name: "Record payment" }).click();
        await expect(staff.getByText("The payment has been recorded.")).toBeVisible();
      }
      await staff.goto("/en/staff/promotions");
      await staff.getByLabel("Name", { exact: true }).fill(`Spring ${lang} ${Date.now()}`);
      await staff.getByLabel("Highlight on the researchers' rewards page").check();
      await staff.getByRole("button", { name: "Create campaign" }).click();
      await staff.getByLabel("Code", { exact: true }).fill(`SPRING-${lang}-${Date.now()}`.toUpperCase());
      await staff.getByLabel("Name shown to researchers").fill(lang === "cn" ? "春季优惠" : "Promoção de primavera");
      await staff.getByLabel("Percent off").fill("15");
      await staff.getByRole("button", { name: "Add code" }).click();
      campaignPage = new URL(staff.url()).pathname.replace(/^\/en\//, `/${lang}/`);
    });
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      const shoot = async (name: string, url: string) => {
        await page.goto(url);
        await page.screenshot({ path: path.join(DIR, `${lang}-${name}-${width}.png`), fullPage: true });
      };
      await shoot("rewards", `/${lang}/researcher/rewards`);
      await shoot("coupons", `/${lang}/researcher/coupons`);
      await shoot("dashboard-widget", `/${lang}/researcher`);
      await shoot("thank-you", `/${lang}/researcher/index/details/${orders[1].externalId}/thank-you`);
    }
    await asStaff(browser, async (staff) => {
      for (const width of [360, 1280]) {
        await staff.setViewportSize({ width, height: 900 });
        await staff.goto(`/${lang}/staff/promotions`);
        await staff.screenshot({ path: path.join(DIR, `${lang}-staff-promotions-${width}.png`), fullPage: true });
        await staff.goto(campaignPage);
        await staff.screenshot({ path: path.join(DIR, `${lang}-staff-campaign-${width}.png`), fullPage: true });
      }
    });
  });
}
