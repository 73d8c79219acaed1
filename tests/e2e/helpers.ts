import { expect, type Page, type TestInfo } from "@playwright/test";

export const DEMO = { email: "researcher@example.com", password: "Researcher#2026", name: "Ada Lovelace" };

export const jsEnabled = (info: TestInfo) => info.project.name === "js";

/** Fails the test if the page asks any origin but ours. */
export function guardThirdParty(page: Page, base: string) {
  const foreign: string[] = [];
  page.on("request", (req) => {
    const url = req.url();
    if (!url.startsWith(base) && !url.startsWith("data:") && !url.startsWith("blob:")) foreign.push(url);
  });
  return () => expect(foreign, "requests to other origins").toEqual([]);
}

export function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;
}

export async function signIn(page: Page, lang = "en", email = DEMO.email, password = DEMO.password) {
  await page.goto(`/${lang}/login`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form.stack button[type="submit"]').click();
  await page.waitForURL((url) => !url.pathname.includes("/login"));
}
