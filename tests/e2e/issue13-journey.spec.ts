import { expect, test } from "@playwright/test";
import { asStaff, draftAtPayment, guardThirdParty, jsEnabled, registerIn, whenHydrated } from "./helpers";

// Issue 13 "Done when", as one researcher's journey: a researcher in China prepays 500 USD by bank transfer, staff
// record it, the researcher pays an order partly from the prepayment and the rest by card (with JavaScript; without,
// card entry is impossible, so the prepayment pays it all), requests a special fapiao for its invoice — refused
// with a wrong check character, accepted with a valid credit code —, staff issue it with its PDF, and the
// researcher downloads it and cancels it within the window.

const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
const VALID = "914403001922038216"; // Huawei Technologies Co., Ltd. (tests/unit/taxpayer-number.test.ts)
const WRONG_CHECK = VALID.slice(0, 17) + "7";

const cents = (text: string | null) => Math.round(Number((text ?? "").replace(/[^0-9.]/g, "")) * 100);

test("issue 13: prepay by bank transfer, spend it on an order, then a special fapiao issued, downloaded and cancelled", async ({
  page,
  browser,
  baseURL,
}, info) => {
  test.setTimeout(120_000);
  const js = jsEnabled(info);
  const checkOrigins = guardThirdParty(page, baseURL!);
  const user = await registerIn(page, {
    prefix: "journey13",
    password: "Journey#Research-2026",
    firstName: "Min",
    lastName: "Zhang",
    country: "CN",
    phone: "13900139000",
    currency: "USD",
    language: "en",
  });
  // Registration through the API signed the page's context in; signing in again proves the credentials.
  expect((await page.request.post("/api/auth/login", { data: user })).status()).toBe(200);

  // 1. Prepay 500 USD by bank transfer: a retainer invoice of the China entity, unpaid until the money arrives.
  await page.goto("/en/researcher/prepay");
  await page.getByLabel("Amount (USD)").fill("500");
  await page.getByRole("button", { name: "Next" }).click();
  await page.locator(".pm-method", { hasText: "Bank transfer" }).click();
  await page.getByLabel("I accept the terms of service").check();
  await page.getByRole("button", { name: "Pay now" }).click();
  await page.waitForURL(/\/researcher\/prepay\/PCN\d+\?issued=1$/);
  const retainer = /\/prepay\/(PCN\d+)/.exec(page.url())![1];
  await expect(page.locator(`tr[data-retainer="${retainer}"]`)).toContainText("Awaiting payment");

  // 2. Staff record the transfer; the balance is there.
  await asStaff(browser, baseURL!, js, async (staff) => {
    await staff.goto(`/en/staff/prepayments/${retainer}`);
    await staff.getByLabel("Bank reference").fill(`WIRE-${retainer}`);
    await staff.getByRole("button", { name: "Record transfer" }).click();
    await expect(staff.getByText("The transfer was recorded.")).toBeVisible();
  });
  await page.goto("/en/researcher/prepay");
  await expect(page.locator(".prepay-banner-amount")).toHaveText("$500");

  // 3. An order paid from the prepayment: part of it and the rest by card with JavaScript, all of it without.
  await draftAtPayment(page.request, "Monsoon variability over the Tibetan Plateau");
  await page.goto("/en/researcher/submit/payment-details");
  const panel = page.locator("fieldset.balance-panel");
  await expect(panel).toContainText("Prepayment available: $500");
  const total = cents(await panel.locator("#balance-payable").textContent());
  expect(total).toBeGreaterThan(5000);
  if (js) {
    await panel.getByLabel("Use part of it (enter the amount)").check();
    await panel.getByLabel("Prepayment amount to use (USD)").fill("30");
    await panel.getByRole("button", { name: "Update total" }).click();
    await expect(panel.locator("#balance-payable")).toHaveText(`$${(total - 3000) / 100}`);
    await page.locator(".pm-method", { hasText: "Credit card" }).click();
    await whenHydrated(page);
    const billing = page.locator("fieldset.pm-address").first();
    await billing.getByLabel("Address", { exact: true }).fill("1 Zhongguancun Street");
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
    await panel.getByLabel("Use as much as possible").check();
    await panel.getByRole("button", { name: "Update total" }).click();
    await expect(panel.locator("#balance-payable")).toHaveText("$0");
  }
  await page.getByLabel("I accept the terms of service").check();
  await page.getByRole("button", { name: "Place order" }).click();
  await page.waitForURL(/\/thank-you$/);
  await expect(page.locator("[data-payment=paid]")).toBeVisible();
  const orders = (await (await page.request.get("/api/order/search")).json()).orders as { paid: boolean }[];
  expect(orders.map((o) => o.paid)).toEqual([true]);
  const load = await (await page.request.get("/api/invoice/load")).json();
  expect(load.prepayments.map((p: { balance: number }) => p.balance)).toEqual([50000 - (js ? 3000 : total)]);

  // 4. A special fapiao for the paid invoice: a wrong check character is refused, a valid credit code accepted.
  await page.goto("/en/researcher/invoices");
  await page.locator("td.invoice-fapiao").getByRole("link", { name: "Request fapiao" }).first().click();
  await expect(page).toHaveURL(/\/en\/researcher\/invoices\/[^/]+\/fapiao$/);
  const invoiceNumber = decodeURIComponent(new URL(page.url()).pathname.split("/")[4]);
  await page.getByLabel("Special VAT fapiao").check();
  await page.getByLabel("Delivery timeline").selectOption("express");
  await page.getByLabel("Fapiao title").fill("华为技术有限公司");
  await page.getByLabel("Taxpayer number").fill(WRONG_CHECK);
  await page.getByRole("button", { name: "Request fapiao" }).click();
  await expect(page.getByText("This taxpayer number is not valid")).toBeVisible();
  await expect(page).toHaveURL(/\/fapiao$/);
  await page.getByLabel("Taxpayer number").fill(VALID);
  await page.getByRole("button", { name: "Request fapiao" }).click();
  await expect(page).toHaveURL(/\/en\/researcher\/invoices\?fapiao=created-special$/);

  // 5. Staff issue it with its PDF.
  await asStaff(browser, baseURL!, js, async (staff) => {
    await staff.goto("/en/staff/fapiaos");
    await staff.getByRole("link", { name: invoiceNumber, exact: true }).click();
    await staff.getByLabel("Fapiao number").fill("44039876");
    await staff.getByLabel("Fapiao PDF").setInputFiles({ name: "fapiao.pdf", mimeType: "application/pdf", buffer: PDF });
    await staff.getByRole("button", { name: "Mark issued and upload" }).click();
    await expect(staff.getByText("The fapiao is marked issued")).toBeVisible();
  });

  // 6. The researcher downloads it and cancels it within the window.
  await page.goto("/en/researcher/invoices");
  const cell = page.locator("td.invoice-fapiao", { hasText: "44039876" });
  const href = await cell.getByRole("link", { name: "Download fapiao" }).getAttribute("href");
  const pdf = await page.request.get(href!);
  expect(pdf.status()).toBe(200);
  expect(Buffer.from(await pdf.body()).equals(PDF)).toBe(true);
  await cell.getByRole("link", { name: "View" }).click();
  await page.getByRole("button", { name: "Cancel fapiao" }).click();
  await expect(page).toHaveURL(/\/en\/researcher\/invoices\?fapiao=cancelled-special$/);
  await expect(page.getByText("Your special VAT fapiao has been cancelled.")).toBeVisible();
  checkOrigins();
});
