// Issue 22 §6: a long form refused shows an error summary at the top (focused, each entry linking to its
// field), and an invalid text input is outlined in the danger colour like a select (a CSS rule used to
// outrank [aria-invalid]). Registration, with and without JavaScript; axe over the refused form.
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { jsEnabled, uniqueEmail } from "./helpers";

const DANGER = "rgb(180, 35, 24)";

test("a refused registration shows a focused error summary whose links lead to the fields", async ({ page }, info) => {
  await page.goto("/br/register");
  await page.locator('input[name="email"]').fill(uniqueEmail("summary"));
  await page.locator("form.stack button[type=submit]").click();
  await expect(page.locator('input[name="password"]')).toBeVisible();
  await page.waitForLoadState("load");
  // Nothing filled in but the e-mail of stage one: send.
  await page.locator("form.stack button[type=submit]").click();

  const summary = page.locator(".error-summary");
  await expect(summary).toBeVisible();
  await expect(summary).toHaveAttribute("role", "alert");
  await expect(summary.locator("h2")).toHaveText("Corrija os itens a seguir");
  // The summary has the focus: the reader starts at the list of problems.
  await expect(summary).toBeFocused();
  const firstName = summary.locator("a", { hasText: /^Nome:/ });
  await expect(firstName).toBeVisible();
  const target = (await firstName.getAttribute("href"))!.slice(1);
  await expect(page.locator(`#${target}`)).toHaveAttribute("name", "firstName");
  await expect(summary.locator("a", { hasText: "Termos de serviço" })).toHaveCount(1);

  // The invalid text input is outlined in red, as the selects are.
  const input = page.locator('input[name="firstName"]');
  await expect(input).toHaveAttribute("aria-invalid", "true");
  expect(await input.evaluate((el) => getComputedStyle(el).borderTopColor)).toBe(DANGER);

  if (jsEnabled(info)) {
    // A link puts the cursor in its field.
    await firstName.click();
    await expect(input).toBeFocused();
    // Correcting an answer takes its line off the summary without moving the cursor.
    await input.fill("Marie");
    await expect(summary.locator("a", { hasText: /^Nome:/ })).toHaveCount(0);
    await expect(input).toBeFocused();
    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  }
});
