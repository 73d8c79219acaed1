import { expect, test } from "@playwright/test";
import { asStaff, jsEnabled, newResearcher, placeBankTransferOrder } from "./helpers";

// Issue 22 item 5, billing states (ADR 067), with and without JavaScript: the order panel links the invoice's PDF,
// and staff acting for the researcher reach the staff page where the invoice's payment is recorded. (The prepay
// form's bank transfer in the spec's default, disabled, is tests/e2e/flagged/billing-states.spec.ts: this portal
// allows it for the issue 13 journeys.)

test.describe("billing states", () => {
  test("the order panel links the invoice PDF; staff 'view as' the researcher and go on to record its payment", async ({
    page,
    browser,
    baseURL,
  }, info) => {
    const user = await newResearcher(page.request);
    const order = await placeBankTransferOrder(page.request, "Panel links of an unpaid order");
    await page.goto("/en/researcher");
    const panel = page.locator(`[data-order="${order.externalId}"]`);
    const pdf = panel.getByRole("link", { name: "Invoice (PDF)" });
    await expect(pdf).toHaveAttribute("href", `/api/invoice/${order.invoiceNumber}/pdf`);
    const answer = await page.request.get((await pdf.getAttribute("href"))!);
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toContain("application/pdf");
    // The researcher has no staff link.
    await expect(panel.getByRole("button", { name: "Record a payment (staff)" })).toHaveCount(0);

    await asStaff(browser, baseURL!, jsEnabled(info), async (staff) => {
      await staff.goto(`/en/staff?q=${encodeURIComponent(user.email)}`);
      await staff
        .getByRole("row", { name: new RegExp(user.email) })
        .getByRole("button")
        .click();
      await expect(staff).toHaveURL(/\/en\/researcher$/);
      const acting = staff.locator(`[data-order="${order.externalId}"]`);
      await acting.getByRole("button", { name: "Record a payment (staff)" }).click();
      await expect(staff).toHaveURL(new RegExp(`/en/staff/orders/${order.externalId}#so-payment$`));
      await expect(staff.locator("#so-payment")).toBeVisible();
    });
  });
});
