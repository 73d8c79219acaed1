import { expect, test } from "@playwright/test";
import { guardThirdParty, jsEnabled, newResearcher, placeBankTransferOrder } from "./helpers";

const WORDS = {
  en: {
    heading: "Unpaid invoices",
    select: "Select invoice",
    selected: "Selected 2 invoice(s) totaling",
    payNow: "Pay now",
    paySelected: "Pay selected invoices",
  },
  cn: { heading: "未付发票", select: "选择发票", selected: "已选择 2 张发票，合计", payNow: "立即支付", paySelected: "支付所选发票" },
} as const;

for (const lang of ["en", "cn"] as const) {
  test(`invoices (${lang}): the unpaid list, two selected, Pay now goes to the pay page`, async ({ page, baseURL }, info) => {
    const words = WORDS[lang];
    const checkOrigins = guardThirdParty(page, baseURL!);
    const user = await newResearcher(page.request);
    expect((await page.request.post("/api/auth/login", { data: { email: user.email, password: user.password } })).status()).toBe(200);
    await placeBankTransferOrder(page.request, "Retreating glaciers of the Alps");
    await placeBankTransferOrder(page.request, "Soil bacteria under drought");
    const load = await (await page.request.get("/api/invoice/load")).json();
    // Newest first, as the list shows them and as the pay page's address lists them.
    const numbers: string[] = load.invoices.map((i: { invoiceNumber: string }) => i.invoiceNumber);
    expect(numbers).toHaveLength(2);

    await page.goto(`/${lang}/researcher/invoices/unpaid`);
    await expect(page.getByRole("heading", { level: 1, name: words.heading })).toBeVisible();
    for (const n of numbers) await page.getByLabel(`${words.select} ${n}`).check();

    if (jsEnabled(info)) {
      // The banner follows the boxes; its link is the pay page's address.
      await expect(page.getByRole("status").filter({ hasText: words.selected })).toBeVisible();
      await page.getByRole("link", { name: words.payNow }).click();
    } else {
      await page.getByRole("button", { name: words.paySelected }).click();
    }
    await expect(page).toHaveURL(new RegExp(`/${lang}/researcher/invoices/pay/${encodeURIComponent(numbers.join(","))}$`));
    checkOrigins();
  });
}

test("invoices: the full list with its documents and the filter's Reset", async ({ page, baseURL }) => {
  const checkOrigins = guardThirdParty(page, baseURL!);
  const user = await newResearcher(page.request);
  expect((await page.request.post("/api/auth/login", { data: { email: user.email, password: user.password } })).status()).toBe(200);
  const order = (await placeBankTransferOrder(page.request, "Coral reefs in warming seas")).externalId;
  await page.goto("/en/researcher/invoices");
  await expect(page).toHaveTitle(/Invoices/);
  await expect(page.getByRole("link", { name: order })).toBeVisible();
  await expect(page.getByRole("link", { name: "Invoice (PDF)" })).toHaveAttribute("href", /\/api\/invoice\/INV\d+\/pdf$/);
  await page.getByLabel("Order number").fill("NO-SUCH-ORDER");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No invoices match this search.")).toBeVisible();
  await page.getByRole("link", { name: "Reset" }).click();
  await expect(page).toHaveURL(/\/en\/researcher\/invoices$/);
  await expect(page.getByRole("link", { name: order })).toBeVisible();
  checkOrigins();
});
