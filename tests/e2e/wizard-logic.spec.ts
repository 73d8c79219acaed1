// Issue 9 §3: wizard defects whose behaviour needs the browser (items 7, 10 and 12), with and without
// JavaScript where it applies.
import { expect, test, type Page } from "@playwright/test";
import { jsEnabled } from "./helpers";
import { makeDocx } from "../helpers/fixtures";

const TEXT = "Soil microbes regulate nitrogen cycling in temperate forests under warming. ".repeat(50);

/** A new visitor's order form with a .docx uploaded and the get-started step saved; ends on the services step. */
async function throughGetStarted(page: Page, words = "3500") {
  await page.goto("/en/researcher/submit/new");
  await page.locator('input[name="customerGoal"][value="manuscript"]').check();
  await page.locator('input[type="file"][name="mainFiles"]').setInputFiles({
    name: "manuscript.docx",
    mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    buffer: await makeDocx(TEXT),
  });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.locator(".file-list")).toContainText("manuscript.docx");
  await page.locator('input[name="wordCount"]').fill(words);
  await page.getByRole("button", { name: "Next", exact: true }).last().click();
  await expect(page).toHaveURL(/\/manuscript-services$/);
}

test.describe("order wizard logic (issue 9 §3)", () => {
  test("§12: the services step reached from 'Start an order' shows translated names, not keys", async ({ page }) => {
    await throughGetStarted(page);
    // Back to the landing page and in again through its "Start an order": a client-side navigation with JavaScript.
    await page.goto("/en");
    await page.getByRole("link", { name: "Start an order" }).first().click();
    await expect(page).toHaveURL(/\/manuscript-services/);
    await expect(page.locator(".service-group legend").first()).toHaveText("Editing");
    await expect(page.locator(".service-card h3").first()).toHaveText("Standard Editing");
    await expect(page.locator("main")).not.toContainText("services.standard-editing");
    await expect(page.locator("main")).not.toContainText("groups.editing");
  });
});
