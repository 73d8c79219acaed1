import { expect, test, type Page } from "@playwright/test";
import { chooseArea, guardThirdParty, registerResearcher } from "./helpers";
import { makeDocx } from "../helpers/fixtures";

const TEXT = "Soil microbes regulate nitrogen cycling in temperate forests under warming. ".repeat(50);

async function walk(
  page: Page,
  lang: "en" | "cn",
  labels: { next: string; upload: string; standardEditing: string; place: string; thankYou: string },
) {
  await page.goto(`/${lang}/researcher/submit/new`);
  await expect(page).toHaveURL(new RegExp(`/${lang}/researcher/submit/get-started`));
  await page.locator('input[name="customerGoal"][value="manuscript"]').check();
  await page.locator('input[type="file"][name="mainFiles"]').setInputFiles({
    name: "manuscript.docx",
    mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    buffer: await makeDocx(TEXT),
  });
  await page.getByRole("button", { name: labels.upload, exact: true }).click();
  await expect(page.locator(".file-list")).toContainText("manuscript.docx");
  await page.locator('input[name="wordCount"]').fill("3500");
  await page.getByRole("button", { name: labels.next, exact: true }).last().click();
  await expect(page).toHaveURL(/\/manuscript-services$/);

  if (test.info().project.name === "js") {
    // With JavaScript, Next waits for a service (or the decline box).
    await expect(page.getByRole("button", { name: labels.next, exact: true }).last()).toBeDisabled();
  }
  // Toggle Standard Editing on; the summary shows it.
  await page.locator(".service-card", { hasText: labels.standardEditing }).first().getByRole("button").click();
  await expect(page.locator(".my-order")).toContainText(labels.standardEditing);
  await page.getByRole("button", { name: labels.next, exact: true }).last().click();
  await expect(page).toHaveURL(/\/additional-services$/);
  await page.getByRole("button", { name: labels.next, exact: true }).last().click();
  await expect(page).toHaveURL(/\/details$/);

  await page.locator('input[name="projectTitle"]').fill(`Warming and soil microbes ${Date.now()}`);
  if (test.info().project.name === "js" && lang === "en") {
    // With JavaScript: search (2+ characters, at most 6 matches) picks the option of the fallback select.
    await page.locator("#areaOfStudyId-search").fill("onco");
    await page.locator(".search-suggest .suggestions button").first().click();
    await expect(page.locator('select[name="areaOfStudyId"]')).not.toHaveValue("");
    // The journal search (3+ characters) fills the journal's name and website.
    await page.locator("#journalName-search").fill("nat");
    await page.getByRole("button", { name: "Nature Communications" }).click();
    await expect(page.locator('input[name="journalName"]')).toHaveValue("Nature Communications");
    await expect(page.locator('input[name="journalUrl"]')).toHaveValue("https://www.nature.com/ncomms");
  } else {
    await chooseArea(page, test.info().project.name === "js");
  }
  await page.locator('input[name="styleOfEnglish"][value="american"]').check();
  await page.getByRole("button", { name: labels.next, exact: true }).last().click();
  await expect(page).toHaveURL(/\/payment-details$/);
  await page.locator('input[name="paymentMethodId"][value="9"]').check();
  await page.locator('input[name="acceptTerms"]').check();
  await page.getByRole("button", { name: labels.place }).click();
  await expect(page).toHaveURL(/\/researcher\/index\/details\/RS\d+\/thank-you$/);
  await expect(page.getByRole("heading", { name: labels.thankYou })).toBeVisible();
  await expect(page.locator("[data-external-id]")).toHaveText(/^RS\d+$/);
}

test.describe("order wizard", () => {
  test("English: upload a .docx, choose editing, place a bank-transfer order", async ({ page, baseURL }) => {
    const check = guardThirdParty(page, baseURL!);
    await registerResearcher(page, "en", { callingCountry: "US", phone: "2025550111", country: "US", currency: "USD" });
    await walk(page, "en", {
      next: "Next",
      upload: "Upload",
      standardEditing: "Standard Editing",
      place: "Place order",
      thankYou: "Thank you for your order",
    });
    check();
  });

  test("Chinese: the same walk as a new researcher", async ({ page }) => {
    // A Hong Kong researcher reading the Chinese site (the US localisation: no localisation banner here).
    await registerResearcher(page, "cn", { callingCountry: "HK", phone: "51234567", country: "HK", currency: "USD" });
    await walk(page, "cn", { next: "下一步", upload: "上传", standardEditing: "标准润色", place: "提交订单", thankYou: "感谢您的订购" });
  });

  test("a later step is not reachable before the current one", async ({ page }) => {
    await page.goto("/en/researcher/submit/new");
    await page.goto("/en/researcher/submit/payment-details");
    await expect(page).toHaveURL(/\/get-started$/);
    await expect(page.locator(".step-bar .step-todo").first()).not.toHaveAttribute("href", /.+/);
  });
});
