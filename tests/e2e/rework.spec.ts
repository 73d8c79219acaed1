import { expect, test } from "@playwright/test";
import { registerResearcher, signIn } from "./helpers";
import { REWORK_OWNERS } from "./fixtures/rework-owners";
import { makeDocx } from "../helpers/fixtures";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

test.describe("re-edit (rework) orders", () => {
  test("a placed order offers no re-edit yet", async ({ page }) => {
    await registerResearcher(page, "en", { callingCountry: "US", phone: "2025550112", country: "US", currency: "USD" });
    // The original order, placed through the JSON API with the browser's session.
    const api = page.request;
    const id = (await (await api.get("/api/order-form/new")).json()).orderForm.identity;
    const upload = await api.post(`/api/order-form/${id}/files`, {
      multipart: {
        mainFiles: { name: "paper.docx", mimeType: DOCX, buffer: await makeDocx("Glaciers retreat as summers warm. ".repeat(40)) },
      },
    });
    expect(upload.status()).toBe(201);
    await api.put(`/api/order-form/${id}/basic-details`, { data: { customerGoal: "manuscript", wordCount: 3000, language: 1 } });
    await api.put(`/api/order-form/${id}/selected-service`, { data: { serviceIdentities: ["premium-editing"] } });
    await api.put(`/api/order-form/${id}/step`, { data: { step: "details" } });
    const area = (await (await api.get("/api/areas-of-study?q=bio")).json()).areas[0].id;
    await api.put(`/api/order-form/${id}/details`, {
      data: { projectTitle: `Retreating glaciers ${Date.now()}`, areaOfStudyId: area, styleOfEnglish: "british" },
    });
    const placed = await (
      await api.post(`/api/order-form/${id}/payments`, { data: { paymentMethodId: 9, acceptedTermsAndConditions: true } })
    ).json();
    const ext: string = placed.order.externalId;

    // Issue 11 §4: a re-edit is offered once the order is completed and its files can be downloaded. A placed
    // order shows no re-edit link, and its re-edit page sends the visitor home (spec 2 §8).
    await page.goto(`/en/researcher/index/details/${ext}`);
    await expect(page.getByRole("heading", { name: `Order ${ext}` })).toBeVisible();
    await expect(page.getByRole("link", { name: "Request a re-edit or additional work" })).toHaveCount(0);
    await page.goto(`/en/researcher/index/re-edit/${ext}`);
    await expect(page).toHaveURL(/\/en(\/researcher)?$/);
  });

  test("from a completed, paid order to the re-edit page, the rework start screen and the rework services", async ({ page }, info) => {
    // The order was completed and paid by staff when the portal started (./fixtures/rework.ts).
    const owner = REWORK_OWNERS.find((o) => o.project === info.project.name)!;
    await signIn(page, owner);
    const orders = (await (await page.request.get("/api/order/search")).json()).orders as { externalId: string; title: string }[];
    const ext = orders.find((o) => o.title === owner.title)!.externalId;

    await page.goto(`/en/researcher/index/details/${ext}`);
    await page.getByRole("link", { name: "Request a re-edit or additional work" }).click();
    await expect(page).toHaveURL(new RegExp(`/en/researcher/index/re-edit/${ext}$`));
    await expect(page.getByRole("heading", { name: "Request a re-edit" })).toBeVisible();
    await page.getByRole("link", { name: "Continue" }).click();
    // The link asks; the re-edit starts with the confirmation's POST (issue 10 §10).
    await expect(page.getByRole("heading", { name: `Re-edit order ${ext}?` })).toBeVisible();
    await page.getByRole("button", { name: "Start the re-edit" }).click();
    await expect(page).toHaveURL(/\/en\/researcher\/submit\/rework-get-started$/);
    await expect(page.getByText(`Re-editing order ${ext}`)).toBeVisible();
    await page.waitForLoadState("load");

    await page.locator('input[type="file"][name="mainFiles"]').setInputFiles({
      name: "revised.docx",
      mimeType: DOCX,
      buffer: await makeDocx("Glaciers retreat faster as summers warm. ".repeat(40)),
    });
    await page.locator('input[name="wordCount"]').fill("3100");
    await page.locator('textarea[name="instructions"]').fill("Please look at the discussion again.");
    await page.getByRole("button", { name: "Next", exact: true }).last().click();
    await expect(page).toHaveURL(/\/en\/researcher\/submit\/manuscript-services$/);

    // Only the rework services of a premium-edited order: touch-up editing and automated re-editing (free after premium).
    await expect(page.locator(".service-card", { hasText: "Touch-up Editing" })).toBeVisible();
    await expect(page.locator(".service-card", { hasText: "Automated Re-editing" })).toBeVisible();
    await expect(page.locator(".service-card", { hasText: "Premium Editing" })).toHaveCount(0);
    await page.locator(".service-card", { hasText: "Touch-up Editing" }).first().getByRole("button").click();
    await expect(page.locator(".my-order")).toContainText("Touch-up Editing");
    await page.getByRole("button", { name: "Next", exact: true }).last().click();
    await expect(page).toHaveURL(/\/additional-services$/);
  });
});
