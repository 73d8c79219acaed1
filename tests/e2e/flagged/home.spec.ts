import { expect, test } from "@playwright/test";
import { guardThirdParty, newResearcher } from "../helpers";

// Issue 25 item 6 (ADR 077): /home with curie_is_launched on (this portal's FLAG_CURIE_IS_LAUNCHED): the welcome,
// recent orders and documents with their links, the 'more options' widgets; the spam banner hidden with a form
// post; the sub-navigation elsewhere (not on /home). With JavaScript and without.
test("home: welcome, recent lists, more options, spam banner dismissed; sub-navigation elsewhere", async ({ page, baseURL }) => {
  const checkOrigins = guardThirdParty(page, baseURL!);
  const user = await newResearcher(page.request);
  expect((await page.request.post("/api/auth/login", { data: { email: user.email, password: user.password } })).status()).toBe(200);

  await page.goto("/en/home");
  await expect(page.getByRole("heading", { level: 1, name: "Welcome, Ada Lovelace" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recent orders" })).toBeVisible();
  await expect(page.getByRole("link", { name: "See all your orders" })).toHaveAttribute("href", "/en/researcher");
  await expect(page.getByRole("link", { name: "See all your documents" })).toHaveAttribute("href", "/en/rubriq");
  await expect(page.getByRole("heading", { name: "Join a group" })).toBeVisible();
  await expect(page.getByLabel("Your referral link")).toBeVisible();
  await expect(page.locator(".sub-nav")).toHaveCount(0);

  // A new account's address is not verified yet: the spam banner shows until it is hidden.
  const banner = page.locator(".spam-banner");
  await expect(banner).toContainText("check your spam");
  await banner.getByRole("button", { name: "Got it, hide this" }).click();
  await expect(page).toHaveURL(/\/en\/home$/);
  await expect(page.locator(".spam-banner")).toHaveCount(0);

  await page.goto("/en/account");
  const subnav = page.getByRole("navigation", { name: "Your account areas" });
  await expect(subnav).toContainText("Welcome, Ada Lovelace");
  await expect(subnav.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/en/home");
  checkOrigins();
});
