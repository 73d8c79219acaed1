import { expect, test, type APIRequestContext } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { guardThirdParty, jsEnabled, newResearcher, placeBankTransferOrder, whenHydrated } from "./helpers";

const invoiceOf = async (api: APIRequestContext, title: string) => {
  const o = await placeBankTransferOrder(api, title);
  return { number: o.invoiceNumber, total: o.total };
};

const dollars = (cents: number) => `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: cents % 100 ? 2 : 0 })}`;

// Issue 12 §4: three unpaid invoices paid at once on /researcher/invoices/pay/{numbers}. Until a provider's
// sandbox is wired the journey stops at the provider: the summary, the method the page asks for, the refusal.
test.describe("pay many invoices", () => {
  test("lists three invoices with their total and asks for a payment method", async ({ page, baseURL }, info) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    const user = await newResearcher(page.request);
    expect((await page.request.post("/api/auth/login", { data: { email: user.email, password: user.password } })).status()).toBe(200);
    const invoices = [
      await invoiceOf(page.request, "Retreating glaciers"),
      await invoiceOf(page.request, "Soil bacteria"),
      await invoiceOf(page.request, "Coral bleaching"),
    ];

    await page.goto(`/en/researcher/invoices/pay/${invoices.map((i) => i.number).join(",")}`);
    await expect(page).toHaveTitle(/Pay invoices/);
    const summary = page.locator(".payoff-summary");
    await expect(summary.getByRole("heading", { name: "Payoff summary" })).toBeVisible();
    for (const i of invoices) await expect(summary.getByRole("row", { name: new RegExp(i.number) })).toContainText(dollars(i.total));
    const total = invoices.reduce((a, i) => a + i.total, 0);
    await expect(summary.locator("tfoot")).toContainText(dollars(total));
    // Bank transfer pays no existing invoice: the providers' methods only, each marked while it runs in test mode.
    await expect(page.getByRole("radio", { name: /Bank transfer/ })).toHaveCount(0);
    await expect(page.locator(".pm-method", { hasText: "PayPal" })).toContainText("test mode");

    if (jsEnabled(info)) {
      // axe runs as a script in the page: with JavaScript only (no serious or critical violation).
      const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    }
    const payNow = summary.getByRole("button", { name: "Pay now" });
    await whenHydrated(page);
    const billing = page.locator("fieldset.pm-address").first();
    await page.getByLabel("I accept the terms of service").check();
    if (jsEnabled(info)) {
      // With JavaScript, 'Pay now' waits for a method.
      await expect(payNow).toBeDisabled();
      await page.locator(".pm-method", { hasText: "PayPal" }).click();
      await expect(payNow).toBeEnabled();
      // The billing address shows for PayPal; its state list follows the country.
      await expect(billing.getByLabel("Address", { exact: true })).toBeVisible();
      await billing.getByLabel("Country").selectOption({ label: "Brazil" });
      await expect(billing.getByLabel("State or province")).toContainText("São Paulo");
    } else {
      // Without it, the server answers.
      await payNow.click();
      await expect(page.getByText("Please choose a payment method.", { exact: true })).toBeVisible();
      await expect(page.getByLabel("I accept the terms of service")).toBeChecked();
      await page.locator(".pm-method", { hasText: "PayPal" }).click();
      // The sections follow the chosen method without JavaScript too (CSS).
      await expect(billing.getByLabel("Address", { exact: true })).toBeVisible();
    }
    // A missing address is refused field by field, the values kept.
    await billing.getByLabel("City").fill("Durham");
    await payNow.click();
    await expect(page.getByText("Please enter your address.", { exact: true })).toBeVisible();
    await expect(billing.getByLabel("City")).toHaveValue("Durham");
    checkOrigins();
  });
});
