import { expect, test } from "@playwright/test";
import { makeDocx } from "../../helpers/fixtures";
import { jsEnabled } from "../helpers";

// The upload_files_ui variant of get-started (spec 1 §5), on the portal started with FLAG_UPLOAD_FILES_UI.
const TEXT = "Rising sea temperatures bleach corals across the Pacific. ".repeat(40);

test.describe("get-started with the upload_files_ui flag", () => {
  test("the drop zone takes the manuscript; with JavaScript Next waits for files (or later) and a word count", async ({ page }) => {
    const js = jsEnabled(test.info());
    await page.goto("/en/researcher/submit/new");
    await expect(page).toHaveURL(/\/en\/researcher\/submit\/get-started$/);
    const dropZone = page.locator("label.drop-zone");
    await expect(dropZone).toContainText("Drag and drop your files here, or click to choose them");
    const next = page.getByRole("button", { name: "Next", exact: true }).last();
    await page.locator('input[name="customerGoal"][value="manuscript"]').check();

    if (js) {
      // Nothing picked and no word count: Next is disabled until both are there.
      await expect(next).toBeDisabled();
      await page.locator('input[name="wordCount"]').fill("2400");
      await expect(next).toBeDisabled();
      await page.locator('input[name="uploadFilesLater"]').check();
      await expect(next).toBeEnabled();
      await page.locator('input[name="uploadFilesLater"]').uncheck();
      await expect(next).toBeDisabled();
      await page.locator('input[name="wordCount"]').fill("");
      await dropZone.locator('input[type="file"]').setInputFiles({
        name: "corals.docx",
        mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        buffer: await makeDocx(TEXT),
      });
      await expect(next).toBeDisabled();
      await page.locator('input[name="wordCount"]').fill("2400");
      await expect(next).toBeEnabled();
    } else {
      // Without JavaScript Next stays enabled and the server gives the same answer.
      await expect(next).toBeEnabled();
      await page.locator('input[name="wordCount"]').fill("2400");
      await next.click();
      await page.waitForLoadState("load");
      await expect(page.getByText("Please upload your files, or tick 'I will upload my files later'.")).toBeVisible();
      await page.locator('input[name="customerGoal"][value="manuscript"]').check();
      await page.locator("label.drop-zone input[type=file]").setInputFiles({
        name: "corals.docx",
        mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        buffer: await makeDocx(TEXT),
      });
      await page.locator('input[name="wordCount"]').fill("2400");
    }
    await next.click();
    await expect(page).toHaveURL(/\/en\/researcher\/submit\/manuscript-services$/);
    // The file picked in the drop zone was uploaded with the step.
    await page.goto("/en/researcher/submit/get-started");
    await expect(page.locator(".file-list")).toContainText("corals.docx");
  });
});
