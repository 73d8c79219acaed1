import { expect, test, type APIRequestContext } from "@playwright/test";
import { newResearcher } from "./helpers";
import { makeDocx } from "../helpers/fixtures";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** Places a bank-transfer order through the JSON API with the browser's session; returns its external id. */
async function placeOrder(api: APIRequestContext): Promise<string> {
  const id = (await (await api.get("/api/order-form/new")).json()).orderForm.identity;
  const upload = await api.post(`/api/order-form/${id}/files`, {
    multipart: {
      mainFiles: { name: "paper.docx", mimeType: DOCX, buffer: await makeDocx("Rivers carry sediment to the sea. ".repeat(40)) },
    },
  });
  expect(upload.status()).toBe(201);
  await api.put(`/api/order-form/${id}/basic-details`, { data: { customerGoal: "manuscript", wordCount: 3000, language: 1 } });
  await api.put(`/api/order-form/${id}/selected-service`, { data: { serviceIdentities: ["standard-editing"] } });
  await api.put(`/api/order-form/${id}/step`, { data: { step: "details" } });
  const area = (await (await api.get("/api/areas-of-study?q=bio")).json()).areas[0].id;
  await api.put(`/api/order-form/${id}/details`, {
    data: { projectTitle: `Sediment transport ${Date.now()}`, areaOfStudyId: area, styleOfEnglish: "american" },
  });
  const placed = await (
    await api.post(`/api/order-form/${id}/payments`, { data: { paymentMethodId: 9, acceptedTermsAndConditions: true } })
  ).json();
  return placed.order.externalId;
}

test.describe("order details", () => {
  test("edit the style of English and the journal, then write to support about the order", async ({ page }) => {
    const user = await newResearcher(page.request);
    // Signed in through the API with the browser's own cookie jar (the page shares it).
    expect((await page.request.post("/api/auth/login", { data: { email: user.email, password: user.password } })).status()).toBe(200);
    const ext = await placeOrder(page.request);

    await page.goto(`/en/researcher/index/details/${ext}`);
    await expect(page.getByRole("heading", { name: `Order ${ext}` })).toBeVisible();
    await expect(page.locator("[data-completion]")).toHaveAttribute("data-completion", "not-ready");
    await page.getByRole("link", { name: "Edit this order" }).click();
    await expect(page).toHaveURL(new RegExp(`/details/${ext}\\?edit=1$`));
    await page.waitForLoadState("load");

    await page.getByLabel("British English").check();
    await page.getByLabel("Target journal").fill("Journal of Sediment Research");
    // A website that is not http(s) is refused with the spec's message, the form kept.
    await page.getByLabel("Journal website").fill("ftp://sediment.example.org");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Your journal website must start with http:// or https://")).toBeVisible();
    await page.waitForLoadState("load");
    await page.getByLabel("Journal website").fill("https://sediment.example.org");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Your changes have been saved.")).toBeVisible();
    await expect(page.locator("[data-style-of-english]")).toHaveText("British English");
    await expect(page.locator("[data-journal]")).toContainText("Journal of Sediment Research");

    await page.getByRole("link", { name: "Contact support about this order" }).click();
    await expect(page.getByRole("heading", { name: "Contact support" })).toBeVisible();
    await expect(page.getByLabel("Your e-mail address")).toHaveValue(user.email);
    await page.waitForLoadState("load");
    await page.getByLabel("Message").fill("Could you also check the figure captions?");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByRole("heading", { name: "Message sent" })).toBeVisible();
    await page.getByRole("link", { name: "Back to the order" }).click();
    await expect(page).toHaveURL(new RegExp(`/details/${ext}$`));
  });
});
