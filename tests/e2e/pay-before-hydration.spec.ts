import { expect, test } from "@playwright/test";
import { guardThirdParty, newResearcher, placeBankTransferOrder, whenHydrated } from "./helpers";

// A researcher on a slow connection fills the payment form before the page's script has run. With JavaScript the
// state they chose must survive hydration and the re-render that choosing the method causes (CI once saw such a
// choice go back to "choose" and the payment refused for it; app/components/payment/AddressFields.tsx). Without
// JavaScript the same form simply posts.
test("a billing state chosen before the script runs is kept, and one press of 'Pay now' pays", async ({ page, baseURL }, info) => {
  const checkOrigins = guardThirdParty(page, baseURL!);
  await newResearcher(page.request); // in the United States: the server renders its states
  const { invoiceNumber, total } = await placeBankTransferOrder(page.request, `Before hydration ${info.project.name}`);

  // Hold the page's scripts until the address is filled in.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/assets/**/*.js", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/en/researcher/invoices/pay/${invoiceNumber}`, { waitUntil: "domcontentloaded" });
  await page.locator(".pm-method", { hasText: "PayPal" }).click();
  const billing = page.locator("fieldset.pm-address").first();
  await billing.getByLabel("Address", { exact: true }).fill("1 Main Street");
  await billing.getByLabel("City").fill("Boston");
  await billing.getByLabel("State or province").selectOption({ label: "Massachusetts" });
  await billing.getByLabel("Zip or postcode").fill("02108");
  release();
  await whenHydrated(page);

  // Hydration takes the chosen method into the form's state and re-renders it: the state stays the one chosen.
  await expect(billing.getByLabel("State or province").locator("option:checked")).toHaveText("Massachusetts");
  await page.getByLabel("I accept the terms of service").check();
  await page.locator(".payoff-summary").getByRole("button", { name: "Pay now" }).click();
  await page.waitForURL(/\/payment-sandbox\/paypal\/|\/researcher\/payment\//);
  const pending = (await (await page.request.get("/api/invoice/load")).json()).pendingPayments as { amount: number }[];
  expect(pending.map((p) => p.amount)).toEqual([total]);
  checkOrigins();
});
