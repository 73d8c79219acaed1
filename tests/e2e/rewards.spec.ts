import { expect, test } from "@playwright/test";
import { asStaff, draftAtPayment, guardThirdParty, jsEnabled, newResearcher, placeBankTransferOrder } from "./helpers";

// Issue 25 items 1–2 (ADR 075), with and without JavaScript: a researcher whose order is paid sees the points on the
// dashboard's widget and the order in the history of /researcher/rewards; a code staff make in the promotions console
// applies in the wizard's promo field.

test.describe("rewards", () => {
  test("a paid order's points show on the dashboard and in the rewards history", async ({ page, browser, baseURL }, info) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    await newResearcher(page.request);
    const order = await placeBankTransferOrder(page.request, "Rewarded manuscript");

    // Staff record the bank transfer in the console: the invoice is settled in full, the points are in.
    await asStaff(browser, baseURL!, jsEnabled(info), async (staff) => {
      await staff.goto(`/en/staff/orders/${order.externalId}`);
      await staff.waitForLoadState("load");
      await staff.getByLabel("Bank reference").fill(`WIRE-${order.externalId}`);
      await staff.getByRole("button", { name: "Record payment" }).click();
      await expect(staff.getByText("The payment has been recorded.")).toBeVisible();
    });

    const points = String(Math.floor(order.total / 100));
    await page.goto("/en/researcher");
    const widget = page.locator(".rewards-widget");
    await expect(widget).toContainText(`${points} points`);
    await expect(widget.locator("progress")).toBeVisible();
    await widget.getByRole("link", { name: "View my rewards" }).click();
    await expect(page.getByRole("heading", { name: "Rewards", level: 1 })).toBeVisible();
    await expect(page.locator("[data-reward-points]")).toHaveText(points);
    const row = page.locator(".reward-history tbody tr").first();
    await expect(row).toContainText("Order paid");
    await expect(row).toContainText(order.externalId);
    await expect(row).toContainText(`+${points}`);
    checkOrigins();
  });

  test("a campaign code made by staff applies in the wizard", async ({ page, browser, baseURL }, info) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    const code = `E2E-${Date.now()}-${info.project.name}`.toUpperCase().slice(0, 40);
    await asStaff(browser, baseURL!, jsEnabled(info), async (staff) => {
      await staff.goto("/en/staff/promotions");
      await staff.getByLabel("Name", { exact: true }).fill(`Campaign ${code}`);
      await staff.getByRole("button", { name: "Create campaign" }).click();
      await expect(staff.getByText(`Campaign “Campaign ${code}” created.`)).toBeVisible();
      await staff.waitForLoadState("load");
      await staff.getByLabel("Code", { exact: true }).fill(code);
      await staff.getByLabel("Percent off").fill("10");
      await staff.getByRole("button", { name: "Add code" }).click();
      await expect(staff.getByText(`Code ${code} added.`)).toBeVisible();
    });

    await newResearcher(page.request);
    await draftAtPayment(page.request, "Promoted manuscript");
    await page.goto("/en/researcher/submit/payment-details");
    await page.waitForLoadState("load");
    await page.getByLabel("Promo code").fill(code.toLowerCase());
    await page.getByRole("complementary", { name: "My Order" }).getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("Your promo code has been applied.")).toBeVisible();
    checkOrigins();
    await expect(page.getByText(`Promo code ${code}`)).toBeVisible();
  });
});
