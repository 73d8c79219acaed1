import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { SEEDED_STAFF, placeBankTransferOrder } from "../e2e/helpers";

// The home area and preferred group screenshots (issue 25 "Done when", ADR 077): /home (with the spam banner and
// orders), the dashboard's group widgets (join, a wrong code, member), /rubriq, the staff console's groups, JavaScript
// off, cn and br, 360 and 1280 px wide, saved to HOME_SHOTS_DIR (/work/shots/home by default). Run with the home
// area open: FLAG_CURIE_IS_LAUNCHED=true SHOTS_PORT=3335 npx playwright test -c tests/shots/playwright.config.ts
// tests/shots/home.shots.ts (after the build). Not a test suite.
const DIR = process.env.HOME_SHOTS_DIR ?? "/work/shots/home";

async function account(request: APIRequestContext, country: string, currency: string) {
  const email = `shots-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
  const password = "Shots#Home-2026";
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

for (const [lang, country, currency] of [
  ["cn", "CN", "CNY"],
  ["br", "BR", "BRL"],
] as const) {
  test(`home and group pages in ${lang}`, async ({ page, request, browser }) => {
    fs.mkdirSync(DIR, { recursive: true });
    const user = await account(request, country, currency).catch(() => account(request, "US", "USD"));
    expect((await page.request.post("/api/auth/login", { data: user })).status()).toBe(200);
    await placeBankTransferOrder(page.request, "Soil bacteria under drought").catch(() => null);
    const shoot = async (name: string, url: string | null, width: number) => {
      if (url) await page.goto(url);
      await page.screenshot({ path: path.join(DIR, `${lang}-${name}-${width}.png`), fullPage: true });
    };
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await shoot("home", `/${lang}/home`, width);
      await shoot("dashboard-join", `/${lang}/researcher`, width);
      await page.locator("#group-code").fill("NOT-A-GROUP");
      await page.locator(".join-group-widget button[type=submit]").click();
      await shoot("dashboard-join-error", null, width);
      await page.locator("#group-code").fill("uni-demo");
      await page.locator(".join-group-widget button[type=submit]").click();
      await shoot("dashboard-member", null, width);
      await shoot("home-member", `/${lang}/home`, width);
      await page.locator(".group-widget button[type=submit]").click();
      await shoot("rubriq", `/${lang}/rubriq`, width);
      await shoot("account-subnav", `/${lang}/account`, width);
      // On the China localisation (the cn account is registered in China) plans are not sold without the flag.
      if (lang === "cn") await shoot("rubriq-plan-china", `/${lang}/rubriq/plan/subscribe`, width);
    }
    const staffContext = await browser.newContext({ javaScriptEnabled: false });
    const staff = await staffContext.newPage();
    expect((await staff.request.post("/api/auth/login", { data: SEEDED_STAFF })).status()).toBe(200);
    const id = await (async () => {
      await staff.goto(`/${lang}/staff/groups`);
      const href = await staff.locator("table a").first().getAttribute("href");
      return href!.split("/").pop()!;
    })();
    for (const width of [360, 1280]) {
      await staff.setViewportSize({ width, height: 900 });
      await staff.goto(`/${lang}/staff/groups`);
      await staff.screenshot({ path: path.join(DIR, `${lang}-staff-groups-${width}.png`), fullPage: true });
      await staff.goto(`/${lang}/staff/groups/${id}`);
      await staff.screenshot({ path: path.join(DIR, `${lang}-staff-group-edit-${width}.png`), fullPage: true });
    }
    await staffContext.close();
  });
}
