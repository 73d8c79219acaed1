import { expect, test } from "@playwright/test";
import { registerResearcher } from "./helpers";
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
    // TODO(issue 11 merge): complete this order through the staff console's Orders tab (being built beside
    // this change) and walk on through the re-edit page to the rework services, as before; until then
    // tests/http/rework.test.ts covers that journey over HTTP with the order completed and paid.
    await page.goto(`/en/researcher/index/details/${ext}`);
    await expect(page.getByRole("heading", { name: `Order ${ext}` })).toBeVisible();
    await expect(page.getByRole("link", { name: "Request a re-edit or additional work" })).toHaveCount(0);
    await page.goto(`/en/researcher/index/re-edit/${ext}`);
    await expect(page).toHaveURL(/\/en(\/researcher)?$/);
  });
});
