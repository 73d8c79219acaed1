import { expect, test } from "@playwright/test";
import { guardThirdParty, jsEnabled, newResearcher, placeBankTransferOrder } from "./helpers";

test.describe("researcher dashboard", () => {
  test("lists the orders, filters by title, resets, and shares the referral link", async ({ page, context, baseURL }, info) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    const user = await newResearcher(page.request);
    expect((await page.request.post("/api/auth/login", { data: { email: user.email, password: user.password } })).status()).toBe(200);
    const glacier = (await placeBankTransferOrder(page.request, "Retreating glaciers of the Alps")).externalId;
    const soil = (await placeBankTransferOrder(page.request, "Soil bacteria under drought")).externalId;

    await page.goto("/en/researcher");
    await expect(page).toHaveTitle(/Researcher home/);
    await expect(page.getByRole("heading", { name: "My Orders" })).toBeVisible();
    // An order panel: number, title, status, services, the links it offers.
    const panel = page.locator(`[data-order="${soil}"]`);
    await expect(panel.getByRole("heading")).toContainText(soil);
    await expect(panel.getByRole("link", { name: "Soil bacteria under drought" })).toBeVisible();
    await expect(panel).toContainText("Awaiting payment");
    await expect(panel).toContainText("Standard Editing");
    await expect(panel.getByRole("link", { name: "Contact support" })).toHaveAttribute("href", `/en/support/index/submission/${soil}`);
    await expect(page.getByText("You have unpaid invoices")).toBeVisible();
    await expect(page.getByRole("link", { name: "Pay Now", exact: true })).toHaveAttribute("href", "/en/researcher/invoices/unpaid");
    // Each order's panel offers to pay its own invoice.
    await expect(page.getByRole("link", { name: "Pay this invoice" })).toHaveCount(2);

    // Filter by title: the path form, page 1, only the matching order.
    await page.getByLabel("Order title").fill("glaciers");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/en\/researcher\/index\/orders\/_\/glaciers\/_\/_\/1$/);
    await expect(page.locator(`[data-order="${glacier}"]`)).toBeVisible();
    await expect(page.locator(`[data-order="${soil}"]`)).toHaveCount(0);
    await expect(page.getByLabel("Order title")).toHaveValue("glaciers");

    // A bad date is a field error, not an error page.
    await page.getByLabel("From date").fill("31/12/2026");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("Enter a date as MM/dd/yyyy")).toBeVisible();

    // Clear: every order again.
    await page.getByRole("link", { name: "Clear" }).click();
    await expect(page).toHaveURL(/\/en\/researcher$/);
    await expect(page.locator("[data-order]")).toHaveCount(2);
    await expect(page.getByLabel("Order title")).toHaveValue("");

    // The referral link: always selectable; with JavaScript a copy button puts it on the clipboard.
    const field = page.getByLabel("Your referral link");
    await expect(field).toHaveAttribute("readonly", "");
    const link = await field.inputValue();
    expect(link).toMatch(/\/register\?referralCode=[2-9A-HJ-NP-Z]{12}$/);
    await expect(page.getByRole("link", { name: "My referrals" })).toHaveAttribute("href", "/en/referral-rewards");
    const copy = page.getByRole("button", { name: "Copy link" });
    if (jsEnabled(info)) {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await copy.click();
      await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    } else {
      await expect(copy).toHaveCount(0);
    }
    checkOrigins();
  });

  test("shows the empty state in Chinese to a researcher without orders", async ({ page }) => {
    const user = await newResearcher(page.request);
    expect((await page.request.post("/api/auth/login", { data: { email: user.email, password: user.password } })).status()).toBe(200);
    await page.goto("/cn/researcher");
    await expect(page.getByRole("heading", { name: "我的订单" })).toBeVisible();
    await expect(page.getByText("您尚未提交任何稿件")).toBeVisible();
    await expect(page.getByRole("link", { name: "提交稿件" })).toHaveAttribute("href", "/cn/researcher/submit/new");
    await expect(page.getByLabel("订单标题")).toHaveCount(0);
  });
});
