// Issue 22 item 5 (ADR 066): staff put a researcher in the states of the account from the staff researcher page,
// and the researcher meets them — the country question, the wfoe terms, "check back later" — with and without
// JavaScript; unknown /researcher paths are a 404, never "coming soon".
import { expect, test, type Page } from "@playwright/test";
import { asStaff, jsEnabled, newResearcher, signIn } from "./helpers";

/** The staff researcher page of `email`, reached from the staff search. */
async function openStates(staff: Page, email: string) {
  await staff.goto(`/en/staff?q=${encodeURIComponent(email)}`);
  await staff.getByRole("link", { name: "Account states" }).click();
  await expect(staff.getByRole("heading", { level: 1, name: "Researcher account states" })).toBeVisible();
}

test("staff ask for the country again and put a researcher through the wfoe migration", async ({
  page,
  request,
  browser,
  baseURL,
}, info) => {
  const js = jsEnabled(info);
  const researcher = await newResearcher(request);
  await signIn(page, researcher);
  await expect(page.getByRole("heading", { name: "My Orders" })).toBeVisible();
  await expect(page.getByText("Please choose your country")).toHaveCount(0);

  await asStaff(browser, baseURL!, js, async (staff) => {
    await openStates(staff, researcher.email);
    await staff.getByRole("button", { name: "Ask for the country again" }).click();
    await expect(staff.getByRole("status")).toContainText("The change has been saved");
    await expect(staff.getByText("No country: the researcher is asked for it")).toBeVisible();
  });
  await page.goto("/en/researcher");
  await expect(page.getByRole("heading", { name: "Please choose your country" })).toBeVisible();
  await page.locator("#country-dialog-select").selectOption("BR");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Please choose your country" })).toHaveCount(0);

  await asStaff(browser, baseURL!, js, async (staff) => {
    await openStates(staff, researcher.email);
    await staff.getByRole("button", { name: "Put in the migrating group" }).click();
    await expect(staff.getByText("In the migrating group: the researcher is asked to accept the new terms")).toBeVisible();
  });
  await page.goto("/en/researcher");
  await expect(page).toHaveURL(/\/en\/researcher\/wfoe-migration-status$/);
  await page.getByRole("button", { name: "I accept the updated terms" }).click();
  await expect(page.getByText("please check back later")).toBeVisible();

  await asStaff(browser, baseURL!, js, async (staff) => {
    await openStates(staff, researcher.email);
    await expect(staff.getByText("Terms accepted: the researcher is asked to check back later")).toBeVisible();
    await staff.getByRole("button", { name: "Mark the migration complete" }).click();
    // Saved before the staff context closes (with JavaScript the click is a fetch; "Migration complete" alone
    // would also match the button's own label).
    await expect(staff.getByRole("status")).toContainText("The change has been saved");
    await expect(staff.getByRole("button", { name: "Mark the migration complete" })).toHaveCount(0);
  });
  await page.goto("/en/researcher");
  await expect(page).toHaveURL(/\/en\/researcher$/);
  await expect(page.getByRole("heading", { name: "My Orders" })).toBeVisible();
});

test("staff hide a researcher's invoices, and unknown /researcher paths are a 404", async ({ page, request, browser, baseURL }, info) => {
  const researcher = await newResearcher(request);
  await signIn(page, researcher);
  await asStaff(browser, baseURL!, jsEnabled(info), async (staff) => {
    await openStates(staff, researcher.email);
    await staff.getByRole("button", { name: "Hide invoices" }).click();
    await expect(staff.locator('[data-state="hide-invoices"]')).toHaveText("Yes");
    await staff.getByRole("button", { name: "Show invoices" }).click();
    await expect(staff.locator('[data-state="hide-invoices"]')).toHaveText("No");
  });
  const r = await page.goto("/en/researcher/index/anything");
  expect(r?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByText("will open soon")).toHaveCount(0);
});
