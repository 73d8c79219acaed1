// Issue 9 §3: wizard defects whose behaviour needs the browser (items 7, 10 and 12), with and without
// JavaScript where it applies.
import { expect, test, type Page } from "@playwright/test";
import { chooseArea, jsEnabled, newResearcher } from "./helpers";
import { makeDocx } from "../helpers/fixtures";

const TEXT = "Soil microbes regulate nitrogen cycling in temperate forests under warming. ".repeat(50);
/** Plain English prose the language detection recognises (53 words × 10). */
const ENGLISH =
  "The results of this study suggest that the growth of the plants was strongly affected by the temperature of the soil, and that the effect was larger in the north than in the south. We measured the height of each plant every week and compared the values with those of the previous year. ".repeat(
    10,
  );

/** A new visitor's order form with a .docx uploaded and the get-started step saved; ends on the services step. */
async function throughGetStarted(page: Page, words = "3500") {
  await page.goto("/en/researcher/submit/new");
  await page.locator('input[name="customerGoal"][value="manuscript"]').check();
  await page.locator('input[type="file"][name="mainFiles"]').setInputFiles({
    name: "manuscript.docx",
    mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    buffer: await makeDocx(TEXT),
  });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.locator(".file-list")).toContainText("manuscript.docx");
  await page.locator('input[name="wordCount"]').fill(words);
  await page.getByRole("button", { name: "Next", exact: true }).last().click();
  await expect(page).toHaveURL(/\/manuscript-services$/);
}

/** From the services step to the details step with Standard Editing chosen. */
async function toDetails(page: Page) {
  await page.locator(".service-card", { hasText: "Standard Editing" }).first().getByRole("button").click();
  await expect(page.locator(".my-order")).toContainText("Standard Editing");
  await page.getByRole("button", { name: "Next", exact: true }).last().click();
  await expect(page).toHaveURL(/\/additional-services$/);
  await page.getByRole("button", { name: "Next", exact: true }).last().click();
  await expect(page).toHaveURL(/\/details$/);
}

/** Places an order titled `title` for the signed-in browser through the JSON API; its external id. */
async function placeViaApi(page: Page, title: string): Promise<string> {
  const api = page.request;
  const id = (await (await api.get("/api/order-form/new")).json()).orderForm.identity as string;
  const upload = await api.post(`/api/order-form/${id}/files`, {
    multipart: {
      mainFiles: {
        name: "earlier.docx",
        mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        buffer: await makeDocx(TEXT),
      },
    },
  });
  expect(upload.status()).toBe(201);
  await api.put(`/api/order-form/${id}/basic-details`, { data: { customerGoal: "manuscript", wordCount: 2000, language: 1 } });
  await api.put(`/api/order-form/${id}/selected-service`, { data: { serviceIdentities: ["standard-editing"] } });
  const area = (await (await api.get("/api/areas-of-study?q=bio")).json()).areas[0].id;
  await api.put(`/api/order-form/${id}/details`, { data: { projectTitle: title, areaOfStudyId: area, styleOfEnglish: "american" } });
  const placed = await api.post(`/api/order-form/${id}/payments`, { data: { paymentMethodId: 9, acceptedTermsAndConditions: true } });
  expect(placed.status()).toBe(201);
  return (await placed.json()).order.externalId as string;
}

test.describe("order wizard logic (issue 9 §3)", () => {
  test("§10: the detected word count and language are saved when they arrive (JS), prefilled without", async ({ page }) => {
    await page.goto("/en/researcher/submit/new");
    await page.locator('input[type="file"][name="mainFiles"]').setInputFiles({
      name: "manuscript.docx",
      mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      buffer: await makeDocx(ENGLISH),
    });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.locator(".alert-success")).toContainText("We counted", { timeout: 15_000 });
    const counted = Number((await page.locator(".alert-success").innerText()).match(/[\d,]+/)![0].replace(/,/g, ""));
    expect(counted).toBeGreaterThan(500);
    await expect(page.locator('input[name="wordCount"]')).toHaveValue(String(counted));
    const saved = async () => (await (await page.request.get("/api/order-form/load")).json()).orderForm;
    if (jsEnabled(test.info())) {
      // Saved without pressing Next (spec 1 §4 "Manuscript details polling").
      await expect.poll(async () => (await saved()).wordCount).toBe(counted);
      expect((await saved()).manuscriptLanguageId).toBe(1);
    } else {
      // A GET writes nothing: the detected values wait in the form for the visitor's Next.
      expect((await saved()).wordCount).toBeNull();
    }
  });

  test("§7: a title used by an earlier order is reported when the field is left (JS), and on submit", async ({ page }) => {
    // Registering through the page's request context signs the page in too (it shares the cookies).
    await newResearcher(page.request);
    const title = `Nitrogen cycling ${Date.now()}`;
    const externalId = await placeViaApi(page, title);
    await throughGetStarted(page);
    await toDetails(page);
    await page.locator('input[name="projectTitle"]').fill(title);
    if (jsEnabled(test.info())) {
      const check = page.waitForRequest((r) => r.url().includes("/api/order/duplicate?title="));
      await page.locator('input[name="projectTitle"]').blur();
      await check;
      await expect(page.locator(".duplicate-check")).toContainText(externalId);
    }
    await chooseArea(page, jsEnabled(test.info()));
    await page.locator('input[name="styleOfEnglish"][value="american"]').check();
    await page.getByRole("button", { name: "Next", exact: true }).last().click();
    await expect(page).toHaveURL(/\/duplicate-order$/);
    await expect(page.locator("main")).toContainText(externalId);
  });

  test("§12: the services step reached from 'Start an order' shows translated names, not keys", async ({ page }) => {
    await throughGetStarted(page);
    // Back to the landing page and in again through its "Start an order": a client-side navigation with JavaScript.
    await page.goto("/en");
    await page.getByRole("link", { name: "Start an order" }).first().click();
    await expect(page).toHaveURL(/\/manuscript-services/);
    await expect(page.locator(".service-group legend").first()).toHaveText("Editing");
    await expect(page.locator(".service-card h3").first()).toHaveText("Standard Editing");
    await expect(page.locator("main")).not.toContainText("services.standard-editing");
    await expect(page.locator("main")).not.toContainText("groups.editing");
  });
});
