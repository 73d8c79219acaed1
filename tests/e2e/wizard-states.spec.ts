// Issue 22 item 5 (part): the wizard's states a browser shows — the area of study as three cascading selects and
// the 'network-request-error' modal (with JavaScript) or the error page's reload link (without). Both projects.
import { expect, test, type Page } from "@playwright/test";
import { chooseArea, jsEnabled } from "./helpers";
import { makeDocx } from "../helpers/fixtures";

/** A visitor's order form at the details step (Advanced Editing), made through the JSON API with the page's cookies. */
async function draftAtDetails(page: Page) {
  const api = page.request;
  const id = (await (await api.get("/api/order-form/new")).json()).orderForm.identity as string;
  const upload = await api.post(`/api/order-form/${id}/files`, {
    multipart: {
      mainFiles: {
        name: "paper.docx",
        mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        buffer: await makeDocx("Soil microbes regulate nitrogen cycling in temperate forests under warming. ".repeat(40)),
      },
    },
  });
  expect(upload.status()).toBe(201);
  await api.put(`/api/order-form/${id}/basic-details`, { data: { customerGoal: "manuscript", wordCount: 2000, language: 1 } });
  await api.put(`/api/order-form/${id}/selected-service`, { data: { serviceIdentities: ["advanced-editing"] } });
  // No additional services: the details step is next.
  await api.post("/en/researcher/submit/additional-services", { form: { intent: "next" }, maxRedirects: 0 });
  return id;
}

test("the area of study is chosen in three cascading selects, then the details step goes on", async ({ page }) => {
  // What the page's script says, kept as annotations: in CI this page once stayed unhydrated (session 11 note).
  page.on("pageerror", (e) => test.info().annotations.push({ type: "pageerror", description: String(e).slice(0, 500) }));
  page.on("console", (m) => {
    if (m.type() === "error") test.info().annotations.push({ type: "console", description: m.text().slice(0, 500) });
  });
  page.on("requestfailed", (r) => test.info().annotations.push({ type: "requestfailed", description: r.url() }));
  await draftAtDetails(page);
  await page.goto("/en/researcher/submit/details");
  const title = `Cascading areas ${Date.now()}`;
  await page.locator('input[name="projectTitle"]').fill(title);
  // Nothing chosen yet: the lower levels wait for the one above.
  await expect(page.locator('select[name="areaParentId"]')).toBeDisabled();
  await expect(page.locator('select[name="areaOfStudyId"]')).toBeDisabled();
  await chooseArea(page, jsEnabled(test.info()));
  // The title typed before a no-JS "Show the next level" is still there.
  await expect(page.locator('input[name="projectTitle"]')).toHaveValue(title);
  // The second level lists only the disciplines of the first level's field.
  await expect(page.locator('select[name="areaParentId"] option').nth(1)).toHaveText("Biology");
  await page.locator('input[name="styleOfEnglish"][value="american"]').check();
  await page.getByRole("button", { name: "Next", exact: true }).last().click();
  // Saved: a visitor goes on to sign in before the payment step.
  await expect(page).toHaveURL(/payment-details$/);
});

test("a request that fails shows 'network-request-error' with a reload action", async ({ page }) => {
  if (jsEnabled(test.info())) {
    await draftAtDetails(page);
    await page.goto("/cn/researcher/submit/details");
    // Hydrated: the cascade's no-JS "Show the next level" button is gone (a click before would load a whole page).
    await expect(page.locator('button[name="intent"][value="area"]')).toHaveCount(0, { timeout: 15_000 });
    // The network goes away: the next client-side navigation's data request fails.
    await page.route("**/*.data*", (route) => route.abort("internetdisconnected"));
    await page.locator('a[href="/cn/researcher/submit/additional-services"]').first().click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("无法连接到门户");
    await expect(dialog).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    // The page underneath says the same, and its reload link (or the modal's button) loads the address again.
    await page.unroute("**/*.data*");
    await page.locator("[data-reload]").click();
    await expect(page).toHaveURL(/\/cn\/researcher\/submit\/additional-services$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
  } else {
    // Without JavaScript the browser shows a failed request itself; the portal's own error pages carry the message
    // and a plain reload link to the same address.
    await page.goto("/br/error");
    await expect(page.locator("[data-network-request-error]")).toContainText("Não conseguimos acessar o portal");
    await expect(page.locator("[data-reload]")).toHaveAttribute("href", "/br/error");
    await page.locator("[data-reload]").click();
    await expect(page).toHaveURL(/\/br\/error$/);
  }
});
