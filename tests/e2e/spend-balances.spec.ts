import { expect, test } from "@playwright/test";
import { SEEDED_STAFF, draftAtPayment, guardThirdParty, jsEnabled, newResearcher, signIn, signInApi, whenHydrated } from "./helpers";
import { SPEND_OWNERS } from "./fixtures/spend-owners";

// Issue 13 "spending balances": a researcher with a paid prepayment ($50, seeded at start-up) pays an order in
// the wizard partly from it — the rest by the card sandbox with JavaScript, by bank transfer without — and staff
// grant a courtesy credit at /staff/credits that the researcher then sees on the dashboard.

const cents = (text: string) => Math.round(Number(text.replace(/[^0-9.]/g, "")) * 100);

test.describe("spending balances", () => {
  test("an order paid partly from the prepayment, the rest by card (JS) or bank transfer (no JS)", async ({ page, baseURL }, info) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    const owner = SPEND_OWNERS.find((o) => o.project === info.project.name)!;
    await signInApi(page, owner);
    await draftAtPayment(page.request, `Prepaid order ${info.project.name}`);
    await page.goto("/en/researcher/submit/payment-details");
    const panel = page.locator("fieldset.balance-panel");
    await expect(panel).toContainText("Prepayment available: $50");
    const total = cents((await panel.locator("#balance-payable").textContent()) ?? "");
    expect(total).toBeGreaterThan(2000);

    // A partial amount above the maximum is refused with the maximum in the message.
    await panel.getByLabel("Use part of it (enter the amount)").check();
    await panel.getByLabel("Prepayment amount to use (USD)").fill("60");
    await panel.getByRole("button", { name: "Update total" }).click();
    await expect(page.getByText("Prepay amount cannot exceed $50")).toBeVisible();

    // $20 from the prepayment: the amount payable drops by $20, nothing is paid yet.
    await panel.getByLabel("Prepayment amount to use (USD)").fill("20");
    await panel.getByRole("button", { name: "Update total" }).click();
    await expect(panel.locator("#balance-payable")).toHaveText(`$${(total - 2000) / 100}`);
    await expect(panel).toContainText("−$20");

    if (jsEnabled(info)) {
      await page.locator(".pm-method", { hasText: "Credit card" }).click();
      await whenHydrated(page);
      const billing = page.locator("fieldset.pm-address").first();
      await billing.getByLabel("Address", { exact: true }).fill("1 Main Street");
      await billing.getByLabel("City").fill("Boston");
      await billing.getByLabel("Country").selectOption({ label: "United States" });
      await billing.getByLabel("State or province").selectOption({ label: "Massachusetts" });
      await billing.getByLabel("Zip or postcode").fill("02108");
      const fields = page.frameLocator(".card-fields-frame");
      await fields.getByLabel("Card number").fill("4111 1111 1111 1111");
      await fields.getByLabel("Expiry (MM/YY)").fill("12/30");
      await fields.getByLabel("Security code").fill("123");
      await expect(fields.locator("#card-result")).toContainText("1111");
    } else {
      await page.locator(".pm-method", { hasText: "Bank transfer" }).click();
    }
    await page.getByLabel("I accept the terms of service").check();
    await page.getByRole("button", { name: "Place order" }).click();
    await page.waitForURL(/\/thank-you$/);

    const load = await (await page.request.get("/api/invoice/load")).json();
    expect(load.prepayments.map((p: { balance: number }) => p.balance)).toEqual([3000]);
    const orders = (await (await page.request.get("/api/order/search")).json()).orders;
    expect(orders).toHaveLength(1);
    if (jsEnabled(info)) {
      // The card paid the rest: the order is paid.
      await expect(page.locator("[data-payment=paid]")).toBeVisible();
      expect(orders[0].paid).toBe(true);
    } else {
      // The bank transfer's invoice keeps only the rest due.
      await expect(page.locator("[data-payment=invoice]")).toContainText(/Please pay invoice INV\d+/);
      expect(orders[0].paid).toBe(false);
      const unpaid = load.unpaidInvoices as { balance: number }[];
      expect(unpaid.map((i) => i.balance)).toEqual([total - 2000]);
    }
    checkOrigins();
  });

  test("staff grant a courtesy credit; the researcher sees it", async ({ page, browser, baseURL }, info) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    // The researcher in a browser context of their own (same JavaScript setting as the project).
    const context = await browser.newContext({ baseURL, javaScriptEnabled: jsEnabled(info) });
    const mine = await context.newPage();
    const researcher = await newResearcher(mine.request);
    await signIn(page, SEEDED_STAFF);
    await page.goto("/en/staff/credits");
    await page.getByLabel("Researcher's e-mail").fill(researcher.email);
    await page.getByRole("button", { name: "Find" }).click();
    await expect(page.getByText("This researcher has no credits.")).toBeVisible();
    await page.getByLabel("Amount", { exact: true }).fill("15");
    await page.getByLabel("Note (why it is granted)").fill("Sorry for the late delivery");
    await page.getByRole("button", { name: "Grant credit" }).click();
    await expect(page.getByText(/Credit CR\d+ was granted\./)).toBeVisible();
    await expect(page.locator(".staff-credits-table")).toContainText("Sorry for the late delivery");
    await expect(page.locator(".staff-credits-table")).toContainText("$15");
    checkOrigins();

    await signInApi(mine, researcher);
    await mine.goto("/en/researcher");
    const widget = mine.locator(".prepay-widget");
    await expect(widget).toContainText("Prepay and credits");
    await expect(widget).toContainText("$15");
    await context.close();
  });
});
