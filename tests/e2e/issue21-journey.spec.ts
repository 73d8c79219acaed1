import { expect, test, type APIRequestContext } from "@playwright/test";
import {
  asStaff,
  fillBoletoForm,
  guardThirdParty,
  jsEnabled,
  payNowAndWaitForPayment,
  placeBankTransferOrder,
  signedInBrazilian,
  signInApi,
  whenHydrated,
} from "./helpers";
import { DECLINE_OWNERS, LATE_PAYPAL_OWNERS } from "./fixtures/issue21-owners";

// Issue 21 "Done when", the journey through the real pages, with and without JavaScript (ADR 051):
// a) a Brazilian researcher issues a boleto, tries to pay the invoice again and is sent to the pending boleto;
// b) a US researcher pays one invoice from several tabs by PayPal. A tab that presses "Pay now" while another tab's
//    PayPal order waits is sent to that order (no second one). The one way a second capture still arrives is a late
//    one: an order opened in a tab hours ago, whose attempt the recovery job cancelled, approved after the invoice
//    was paid (made at start-up by ./fixtures/issue21.ts: the browser cannot wait three hours). That capture becomes
//    an overpayment credit the researcher sees; staff refund it and the invoice and its order stay paid;
// c) a refused card with "use my credits" chosen (the sandbox's declined card with JavaScript; without it the card has
//    no nonce and the provider refuses it) spends nothing: the credits and prepayment shown before are shown after.

const dollars = (cents: number) => `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: cents % 100 ? 2 : 0 })}`;

interface Load {
  invoices: { invoiceNumber: string; status: string }[];
  unpaidInvoices: { invoiceNumber: string; balance: number }[];
  credits: { referenceNumber: string; balance: number }[];
  prepayments: { balance: number }[];
}
const load = async (api: APIRequestContext): Promise<Load> => (await api.get("/api/invoice/load")).json();

test.describe("issue 21: no way to take money twice", () => {
  test("a) a pending boleto: paying the invoice again leads to it, no second boleto", async ({ page, baseURL }) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    await signedInBrazilian(page, { prefix: "rafa", password: "Rafa#Pesquisa-2026", firstName: "Rafaela", lastName: "Costa" });
    const order = await placeBankTransferOrder(page.request, "Hidrologia do Pantanal", { brazilPaymentMethods: "no-requirements" });

    await page.goto(`/br/researcher/invoices/pay/${order.invoiceNumber}`);
    await fillBoletoForm(page, {
      name: "Rafaela Costa",
      street: "Rua XV de Novembro 200",
      city: "Curitiba",
      state: "Paraná",
      zip: "80020-310",
    });
    const pending = await payNowAndWaitForPayment(page);
    const line = await page.locator(".payment-boleto-line").innerText();
    expect(line.replace(/\D/g, "")).toHaveLength(47);

    // Paying the invoice again: the pay page sends the researcher to the boleto already issued, with its same line.
    await page.goto(`/br/researcher/invoices/pay/${order.invoiceNumber}`);
    await expect(page).toHaveURL(new RegExp(`${pending}$`));
    await expect(page.locator(".payment-boleto-line")).toHaveText(line);
    // The invoice list offers that boleto instead of "Pagar".
    await page.goto("/br/researcher/invoices/unpaid");
    const row = page.getByRole("row", { name: new RegExp(order.invoiceNumber) });
    await expect(row.getByRole("link", { name: "Continuar o pagamento pendente" })).toHaveAttribute("href", pending);
    await row.getByRole("link", { name: "Continuar o pagamento pendente" }).click();
    await expect(page).toHaveURL(new RegExp(`${pending}$`));
    await expect(page.locator(".payment-boleto-line")).toHaveText(line);
    // Still one boleto and nothing paid: the invoice owes its whole amount.
    const after = await load(page.request);
    expect(after.unpaidInvoices.map((i) => [i.invoiceNumber, i.balance])).toEqual([[order.invoiceNumber, order.total]]);
    checkOrigins();
  });

  test("b) one invoice paid from two PayPal tabs: the second capture is a visible credit, refunded by staff, the invoice stays paid", async ({
    page,
    browser,
    baseURL,
  }, info) => {
    test.setTimeout(90_000);
    const js = jsEnabled(info);
    const checkOrigins = guardThirdParty(page, baseURL!);
    const owner = LATE_PAYPAL_OWNERS.find((o) => o.project === info.project.name)!;
    await signInApi(page, owner);
    const before = await load(page.request);
    expect(before.unpaidInvoices).toHaveLength(1);
    const { invoiceNumber, balance: total } = before.unpaidInvoices[0];
    expect(before.credits).toEqual([]);

    // Tab 1 still shows the PayPal order opened long ago (its attempt since cancelled by the recovery job).
    const tab1 = page;
    await tab1.goto(`/en/payment-sandbox/paypal/${owner.paymentId}`);
    await expect(tab1.getByRole("heading", { name: "PayPal — test mode" })).toBeVisible();
    await expect(tab1.locator(".sandbox-amount")).toHaveText(dollars(total));

    // Tabs 2 and 3 (the same browser) open the pay page: the invoice is payable again. Both choose PayPal.
    const openPay = async () => {
      const tab = await page.context().newPage();
      await tab.goto(`/en/researcher/invoices/pay/${invoiceNumber}`);
      await expect(tab.locator(".payoff-summary tfoot")).toContainText(dollars(total));
      await tab.locator(".pm-method", { hasText: "PayPal" }).click();
      await whenHydrated(tab);
      const billing = tab.locator("fieldset.pm-address").first();
      await billing.getByLabel("Address", { exact: true }).fill("1 Main Street");
      await billing.getByLabel("City").fill("Boston");
      await billing.getByLabel("Country").selectOption({ label: "United States" });
      await billing.getByLabel("State or province").selectOption({ label: "Massachusetts" });
      await billing.getByLabel("Zip or postcode").fill("02108");
      await tab.getByLabel("I accept the terms of service").check();
      return tab;
    };
    const tab2 = await openPay();
    const tab3 = await openPay();
    const checkOrigins2 = guardThirdParty(tab2, baseURL!);
    await tab2.locator(".payoff-summary").getByRole("button", { name: "Pay now" }).click();
    await tab2.waitForURL(/\/en\/payment-sandbox\/paypal\/[0-9a-f-]{36}\?token=/);
    const second = new URL(tab2.url()).pathname.split("/").at(-1)!;
    expect(second).not.toBe(owner.paymentId);
    // Tab 3 presses "Pay now" while that order waits: no second PayPal order, it is sent to the one waiting.
    await tab3.locator(".payoff-summary").getByRole("button", { name: "Pay now" }).click();
    await expect(tab3).toHaveURL(new RegExp(`/en/researcher/payment/${second}$`));
    await expect(tab3.getByRole("link", { name: "Continue" })).toHaveAttribute("href", /\/en\/payment-sandbox\/paypal\//);
    await tab3.close();
    await tab2.getByRole("button", { name: "Approve" }).click();
    await tab2.waitForURL(/\/en\/researcher\/invoices\/unpaid/);
    await expect(tab2.getByText("Thank you: your payment is being processed.")).toBeVisible();
    const paid = await load(page.request);
    expect(paid.unpaidInvoices).toEqual([]);
    expect(paid.credits).toEqual([]);

    // Tab 1 approves the old order too: PayPal captures it, beyond what is due.
    await tab1.getByRole("button", { name: "Approve" }).click();
    await tab1.waitForURL(/\/en\/researcher\/invoices\/unpaid/);
    const credited = await load(page.request);
    expect(credited.unpaidInvoices).toEqual([]);
    expect(credited.invoices.find((i) => i.invoiceNumber === invoiceNumber)?.status).toBe("paid");
    // The surplus is the researcher's: a credit of the whole second capture, shown on the dashboard and the prepay page.
    expect(credited.credits.map((c) => c.balance)).toEqual([total]);
    const creditNumber = credited.credits[0].referenceNumber;
    await tab1.goto("/en/researcher");
    await expect(tab1.locator(".prepay-widget")).toContainText(dollars(total));
    await tab1.goto("/en/researcher/prepay");
    await expect(tab1.getByText(creditNumber).first()).toBeVisible();
    // …and on the invoice itself, in the paid list: how much was overpaid and where it went.
    await tab1.goto("/en/researcher/invoices");
    await expect(tab1.locator("[data-surplus]").first()).toHaveText(
      `Overpaid by ${dollars(total)}: credited to your prepaid balance (${creditNumber}).`,
    );
    checkOrigins2();
    await tab2.close();

    // Staff see the overpayment on the payment's page and refund it; the invoice stays paid.
    await asStaff(browser, baseURL!, js, async (staff) => {
      await staff.goto(`/en/staff/payments/${owner.paymentId}`);
      const summary = staff.getByRole("region", { name: "Summary" }).or(staff.locator("section[aria-labelledby=sp-summary]"));
      await expect(summary.first()).toContainText(`${dollars(total)} credited to the researcher as credit ${creditNumber}`);
      await expect(staff.getByLabel("Re-open the invoice: the researcher owes the refunded amount again")).not.toBeChecked();
      await staff.getByLabel("Amount to refund (USD)").fill((total / 100).toFixed(2));
      await staff.getByLabel("Reason", { exact: true }).fill("Duplicate PayPal payment from a second tab");
      await staff.getByRole("button", { name: "Refund", exact: true }).click();
      await expect(staff.getByText("The refund has been made.")).toBeVisible();
      await expect(summary.first()).toContainText(`(${dollars(0)} unspent)`);
    });
    const refunded = await load(page.request);
    expect(refunded.unpaidInvoices).toEqual([]);
    expect(refunded.invoices.find((i) => i.invoiceNumber === invoiceNumber)?.status).toBe("paid");
    expect(refunded.credits).toEqual([]);
    await page.goto("/en/researcher/invoices");
    await expect(page.locator("[data-surplus]").first()).toHaveText(`Overpaid by ${dollars(total)}: refunded to you.`);
    // Its order is not back to awaiting payment.
    const orders = (await (await page.request.get("/api/order/search")).json()).orders as { paid: boolean }[];
    expect(orders.map((o) => o.paid)).toEqual([true]);
    checkOrigins();
  });

  test("c) a declined card with credits chosen spends nothing: the balances shown before are shown after", async ({
    page,
    baseURL,
  }, info) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    const owner = DECLINE_OWNERS.find((o) => o.project === info.project.name)!;
    await signInApi(page, owner);
    const before = await load(page.request);
    expect(before.unpaidInvoices).toHaveLength(1);
    const { invoiceNumber, balance } = before.unpaidInvoices[0];
    expect(before.credits.map((c) => c.balance)).toEqual([owner.credit]);
    expect(before.prepayments.map((p) => p.balance)).toEqual([owner.prepayment]);

    await page.goto(`/en/researcher/invoices/pay/${invoiceNumber}`);
    const panel = page.locator("fieldset.balance-panel");
    const shown = async () => {
      await expect(page.getByText(`You have ${dollars(owner.credit)} bank credits available.`)).toBeVisible();
      await expect(panel).toContainText(`Credits available: ${dollars(owner.credit)}`);
      await expect(panel).toContainText(`Prepayment available: ${dollars(owner.prepayment)}`);
    };
    await shown();
    await panel.getByLabel("Yes, use my credits").check();
    await panel.getByLabel("Use as much as possible").check();
    await panel.getByRole("button", { name: "Update total" }).click();
    await expect(panel.locator("#balance-payable")).toHaveText(dollars(balance - owner.credit - owner.prepayment));

    await page.locator(".pm-method", { hasText: "Credit card" }).click();
    await whenHydrated(page);
    const billing = page.locator("fieldset.pm-address").first();
    await billing.getByLabel("Address", { exact: true }).fill("1 Main Street");
    await billing.getByLabel("City").fill("Boston");
    await billing.getByLabel("Country").selectOption({ label: "United States" });
    await billing.getByLabel("State or province").selectOption({ label: "Massachusetts" });
    await billing.getByLabel("Zip or postcode").fill("02108");
    if (jsEnabled(info)) {
      const fields = page.frameLocator(".card-fields-frame");
      // The sandbox's processor-declined test card.
      await fields.getByLabel("Card number").fill("4000 1111 1111 1115");
      await fields.getByLabel("Expiry (MM/YY)").fill("12/30");
      await fields.getByLabel("Security code").fill("123");
      await expect(fields.locator("#card-result")).toContainText("1115");
    } else {
      // Card entry needs JavaScript: posted without it, the card has no nonce and the provider refuses the charge.
      await expect(page.getByText("Card entry needs JavaScript.")).toBeVisible();
    }
    await page.getByLabel("I accept the terms of service").check();
    await page.locator(".payoff-summary").getByRole("button", { name: "Pay now" }).click();
    // The provider's refusal in the page's words: the sandbox's "Do Not Honor" for the declined card, its unknown
    // nonce without JavaScript (#common/payments/declines).
    await expect(page.locator(".alert-danger").first()).toContainText(
      jsEnabled(info) ? "Your bank declined the card." : "The card details were not accepted or have expired.",
    );
    await expect(page).toHaveURL(new RegExp(`/en/researcher/invoices/pay/${invoiceNumber}$`));

    // The page as it is now, and as it is when opened again: the same credits and prepayment, the invoice still due.
    await shown();
    await page.goto(`/en/researcher/invoices/pay/${invoiceNumber}`);
    await shown();
    await expect(page.locator(".payoff-summary tfoot")).toContainText(dollars(balance));
    const after = await load(page.request);
    expect(after.credits.map((c) => c.balance)).toEqual([owner.credit]);
    expect(after.prepayments.map((p) => p.balance)).toEqual([owner.prepayment]);
    expect(after.unpaidInvoices.map((i) => [i.invoiceNumber, i.balance])).toEqual([[invoiceNumber, balance]]);
    await page.goto("/en/researcher");
    await expect(page.locator(".prepay-widget")).toContainText(dollars(owner.credit + owner.prepayment));
    checkOrigins();
  });
});
