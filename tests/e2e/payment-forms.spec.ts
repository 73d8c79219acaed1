import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { draftAtPayment, jsEnabled, newResearcher, placeBankTransferOrder } from "./helpers";

// Issue 22 item 6, the payment forms (ADR 067), with and without JavaScript: a refused payment shows the error
// summary at the top (role=alert, focused, each entry linking to its field) on the pay-many page, the wizard's
// payment step and the prepay form; the address label sits above its input; the pay-many page says what is paid
// (the invoices, the total) beside the method, terms and Pay button; its summary card sits at the top of its column.

async function labelAboveInput(page: Page, name: string) {
  const input = page.locator(`input[name="${name}"]`);
  const label = page.locator(`label[for="${await input.getAttribute("id")}"]`);
  const [l, i] = [(await label.boundingBox())!, (await input.boundingBox())!];
  // Above it, and starting at the same left edge (not beside it).
  expect(l.y + l.height).toBeLessThanOrEqual(i.y + 1);
  expect(Math.abs(l.x - i.x)).toBeLessThan(2);
}

async function expectFocusedSummary(page: Page) {
  const summary = page.locator(".error-summary");
  await expect(summary).toBeVisible();
  await expect(summary).toHaveAttribute("role", "alert");
  await expect(summary).toBeFocused();
  return summary;
}

test("the pay-many page: what is paid, the method, the terms; a refusal's summary at the top, its links to the fields", async ({
  page,
}, info) => {
  await newResearcher(page.request);
  const a = await placeBankTransferOrder(page.request, "First of two invoices");
  const b = await placeBankTransferOrder(page.request, "Second of two invoices");
  await page.setViewportSize({ width: 1280, height: 700 });
  await page.goto(`/en/researcher/invoices/pay/${a.invoiceNumber},${b.invoiceNumber}`);
  await expect(page.getByRole("heading", { name: "Pay invoices" })).toBeVisible();
  await expect(page.locator(".payoff-lead")).toContainText("Invoices to pay: 2. Total: $");
  const summaryCard = page.locator(".payoff-summary");
  await expect(summaryCard.getByRole("cell", { name: a.invoiceNumber })).toBeVisible();
  await expect(summaryCard.getByRole("cell", { name: b.invoiceNumber })).toBeVisible();
  await expect(page.locator(".pm-method", { hasText: "PayPal" })).toBeVisible();

  await page.locator(".pm-method", { hasText: "PayPal" }).click();
  await labelAboveInput(page, "address.address1");
  // Scrolled down to the terms, then Pay now without them or an address.
  await page.getByLabel("I accept the terms of service").scrollIntoViewIfNeeded();
  await summaryCard.getByRole("button", { name: "Pay now" }).click();

  const summary = await expectFocusedSummary(page);
  await expect(summary.locator("h2")).toHaveText("Please correct the following");
  const address = summary.getByRole("link", { name: /^Address: / });
  await expect(address).toHaveAttribute("href", "#pf-address-address1");
  await expect(summary.getByRole("link", { name: /^I accept the terms of service: / })).toHaveAttribute("href", "#pf-acceptTerms");
  // The summary card sits at the top of its column, level with the form, in view (not half-way down the page).
  const [form, card] = [(await page.locator("#payment-form").boundingBox())!, (await summaryCard.boundingBox())!];
  expect(Math.abs(form.y - card.y)).toBeLessThan(2);
  expect(card.y).toBeGreaterThanOrEqual(0);
  expect(card.y).toBeLessThan(700);
  await labelAboveInput(page, "address.address1");

  if (jsEnabled(info)) {
    await address.click();
    await expect(page.locator('input[name="address.address1"]')).toBeFocused();
    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  }
});

test("the wizard's payment step and the prepay form show the same summary", async ({ page }, info) => {
  await newResearcher(page.request);
  await draftAtPayment(page.request, "Error summary on the payment step");
  await page.goto("/en/researcher/submit/payment-details");
  await page.locator(".pm-method", { hasText: "PayPal" }).click();
  await labelAboveInput(page, "address.address1");
  await page.getByRole("button", { name: "Place order" }).click();
  const summary = await expectFocusedSummary(page);
  await expect(summary.getByRole("link", { name: /^I accept the terms of service: / })).toHaveAttribute("href", "#pf-acceptTerms");
  await expect(summary.getByRole("link", { name: /^City: / })).toHaveAttribute("href", "#pf-address-city");

  await page.goto("/en/researcher/prepay");
  await page.getByLabel("Amount (USD)").fill("40");
  await page.getByRole("button", { name: "Next" }).click();
  const prepay = await expectFocusedSummary(page);
  const amount = prepay.getByRole("link", { name: /^Amount \(USD\): The amount needs to be more than \$100/ });
  await expect(amount).toHaveAttribute("href", "#prepay-amount");
  if (jsEnabled(info)) {
    await amount.click();
    await expect(page.getByLabel("Amount (USD)")).toBeFocused();
    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  }
});
