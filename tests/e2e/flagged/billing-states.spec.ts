import { expect, test } from "@playwright/test";
import { newResearcher } from "../helpers";

// Issue 22 item 5 (ADR 067), on the second portal, which keeps the spec's default of config prepayBankTransfer:
// the prepay form shows bank transfer disabled (spec 2 §6, spec 3 §6), with and without JavaScript.

test("the prepay form shows bank transfer disabled; the card and PayPal stay selectable", async ({ page }) => {
  await newResearcher(page.request);
  await page.goto("/en/researcher/prepay");
  await page.getByLabel("Amount (USD)").fill("500");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.locator(".prepay-locked")).toContainText("$500");
  await expect(page.locator(".pm-method", { hasText: "Bank transfer" })).toBeVisible();
  await expect(page.locator(".pm-radio-9")).toBeDisabled();
  await expect(page.locator(".pm-method", { hasText: "Bank transfer" })).toContainText("Not available here");
  await expect(page.locator(".pm-radio-3")).toBeEnabled();
  // A click on the disabled method chooses nothing.
  await page.locator(".pm-method", { hasText: "Bank transfer" }).click({ force: true });
  await expect(page.locator(".pm-radio-9")).not.toBeChecked();
});
