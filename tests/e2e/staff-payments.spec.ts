import { expect, test, type Page } from "@playwright/test";
import { SEEDED_STAFF, guardThirdParty, newResearcher, signIn } from "./helpers";
import { makeDocx } from "../helpers/fixtures";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** A researcher's order form up to the payment step, through the JSON API in the page's own session. */
async function draftAtPayment(page: Page): Promise<{ email: string; password: string; id: string }> {
  const user = await newResearcher(page.request);
  const api = page.request;
  await api.post("/api/auth/login", { data: { email: user.email, password: user.password } });
  const id = (await (await api.get("/api/order-form/new")).json()).orderForm.identity;
  const upload = await api.post(`/api/order-form/${id}/files`, {
    multipart: { mainFiles: { name: "paper.docx", mimeType: DOCX, buffer: await makeDocx("Soil carbon under drought. ".repeat(40)) } },
  });
  expect(upload.status()).toBe(201);
  await api.put(`/api/order-form/${id}/basic-details`, { data: { customerGoal: "manuscript", wordCount: 2500, language: 1 } });
  await api.put(`/api/order-form/${id}/selected-service`, { data: { serviceIdentities: ["standard-editing"] } });
  await api.put(`/api/order-form/${id}/step`, { data: { step: "details" } });
  const area = (await (await api.get("/api/areas-of-study?q=bio")).json()).areas[0].id;
  await api.put(`/api/order-form/${id}/details`, {
    data: { projectTitle: `Soil ${Date.now()}`, areaOfStudyId: area, styleOfEnglish: "british" },
  });
  return { ...user, id };
}

// Issue 12 §7–§8: staff create a voucher in the console, a researcher applies it to their order (its line shows in
// "My Order"), and staff write off an invoice; every form posts and works with JavaScript on and off.
test.describe("staff payments console", () => {
  test("creates a voucher a researcher uses, and writes an invoice off", async ({ page, baseURL }) => {
    test.slow();
    const check = guardThirdParty(page, baseURL!);
    const code = `E2E-${Date.now()}`;

    await signIn(page, SEEDED_STAFF);
    await page.goto("/en/staff");
    await page.getByRole("link", { name: "Vouchers", exact: true }).click();
    await expect(page).toHaveURL(/\/en\/staff\/vouchers$/);
    await page.getByLabel("Code", { exact: true }).fill(code.toLowerCase());
    await page.getByLabel("A percentage").check();
    await page.getByLabel("Percent (1 to 100)").fill("0");
    await page.getByRole("button", { name: "Create voucher" }).click();
    await expect(page.getByText("Please enter a whole percentage from 1 to 100.")).toBeVisible();
    await page.getByLabel("Percent (1 to 100)").fill("25");
    await page.getByRole("button", { name: "Create voucher" }).click();
    await expect(page.getByText(`Voucher ${code} has been created.`)).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(code) })).toContainText("25%");
    await page.context().clearCookies();

    // The researcher applies it over the API; the payment step's summary shows the voucher line.
    const user = await draftAtPayment(page);
    const applied = await page.request.put(`/api/order-form/${user.id}/voucher/${code.toLowerCase()}`);
    expect(applied.status()).toBe(200);
    await page.goto("/en/researcher/submit/payment-details");
    await expect(page.getByRole("rowheader", { name: `Voucher ${code}` }).first()).toBeAttached({ timeout: 15_000 });
    const placed = await (
      await page.request.post(`/api/order-form/${user.id}/payments`, { data: { paymentMethodId: 9, acceptedTermsAndConditions: true } })
    ).json();
    const invoiceNumber: string = placed.order.invoiceNumber;
    expect(invoiceNumber).toBeTruthy();
    await page.context().clearCookies();

    // Staff find the invoice and write it off: marked first, then the rest closed.
    await signIn(page, SEEDED_STAFF);
    await page.goto(`/en/staff/invoices/${invoiceNumber}`);
    await expect(page.getByRole("heading", { name: `Invoice ${invoiceNumber}` })).toBeVisible();
    await page.getByRole("button", { name: "Mark for write-off" }).click();
    await expect(page.getByText("The invoice is marked for write-off.")).toBeVisible();
    await page.getByLabel("Note (optional)").fill("Goodwill");
    await page.getByRole("button", { name: /^Write off .* now$/ }).click();
    await expect(page.getByText("The invoice has been written off.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Ledger" }).first()).toContainText("Write-off");

    // The payments search answers without JavaScript too.
    await page.getByRole("link", { name: "Payments", exact: true }).click();
    await page.getByLabel("Researcher e-mail").fill(user.email);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.getByText("Payments found: 0")).toBeVisible();
    check();
  });
});
