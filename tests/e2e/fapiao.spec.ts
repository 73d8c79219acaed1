import { expect, test } from "@playwright/test";
import { SEEDED_STAFF, guardThirdParty, jsEnabled, signIn } from "./helpers";
import { FAPIAO_OWNERS } from "./fixtures/fapiao-owners";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
const VALID = "914403001922038216"; // Huawei Technologies Co., Ltd.

// Issue 13 §4: a researcher in China with a paid invoice (CN localisation) requests a special fapiao — refused first
// for a wrong check character —, staff issue it with its PDF, the researcher downloads it and cancels it within the
// window. Once with JavaScript, once without.
test("a stored fapiao: request, staff issue with a PDF, download and cancel", async ({ page, browser, baseURL }, info) => {
  const owner = FAPIAO_OWNERS.find((o) => o.project === info.project.name)!;
  const checkOrigins = guardThirdParty(page, baseURL!);
  await signIn(page, owner, "cn");
  await page.goto("/cn/researcher/invoices");
  // The invoice list's fapiao column: a paid CN invoice offers the request.
  await page.locator("td.invoice-fapiao").getByRole("link", { name: "申请发票" }).first().click();
  await expect(page).toHaveURL(/\/cn\/researcher\/invoices\/[^/]+\/fapiao$/);
  const invoiceNumber = decodeURIComponent(new URL(page.url()).pathname.split("/")[4]);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^为订单 .+ 申请发票$/);
  await expect(page).toHaveTitle(/申请发票/);

  await page.getByLabel("增值税专用发票").check();
  await page.getByLabel("开具时间").selectOption("express");
  await page.getByLabel("发票抬头").fill("华为技术有限公司");
  await page.getByLabel("纳税人识别号").fill(VALID.slice(0, 17) + "7");
  await page.getByRole("button", { name: "申请发票" }).click();
  await expect(page.getByText("纳税人识别号无效")).toBeVisible();
  // The form keeps what was typed.
  await expect(page.getByLabel("发票抬头")).toHaveValue("华为技术有限公司");
  await expect(page.getByLabel("增值税专用发票")).toBeChecked();
  await page.getByLabel("纳税人识别号").fill(VALID);
  await page.getByRole("button", { name: "申请发票" }).click();
  await expect(page).toHaveURL(/\/cn\/researcher\/invoices\?fapiao=created-special$/);
  await expect(page.getByText("您的增值税专用发票申请已提交")).toBeVisible();

  // Staff issue it: the fapiao number and the PDF (a multipart form).
  const staffContext = await browser.newContext({ baseURL, javaScriptEnabled: jsEnabled(info) });
  const staff = await staffContext.newPage();
  await signIn(staff, SEEDED_STAFF, "en");
  await staff.goto("/en/staff/fapiaos");
  await staff.getByRole("link", { name: invoiceNumber, exact: true }).click();
  await expect(staff.getByRole("heading", { level: 1 })).toHaveText(/^Fapiao \d+$/);
  await staff.getByLabel("Fapiao number").fill("44031234");
  await staff.getByLabel("Fapiao PDF").setInputFiles({ name: "fapiao.pdf", mimeType: "application/pdf", buffer: PDF });
  await staff.getByRole("button", { name: "Mark issued and upload" }).click();
  await expect(staff.getByText("The fapiao is marked issued")).toBeVisible();
  await staffContext.close();

  // The researcher sees it issued, downloads the PDF and cancels it (within the year).
  await page.goto("/cn/researcher/invoices");
  const cell = page.locator("td.invoice-fapiao", { hasText: "44031234" });
  await expect(cell).toContainText("已开具");
  const href = await cell.getByRole("link", { name: "下载发票" }).getAttribute("href");
  const pdf = await page.request.get(href!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect(Buffer.from(await pdf.body()).equals(PDF)).toBe(true);

  await cell.getByRole("link", { name: "查看" }).click();
  await expect(page.getByText("44031234")).toBeVisible();
  await page.getByRole("button", { name: "作废发票" }).click();
  await expect(page).toHaveURL(/\/cn\/researcher\/invoices\?fapiao=cancelled-special$/);
  await expect(page.getByText("您的增值税专用发票已作废")).toBeVisible();
  // Cancelled, the invoice may be asked for a new fapiao.
  await expect(page.locator("tr", { hasText: invoiceNumber }).getByRole("link", { name: "申请发票" })).toBeVisible();
  checkOrigins();
});
