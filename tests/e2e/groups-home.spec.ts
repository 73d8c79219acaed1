import { expect, test, type Page } from "@playwright/test";
import { draftAtPayment, guardThirdParty, newResearcher } from "./helpers";

// Issue 25 item 5 (ADR 077): joining a preferred group on the dashboard gives an open order form the group's
// discount in "My Order" (a "Discount" row: spec 1 §9 hides the preferred group's description there); leaving takes
// it away. With JavaScript and without (plain form posts).
async function myOrder(page: Page) {
  await page.goto("/en/researcher/submit/payment-details");
  return page.locator(".summary-table:visible").first();
}

test("join a group → the wizard's price shows the group discount → leave → gone", async ({ page, baseURL }) => {
  const checkOrigins = guardThirdParty(page, baseURL!);
  const user = await newResearcher(page.request);
  expect((await page.request.post("/api/auth/login", { data: { email: user.email, password: user.password } })).status()).toBe(200);
  await draftAtPayment(page.request, "Preferred group pricing");

  const before = await myOrder(page);
  await expect(before).toBeVisible();
  await expect(before.locator("tr.discount")).toHaveCount(0);
  const totalBefore = await before.locator(".total").textContent();

  await page.goto("/en/researcher");
  await page.getByLabel("Group code").fill("not-a-group");
  await page.getByRole("button", { name: "Join group" }).click();
  await expect(page.getByText("We could not associate you with that group code.")).toBeVisible();
  await page.getByLabel("Group code").fill("uni-demo");
  await page.getByRole("button", { name: "Join group" }).click();
  await expect(page.getByText("You have been associated with the group code you entered.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your group" })).toBeVisible();
  await expect(page.getByText("Your group discount: 10%")).toBeVisible();

  const joined = await myOrder(page);
  await expect(joined.locator("tr.discount")).toHaveText(/Discount\s*-\$15/);
  await expect(joined.locator(".total")).toHaveText("$135");

  await page.goto("/en/researcher");
  await page.getByRole("button", { name: "Leave this group" }).click();
  await expect(page.getByText("You have left the group.")).toBeVisible();
  await expect(page.getByLabel("Group code")).toBeVisible();

  const left = await myOrder(page);
  await expect(left.locator("tr.discount")).toHaveCount(0);
  await expect(left.locator(".total")).toHaveText(totalBefore!);
  checkOrigins();
});
