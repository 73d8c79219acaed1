import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { SEEDED_STAFF, guardThirdParty, jsEnabled, newResearcher, signIn } from "./helpers";
import { makeDocx, makePdf } from "../helpers/fixtures";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** A bank-transfer order placed through the JSON API by a new researcher (their own session), and its number. */
async function placeOrderAsResearcher(page: Page): Promise<{ email: string; externalId: string; title: string }> {
  const user = await newResearcher(page.request);
  await page.request.post("/api/auth/login", { data: { email: user.email, password: user.password } });
  const api = page.request;
  const id = (await (await api.get("/api/order-form/new")).json()).orderForm.identity;
  const upload = await api.post(`/api/order-form/${id}/files`, {
    multipart: {
      mainFiles: { name: "paper.docx", mimeType: DOCX, buffer: await makeDocx("Coral reefs bleach in warm water. ".repeat(40)) },
    },
  });
  expect(upload.status()).toBe(201);
  await api.put(`/api/order-form/${id}/basic-details`, { data: { customerGoal: "manuscript", wordCount: 2500, language: 1 } });
  await api.put(`/api/order-form/${id}/selected-service`, { data: { serviceIdentities: ["standard-editing"] } });
  await api.put(`/api/order-form/${id}/step`, { data: { step: "details" } });
  const area = (await (await api.get("/api/areas-of-study?q=bio")).json()).areas[0].id;
  const title = `Bleaching reefs ${Date.now()}`;
  await api.put(`/api/order-form/${id}/details`, { data: { projectTitle: title, areaOfStudyId: area, styleOfEnglish: "british" } });
  const placed = await (
    await api.post(`/api/order-form/${id}/payments`, { data: { paymentMethodId: 9, acceptedTermsAndConditions: true } })
  ).json();
  await page.context().clearCookies();
  return { email: user.email, externalId: placed.order.externalId, title };
}

test.describe("staff operations console", () => {
  test("finds a researcher's order, delivers files, completes it, records the payment and issues the certificate", async ({
    page,
    baseURL,
  }) => {
    test.slow();
    const check = guardThirdParty(page, baseURL!);
    const order = await placeOrderAsResearcher(page);

    await signIn(page, SEEDED_STAFF);
    await page.goto("/en/staff");
    await page.getByRole("link", { name: "Orders", exact: true }).click();
    await expect(page).toHaveURL(/\/en\/staff\/orders$/);
    await page.getByLabel("Researcher e-mail").fill(order.email);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.getByText("Orders found: 1")).toBeVisible();
    await page.getByRole("link", { name: order.externalId }).click();
    await expect(page.getByRole("heading", { name: `Order ${order.externalId}` })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: order.email })).toBeVisible();

    // Start, with a note.
    await page.getByLabel("Note (optional)").fill("Assigned to our life-science team");
    await page.getByRole("button", { name: "Start work" }).click();
    await expect(page.getByText("The order status has been changed.")).toBeVisible();
    await expect(page.getByRole("cell", { name: "Assigned to our life-science team" })).toBeVisible();

    // Two completed files in one upload.
    await page.waitForLoadState("load");
    await page.getByLabel("Files to deliver").setInputFiles([
      { name: "edited.docx", mimeType: DOCX, buffer: await makeDocx("Coral reefs bleach in warmer water. ".repeat(40)) },
      { name: "clean-copy.pdf", mimeType: "application/pdf", buffer: await makePdf("Coral reefs, clean copy") },
    ]);
    await page.getByRole("button", { name: "Upload files" }).click();
    await expect(page.getByText("The files have been delivered.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Withdraw edited.docx" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Withdraw clean-copy.pdf" })).toBeVisible();

    await page.getByRole("button", { name: "Complete and deliver" }).click();
    await expect(page.getByText("The order status has been changed.")).toBeVisible();
    await expect(page.locator("[data-status]")).toHaveText("Completed");

    // The bank transfer: the form offers the whole balance.
    await page.getByLabel("Bank reference").fill(`WIRE-${Date.now()}`);
    await page.getByRole("button", { name: "Record payment" }).click();
    await expect(page.getByText("The payment has been recorded.")).toBeVisible();
    await expect(page.locator("[data-paid]")).toHaveText("Paid");
    await expect(page.getByText("Nothing is due on this order's invoice.")).toBeVisible();

    await page.getByRole("button", { name: "Mark certificate ready" }).click();
    await expect(page.getByText("The certificate is ready.")).toBeVisible();
    await expect(page.locator("[data-certificate-code]")).toHaveText(/^[2-9A-HJ-NP-Z]{4}(-[2-9A-HJ-NP-Z]{4}){3}$/);
    await expect(page.getByRole("cell", { name: "Certificate issued" })).toBeVisible();
    check();
  });

  test("the console fits a phone screen and passes axe", async ({ page }, info) => {
    test.slow();
    const order = await placeOrderAsResearcher(page);
    await page.setViewportSize({ width: 360, height: 740 });
    await signIn(page, SEEDED_STAFF);
    for (const path of ["/en/staff/orders", "/en/staff/orders/new", `/en/staff/orders/${order.externalId}`]) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      // axe runs as a script in the page: the js project checks what both projects render.
      if (jsEnabled(info)) {
        if (path.endsWith("/new")) await page.getByRole("button", { name: "Create order" }).click();
        await page.waitForLoadState("load");
        const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
        const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`);
        expect.soft(bad, `axe on ${path}`).toEqual([]);
      }
    }
  });
});
