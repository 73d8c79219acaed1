import { expect, test, type Page } from "@playwright/test";
import { guardThirdParty, jsEnabled, newResearcher, SEEDED_STAFF, signIn, whenHydrated } from "./helpers";

// Issue 13 "Done when" (prepay part, ADR 040): a researcher prepays 500 USD by bank transfer (the retainer invoice
// is listed unpaid), staff record the transfer on /staff/prepayments/{n}, and the balance banner shows 500 — with
// and without JavaScript. With JavaScript (card entry needs it) a card prepayment through the sandbox.

const banner = (page: Page) => page.locator(".prepay-banner-amount");

async function lockAmount(page: Page, amount: string) {
  await page.goto("/en/researcher/prepay");
  await expect(page.getByRole("heading", { name: "Make a Prepayment" })).toBeVisible();
  await page.getByLabel("Amount (USD)").fill(amount);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.locator(".prepay-locked")).toContainText(`$${amount}`);
}

test.describe("prepay", () => {
  test("prepays 500 USD by bank transfer; staff record it; the balance shows 500", async ({ page, browser, baseURL }, info) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    // Registered through the API, which also signs the page in.
    await newResearcher(page.request);

    // Too little first: the minimum's message, the amount step again.
    await page.goto("/en/researcher/prepay");
    await page.getByLabel("Amount (USD)").fill("40");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("The amount needs to be more than $100", { exact: true })).toBeVisible();

    await page.getByLabel("Amount (USD)").fill("500");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.locator(".prepay-locked")).toContainText("$500");
    // Start over unlocks the amount; Next locks it again.
    await page.getByRole("button", { name: "Start over" }).click();
    await expect(page.getByLabel("Amount (USD)")).toBeVisible();
    await page.getByLabel("Amount (USD)").fill("500");
    await page.getByRole("button", { name: "Next" }).click();
    await page.locator(".pm-method", { hasText: "Bank transfer" }).click();
    await page.getByLabel("I accept the terms of service").check();
    await page.getByRole("button", { name: "Pay now" }).click();
    await page.waitForURL(/\/researcher\/prepay\/PUS\d+\?issued=1$/);
    const number = /\/prepay\/(PUS\d+)/.exec(page.url())![1];
    await expect(page.getByText(`Retainer invoice ${number} has been issued.`)).toBeVisible();
    await expect(page.locator(".prepay-bank")).toContainText("HFBKUS3D");
    const row = page.locator(`tr[data-retainer="${number}"]`);
    await expect(row).toContainText("Awaiting payment");
    await expect(row).toContainText("$500");
    await expect(banner(page)).toHaveText("$0");

    // Staff find it among the unpaid prepayments and record the transfer.
    const staffContext = await browser.newContext({ baseURL, javaScriptEnabled: jsEnabled(info) });
    const staff = await staffContext.newPage();
    await signIn(staff, SEEDED_STAFF);
    await staff.goto("/en/staff/prepayments");
    await staff.getByRole("link", { name: number }).click();
    await expect(staff.getByRole("heading", { name: `Retainer invoice ${number}` })).toBeVisible();
    await staff.getByLabel("Bank reference").fill(`WIRE-${number}`);
    await staff.getByRole("button", { name: "Record transfer" }).click();
    await expect(staff.getByText("The transfer was recorded.")).toBeVisible();
    await expect(staff.locator(".prepay-status-paid")).toBeVisible();
    await staffContext.close();

    await page.goto("/en/researcher/prepay");
    await expect(banner(page)).toHaveText("$500");
    await expect(page.locator(`tr[data-retainer="${number}"]`)).toContainText("Paid");
    const pdf = await page.request.get(`/api/retainer-invoice/${number}/pdf`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    checkOrigins();
  });

  test("a card prepayment through the sandbox (hosted card fields need JavaScript)", async ({ page, baseURL }, info) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    // Registered through the API, which also signs the page in.
    await newResearcher(page.request);
    await lockAmount(page, "250");
    await page.locator(".pm-method", { hasText: "Credit card" }).click();
    if (!jsEnabled(info)) {
      // Without JavaScript the card cannot be entered: the page says so, and a submit charges nothing.
      await expect(page.getByText("Card entry needs JavaScript.")).toBeVisible();
      await page.getByLabel("I accept the terms of service").check();
      await page.getByRole("button", { name: "Pay now" }).click();
      await expect(page.locator(".prepay-locked")).toContainText("$250");
      await page.goto("/en/researcher/prepay");
      await expect(banner(page)).toHaveText("$0");
      checkOrigins();
      return;
    }
    const fields = page.frameLocator(".card-fields-frame");
    await fields.getByLabel("Card number").fill("4111 1111 1111 1111");
    await fields.getByLabel("Expiry (MM/YY)").fill("12/30");
    await fields.getByLabel("Security code").fill("123");
    await expect(fields.locator("#card-result")).toContainText("1111");
    await whenHydrated(page);
    const billing = page.locator("fieldset.pm-address").first();
    await billing.getByLabel("Address", { exact: true }).fill("1 Main Street");
    await billing.getByLabel("City").fill("Boston");
    await billing.getByLabel("Country").selectOption({ label: "United States" });
    await billing.getByLabel("State or province").selectOption({ label: "Massachusetts" });
    await billing.getByLabel("Zip or postcode").fill("02108");
    await page.getByLabel("I accept the terms of service").check();
    await page.getByRole("button", { name: "Pay now" }).click();
    await page.waitForURL(/\/researcher\/prepay\?payment=success$/);
    await expect(page.getByText("Thank you: your prepayment is being processed.")).toBeVisible();
    await expect(banner(page)).toHaveText("$250");
    checkOrigins();
  });
});
