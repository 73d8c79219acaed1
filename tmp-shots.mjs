import { chromium } from "playwright-core";
const BASE = "http://127.0.0.1:3680";
const OUT = "/tmp/fp-shots";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
async function ctxFor(email, password) {
  const ctx = await browser.newContext({ baseURL: BASE, javaScriptEnabled: false });
  const r = await ctx.request.post("/api/auth/login", { data: { email, password } });
  if (r.status() !== 200) throw new Error(`login ${email} ${r.status()}`);
  return ctx;
}
async function shot(ctx, path, name, widths = [360, 1280], before) {
  const page = await ctx.newPage();
  for (const w of widths) {
    await page.setViewportSize({ width: w, height: 900 });
    await page.goto(BASE + path);
    if (before) await before(page);
    await page.screenshot({ path: `${OUT}/${name}-${w}.png`, fullPage: true });
  }
  await page.close();
}
const owner = await ctxFor("fapiao-owner-shots@example.com", "Factory#Pass-2026");
const inv = (await (await owner.request.get("/api/invoice/load")).json()).invoices[0].invoiceNumber;
for (const lang of ["cn", "br"]) await shot(owner, `/${lang}/researcher/invoices/${inv}/fapiao`, `create-${lang}`);
// Refused: empty form, then a wrong check character.
{
  const page = await owner.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${BASE}/cn/researcher/invoices/${inv}/fapiao`);
  await page.locator('input[name="title"]').fill("华为技术有限公司");
  await page.locator('input[name="taxpayerNumber"]').fill("914403001922038217");
  await page.locator('main form.card button[type="submit"]').click();
  await page.screenshot({ path: `${OUT}/create-errors-cn-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 360, height: 900 });
  await page.screenshot({ path: `${OUT}/create-errors-cn-360.png`, fullPage: true });
  await page.close();
}
const created = await owner.request.post("/api/fapiao", {
  data: { invoiceNumber: inv, type: "special", deliveryTimeline: "express", title: "华为技术有限公司", taxpayerNumber: "914403001922038216", specialInstructions: "请与发票一起寄送纸质版。" },
});
const { fapiao } = await created.json();
await shot(owner, `/cn/researcher/invoices/${inv}/fapiao`, `requested-cn`, [1280]);
const staff = await ctxFor("staff@example.com", "Staff#2026!");
for (const lang of ["cn", "br"]) await shot(staff, `/${lang}/staff/fapiaos`, `staff-list-${lang}`);
for (const lang of ["cn", "br"]) await shot(staff, `/${lang}/staff/fapiaos/${fapiao.id}`, `staff-detail-${lang}`);
{
  const page = await staff.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${BASE}/en/staff/fapiaos/${fapiao.id}`);
  await page.locator('input[name="fapiaoNumber"]').fill("44031234");
  await page.locator('input[name="pdf"]').setInputFiles({ name: "fapiao.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") });
  await page.locator('form[enctype="multipart/form-data"] button[type="submit"]').click();
  await page.screenshot({ path: `${OUT}/staff-issued-en-1280.png`, fullPage: true });
  await page.close();
}
for (const lang of ["cn", "br"]) await shot(owner, `/${lang}/researcher/invoices/${inv}/fapiao`, `issued-${lang}`);
for (const lang of ["cn", "br"]) await shot(owner, `/${lang}/researcher/invoices`, `invoices-${lang}`);
const onUs = await ctxFor("fapiao-us-site@example.com", "Factory#Pass-2026");
const unpaid = (await (await onUs.request.get("/api/invoice/load")).json()).invoices[0].invoiceNumber;
for (const lang of ["cn", "br"])
  await shot(onUs, `/${lang}/researcher/invoices/pay/${unpaid}`, `pay-fapiao-${lang}`, [360, 1280], async (page) => {
    await page.locator("input.fapiao-yes").check();
  });
await shot(onUs, `/cn/researcher/invoices/pay/${unpaid}`, `pay-fapiao-no-cn`, [1280]);
await browser.close();
console.log("done");
