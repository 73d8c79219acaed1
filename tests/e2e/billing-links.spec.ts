import { expect, test, type APIRequestContext } from "@playwright/test";
import {
  asStaff,
  fillBoletoForm,
  guardThirdParty,
  jsEnabled,
  newResearcher,
  payNowAndWaitForPayment,
  placeBankTransferOrder,
  SAO_PAULO_PAYER,
  signedInBrazilian,
  signInApi,
  whenHydrated,
} from "./helpers";

// Issue 21 §4 through the pages, with JavaScript (the HTTP tests prove them without): the unpaid list pays every
// unpaid invoice of every page at once, and an invoice's way to pay (Pay, or its pending boleto) is reachable from
// the invoice list, the order panel and the order details page.

interface Load {
  unpaidInvoices: { invoiceNumber: string; balance: number }[];
}
const load = async (api: APIRequestContext): Promise<Load> => (await api.get("/api/invoice/load")).json();

test.describe("paying from the invoice list", () => {
  test("pay all: every unpaid invoice of every page, paid at once", async ({ page, baseURL }, info) => {
    test.setTimeout(180_000);
    const checkOrigins = guardThirdParty(page, baseURL!);
    const user = await newResearcher(page.request);
    await signInApi(page, user);
    const numbers: string[] = [];
    // Eleven: one more than a page of the list holds.
    for (let k = 0; k < 11; k++) numbers.push((await placeBankTransferOrder(page.request, `Paper ${k + 1}`)).invoiceNumber);

    await page.goto("/en/researcher/invoices/unpaid");
    const boxes = page.locator("input[type=checkbox][name=invoice]");
    await expect(boxes).toHaveCount(10);
    if (jsEnabled(info)) {
      // "Select all on this page" ticks this page's ten and the banner follows; "Pay all" reaches the eleventh too.
      await page.getByRole("button", { name: "Select all on this page" }).click();
      for (const box of await boxes.all()) await expect(box).toBeChecked();
    }
    await page.locator("[data-pay-all]").click();
    await expect(page).toHaveURL(/\/en\/researcher\/invoices\/pay\//);
    const summary = page.locator(".payoff-summary");
    for (const n of numbers) await expect(summary.getByRole("row", { name: new RegExp(n) })).toBeVisible();
    if (!jsEnabled(info)) {
      // Card entry needs JavaScript; without it the pay page offering all eleven is this journey's end.
      checkOrigins();
      return;
    }

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
    await page.getByLabel("I accept the terms of service").check();
    await summary.getByRole("button", { name: "Pay now" }).click();
    await page.waitForURL(/\/en\/researcher\/invoices\/unpaid(\/success|\?payment=success)$/);
    // One payment paid all eleven.
    expect((await load(page.request)).unpaidInvoices).toEqual([]);
    checkOrigins();
  });

  test("Pay, then the pending boleto, from the invoice list, the order panel and the details page", async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const checkOrigins = guardThirdParty(page, baseURL!);
    await signedInBrazilian(page, { prefix: "bia", password: "Bia#Pesquisa-2026", firstName: "Beatriz", lastName: "Lima" });
    const order = await placeBankTransferOrder(page.request, "Sedimentos do Tietê", { brazilPaymentMethods: "no-requirements" });
    const pay = `/br/researcher/invoices/pay/${order.invoiceNumber}`;
    const details = `/br/researcher/index/details/${order.externalId}`;

    // While nothing is pending: Pay, on every page that shows the invoice (the list's own rows: the unpaid view pays
    // by selection instead).
    await page.goto("/br/researcher/invoices");
    const row = page.getByRole("row", { name: new RegExp(order.invoiceNumber) });
    await expect(row.locator("[data-pay]")).toHaveAttribute("href", pay);
    await page.goto("/br/researcher");
    await expect(page.locator(`.order-panel-invoice a[href="${pay}"]`)).toBeVisible();
    await page.goto(details);
    await expect(page.locator(`[data-invoice-panel] a[href="${pay}"]`)).toBeVisible();
    await page.locator(`[data-invoice-panel] a[href="${pay}"]`).click();
    await expect(page).toHaveURL(new RegExp(`${pay}$`));

    // A boleto issued on the pay page.
    await fillBoletoForm(page, { ...SAO_PAULO_PAYER, name: "Beatriz Lima" });
    const pending = await payNowAndWaitForPayment(page);
    const paymentId = pending.split("/").pop()!;
    const boletoPdf = `/api/payment/${paymentId}/boleto.pdf`;

    // Now the boleto instead of Pay, everywhere.
    await page.goto("/br/researcher/invoices");
    await expect(row.locator("[data-pending-payment]")).toHaveAttribute("href", pending);
    await expect(row.locator(`a[href="${boletoPdf}"]`)).toBeVisible();
    await expect(row.locator("[data-pay]")).toHaveCount(0);
    await page.goto("/br/researcher");
    await expect(page.locator(".order-panel-invoice a").filter({ hasText: /boleto/i })).toBeVisible();
    await expect(page.locator(`.order-panel-invoice a[href="${pay}"]`)).toHaveCount(0);
    await page.goto(details);
    const panel = page.locator("[data-invoice-panel]");
    await expect(panel.locator(`a[href="${boletoPdf}"]`)).toBeVisible();
    await expect(panel.locator(`a[href="${pay}"]`)).toHaveCount(0);
    await panel.locator("[data-pending-payment]").click();
    await expect(page).toHaveURL(new RegExp(`${pending}$`));
    await expect(page.locator(".payment-boleto-line")).toBeVisible();
    checkOrigins();
  });
});

test("the staff payments list at 360 px: each payment a card, its amount and status in view", async ({ browser, baseURL }, info) => {
  await asStaff(browser, baseURL!, jsEnabled(info), async (staff) => {
    await staff.setViewportSize({ width: 360, height: 740 });
    await staff.goto("/en/staff/payments");
    const amount = staff.locator("td.staff-payment-amount").first();
    const status = staff.locator("td.staff-payment-status").first();
    await expect(amount).toBeVisible();
    for (const cell of [amount, status]) {
      const box = (await cell.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(360);
    }
    // Nothing scrolls sideways: the page is no wider than the window.
    expect(await staff.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
