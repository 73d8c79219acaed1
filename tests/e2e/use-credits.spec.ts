import { expect, test } from "@playwright/test";
import { SEEDED_STAFF, guardThirdParty, jsEnabled, newResearcher, placeBankTransferOrder, signIn, whenHydrated } from "./helpers";

// Issue 21 defect 11a: with JavaScript, "Yes, use my credits" then "Pay now" was refused once ("The amount payable
// changed…") and needed a second press. With JavaScript the choice is priced at once; without it "Update total"
// does it. Either way one press of "Pay now" pays, with the credits taken off what the provider is asked for.

const cents = (text: string) => Math.round(Number(text.replace(/[^0-9.]/g, "")) * 100);

test("'use my credits' then one press of 'Pay now'", async ({ page, browser, baseURL }, info) => {
  const checkOrigins = guardThirdParty(page, baseURL!);
  const researcher = await newResearcher(page.request);
  const { invoiceNumber, total } = await placeBankTransferOrder(page.request, `Credits in one press ${info.project.name}`);

  // Staff grant $15 of courtesy credit (their own browser context).
  const staffContext = await browser.newContext({ baseURL, javaScriptEnabled: jsEnabled(info) });
  const staff = await staffContext.newPage();
  await signIn(staff, SEEDED_STAFF);
  await staff.goto("/en/staff/credits");
  await staff.getByLabel("Researcher's e-mail").fill(researcher.email);
  await staff.getByRole("button", { name: "Find" }).click();
  await staff.getByLabel("Amount", { exact: true }).fill("15");
  await staff.getByLabel("Note (why it is granted)").fill("Late delivery");
  await staff.getByRole("button", { name: "Grant credit" }).click();
  await expect(staff.getByText(/Credit CR\d+ was granted\./)).toBeVisible();
  await staffContext.close();

  await page.goto(`/en/researcher/invoices/pay/${invoiceNumber}`);
  await whenHydrated(page);
  const panel = page.locator("fieldset.balance-panel");
  await expect(panel).toContainText("Credits available: $15");
  await expect(panel.locator("#balance-payable")).toHaveText(`$${total / 100}`);
  await panel.getByLabel("Yes, use my credits").check();
  if (!jsEnabled(info)) await panel.getByRole("button", { name: "Update total" }).click();
  // Priced by the server (at once with JavaScript): $15 off.
  await expect(panel.locator("#balance-payable")).toHaveText(`$${(total - 1500) / 100}`);
  expect(cents((await panel.locator("#balance-payable").textContent()) ?? "")).toBe(total - 1500);

  await page.locator(".pm-method", { hasText: "PayPal" }).click();
  const billing = page.locator("fieldset.pm-address").first();
  await billing.getByLabel("Address", { exact: true }).fill("1 Main Street");
  await billing.getByLabel("City").fill("Boston");
  await billing.getByLabel("Country").selectOption({ label: "United States" });
  await billing.getByLabel("State or province").selectOption({ label: "Massachusetts" });
  await billing.getByLabel("Zip or postcode").fill("02108");
  await page.getByLabel("I accept the terms of service").check();
  await page.locator(".payoff-summary").getByRole("button", { name: "Pay now" }).click();
  // One press: on to PayPal (the sandbox's approval page), never "The amount payable changed".
  await page.waitForURL(/\/payment-sandbox\/paypal\/|\/researcher\/payment\//);
  await expect(page.getByText(/amount payable changed/i)).toHaveCount(0);
  const payment = await page.request.get("/api/invoice/load");
  const pending = (await payment.json()).pendingPayments as { amount: number; invoiceNumbers: string[] }[];
  expect(pending.map((p) => [p.invoiceNumbers, p.amount])).toEqual([[[invoiceNumber], total - 1500]]);
  checkOrigins();
});
