// Issue 25 items 3 and 4 in the browser, with JavaScript and without (the project decides; ADR 076): a researcher's
// referral link → a colleague registers through it (the two-stage form) and sees the welcome code → the colleague
// orders and pays by the sandbox card → staff complete the order in the console → the referrer sees the credits on
// 'My Referrals' and the points in the reward history; the flyer downloads. Then a testimonial with a photo is
// submitted (303 → /researcher with its notice) and staff approve it. Setup goes through the API where it can.
import { randomUUID } from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import {
  SEEDED_STAFF,
  guardThirdParty,
  jsEnabled,
  newResearcher,
  placeBankTransferOrder,
  signIn,
  uniqueEmail,
  whenHydrated,
} from "./helpers";
import { makeDocx } from "../helpers/fixtures";
import { qrOf } from "../helpers/pdf-qr";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
// A 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

async function newPage(browser: Browser, js: boolean, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: js, baseURL, locale: "en-US", acceptDownloads: true });
  return context.newPage();
}

/** Submits the staff order page's form of one intent and waits for its outcome. */
async function staffSubmit(page: Page, intent: string, outcome: string, event?: string) {
  const form = page.locator(`form:has(input[name="intent"][value="${intent}"])`);
  await form
    .locator(event ? `button[name="event"][value="${event}"]` : 'button[type="submit"]')
    .first()
    .click();
  await expect(page.locator(outcome).first()).toBeVisible();
}

test("a colleague registers through the referral link, orders and pays; the referrer is credited", async ({ browser, baseURL }, info) => {
  test.slow();
  const js = jsEnabled(info);
  const referrer = await newPage(browser, js, baseURL!);
  const check = guardThirdParty(referrer, baseURL!);
  await newResearcher(referrer.request);
  await referrer.goto("/en/referral-rewards");
  await expect(referrer.getByRole("heading", { level: 1 })).toHaveText("My Referrals");
  const link = await referrer.locator("#referral-link-text").inputValue();
  expect(link).toMatch(/\/en\/register\?referralCode=/);
  await expect(referrer.locator(".referral-qr-code svg")).toBeVisible();
  const flyer = await referrer.request.get("/en/referral-rewards/flyer.pdf");
  expect(flyer.headers()["content-type"]).toBe("application/pdf");
  // The flyer's QR code decodes to the very link the page shows.
  expect(await qrOf(await flyer.body())).toBe(link);

  // The colleague opens the link and registers (two stages; the code travels in a hidden field).
  const colleague = await newPage(browser, js, baseURL!);
  const url = new URL(link);
  await colleague.goto(url.pathname + url.search);
  await colleague.locator('input[name="email"]').fill(uniqueEmail("colleague"));
  await colleague.locator("form.stack button[type=submit]").click();
  await expect(colleague.locator('input[name="password"]')).toBeVisible();
  await colleague.waitForLoadState("load");
  await whenHydrated(colleague);
  await colleague.locator('input[name="password"]').fill("Colleague#Pass-2026");
  await colleague.locator('input[name="firstName"]').fill("Carl");
  await colleague.locator('input[name="lastName"]').fill("Colleague");
  await colleague.locator('select[name="countryCode"]').selectOption("US");
  await colleague.locator('input[name="phoneNumber"]').fill("2025550123");
  await colleague.locator('select[name="country"]').selectOption("US");
  await colleague.locator('select[name="currency"]').selectOption("USD");
  await colleague.locator('input[name="agreeToTOS"]').check();
  await colleague.locator("form.stack button[type=submit]").click();
  await colleague.waitForURL((u) => !u.pathname.includes("/register"));
  await colleague.goto("/en/researcher");
  await expect(colleague.locator(".welcome-code .promo-code")).toHaveText(/^WELCOME-[A-Z0-9]{8}$/);

  // The colleague orders and pays by the sandbox card (API: the journey under test is the referral's).
  const order = await placeBankTransferOrder(colleague.request, `Referral order ${Date.now()}`);
  const countries = (await (await colleague.request.get("/api/payment/load")).json()).countries as {
    id?: number;
    value?: number;
    iso2?: string;
  }[];
  const us = countries.find((c) => c.iso2 === "US");
  const countryId = us?.id ?? us?.value;
  const paid = await colleague.request.post("/api/payoff/payment", {
    headers: { "Idempotency-Key": randomUUID() },
    data: {
      paymentMethodId: 3,
      acceptedTermsAndConditions: true,
      additionalData: { payoffReceiptCodes: [order.invoiceNumber] },
      billingAddress: { address1: "1 Main St", city: "Durham", state: "NC", zip: "27701", country: { value: countryId } },
      creditCard: { nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`, currency: "USD" },
    },
  });
  expect(paid.status(), await paid.text()).toBe(200);

  // Staff complete the order in the console.
  const staff = await newPage(browser, js, baseURL!);
  await signIn(staff, SEEDED_STAFF);
  await staff.goto(`/en/staff/orders/${order.externalId}`);
  await staffSubmit(staff, "transition", 'button[name="event"][value="complete"]', "start");
  await staff.waitForLoadState("load");
  await staff
    .locator('input[name="files"]')
    .setInputFiles([{ name: "edited.docx", mimeType: DOCX, buffer: await makeDocx("Edited text. ".repeat(30)) }]);
  await staffSubmit(staff, "upload", 'form:has(input[name="intent"][value="remove-deliverable"])');
  await staffSubmit(staff, "transition", 'form:has(input[name="intent"][value="certificate"])', "complete");
  await staff.context().close();

  // The referrer sees the credit and the points.
  await referrer.goto("/en/referral-rewards");
  await expect(referrer.getByTestId("referral-total")).toHaveText("$40");
  await expect(referrer.locator("tbody tr").first()).toContainText("Carl C.");
  await expect(referrer.locator("tbody tr").first()).toContainText("Credited");
  // The points, in the reward history.
  await referrer.goto("/en/researcher/rewards");
  await expect(referrer.getByText("Referral credited").first()).toBeVisible();
  check();
  await colleague.context().close();
  await referrer.context().close();
});

test("a testimonial with a photo is submitted and approved by staff", async ({ browser, baseURL }, info) => {
  const js = jsEnabled(info);
  const page = await newPage(browser, js, baseURL!);
  await newResearcher(page.request);
  await page.goto("/en/testimonials/submit");
  await whenHydrated(page);
  await page.locator("form.stack button[type=submit]").click();
  // With JavaScript the browser's own check stops an empty text; without, the server's message comes back.
  if (!js) await expect(page.getByText("Please type in a testimonial before clicking Submit")).toBeVisible();
  const text = `The editing was careful and fast ${Date.now()}`;
  await page.locator("#testimonial-text").fill(text);
  await page.locator("#testimonial-photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
  await page.locator("form.stack button[type=submit]").click();
  await page.waitForURL(/\/en\/researcher\?testimonial=received/);
  await expect(page.getByText("Your testimonial has been received. Thank you for helping us serve you better.")).toBeVisible();

  const staff = await newPage(browser, js, baseURL!);
  await signIn(staff, SEEDED_STAFF);
  await staff.goto("/en/staff/testimonials?status=submitted");
  const item = staff.locator(".testimonial-list li", { hasText: text });
  await item.getByRole("link", { name: "View" }).click();
  await expect(staff.locator("img.testimonial-photo")).toBeVisible();
  await staff.getByRole("button", { name: "Approve" }).click();
  await expect(staff.getByText("Testimonial approved.")).toBeVisible();
  await expect(staff.locator(".testimonial-status-approved")).toBeVisible();
  await staff.context().close();
  await page.context().close();
});
