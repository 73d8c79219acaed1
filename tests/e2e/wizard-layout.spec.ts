// The wizard's layout, with and without JavaScript (issue 9 §1): at 1280 px "My Order" is a sidebar
// beside the step (and stays in view while the step scrolls); at 360 px a collapsible summary sits above
// the step's actions. Also the language switcher is named by what it shows (issue 9 §4).
import { expect, test, type Page } from "@playwright/test";

/** A visitor's new order form on the services step with Standard Editing chosen. */
async function onServices(page: Page) {
  await page.goto("/br/researcher/submit/new");
  await expect(page).toHaveURL(/\/br\/researcher\/submit\/get-started/);
  await page.locator('input[name="customerGoal"][value="manuscript"]').check();
  await page.locator('input[name="uploadFilesLater"]').check();
  await page.locator('input[name="wordCount"]').fill("3500");
  await page.locator('.wizard-actions button[value="next"]').click();
  await expect(page).toHaveURL(/\/manuscript-services$/);
  await page.locator('.service-card button[name="toggle"][value="standard-editing"]').click();
  await expect(page.locator('.service-card button[value="standard-editing"]')).toHaveAttribute("aria-pressed", "true");
  await expect(page.locator(".my-order")).toContainText("Revisão Padrão");
}

test.describe("wizard layout", () => {
  test("1280 px: My Order is a sticky sidebar beside the step content", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await onServices(page);
    const main = (await page.locator(".wizard-main").boundingBox())!;
    const aside = (await page.locator(".my-order").boundingBox())!;
    expect(aside.x).toBeGreaterThanOrEqual(main.x + main.width);
    expect(aside.y).toBeLessThan(main.y + main.height);
    expect(main.y).toBeLessThan(aside.y + aside.height);
    await expect(page.locator(".my-order .summary-table")).toBeVisible();
    await expect(page.locator(".order-peek")).toBeHidden();
    // Scrolled to the step's actions, the summary is still in view, 35 px below the fixed top bar.
    await page.locator(".wizard-actions").scrollIntoViewIfNeeded();
    const bar = (await page.locator(".wizard-header").boundingBox())!;
    const stuck = (await page.locator(".my-order").boundingBox())!;
    expect(bar.y).toBe(0);
    expect(Math.round(stuck.y)).toBe(Math.round(bar.height + 35));
    // The step bar is an ordered list that marks the current step.
    await expect(page.locator('.step-bar ol > li[aria-current="step"]')).toHaveCount(1);
  });

  test("360 px: a collapsible summary sits above the step's actions", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await onServices(page);
    const peek = page.locator(".order-peek");
    await expect(peek).toBeVisible();
    await expect(peek).toContainText(/\$\s?260/);
    const peekBox = (await peek.boundingBox())!;
    const actions = (await page.locator(".wizard-actions").boundingBox())!;
    expect(peekBox.y + peekBox.height).toBeLessThanOrEqual(actions.y);
    expect(peekBox.x + peekBox.width).toBeLessThanOrEqual(360);
    // Closed at first, it opens on its summary line (a <details>: no JavaScript needed).
    await expect(peek.locator(".summary-table")).toBeHidden();
    await peek.locator("summary").click();
    await expect(peek.locator(".summary-table")).toBeVisible();
    await expect(peek.locator(".summary-table")).toContainText("Revisão Padrão");
    // The page does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });

  test("the language switcher's accessible name contains its visible text", async ({ page }) => {
    await page.goto("/cn/login");
    const summary = page.locator(".lang-switcher summary");
    await expect(summary).toHaveAccessibleName(/^中文/);
  });
});
