import { chromium, type BrowserContext } from "playwright-core";
import { makeDocx } from "./tests/helpers/fixtures";
const BASE = "http://127.0.0.1:3670";
const OUT = "/tmp/spend-shots";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
async function login(ctx: BrowserContext, email: string, password: string) {
  const r = await ctx.request.post(`${BASE}/api/auth/login`, { data: { email, password } });
  if (r.status() !== 200) throw new Error(`login ${email} ${r.status()}`);
}
async function draft(ctx: BrowserContext, title: string) {
  const api = ctx.request;
  const id = (await (await api.get(`${BASE}/api/order-form/new`)).json()).orderForm.identity;
  await api.post(`${BASE}/api/order-form/${id}/files`, { multipart: { mainFiles: { name: "paper.docx", mimeType: DOCX, buffer: await makeDocx(`${title}. `.repeat(60)) } } });
  await api.put(`${BASE}/api/order-form/${id}/basic-details`, { data: { customerGoal: "manuscript", wordCount: 3000, language: 1 } });
  await api.put(`${BASE}/api/order-form/${id}/selected-service`, { data: { serviceIdentities: ["standard-editing"] } });
  await api.put(`${BASE}/api/order-form/${id}/step`, { data: { step: "details" } });
  const area = (await (await api.get(`${BASE}/api/areas-of-study?q=bio`)).json()).areas[0].id;
  await api.put(`${BASE}/api/order-form/${id}/details`, { data: { projectTitle: title, areaOfStudyId: area, styleOfEnglish: "british" } });
  return id;
}
(async () => {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
  const owner = "spend-owner-js@example.com";
  const staff = await browser.newContext({ javaScriptEnabled: false });
  await login(staff, "staff@example.com", "Staff#2026!");
  const sp = await staff.newPage();
  await sp.goto(`${BASE}/en/staff/credits?email=${owner}`);
  await sp.fill("#sc-amount", "15");
  await sp.fill("#sc-note", "Late delivery of order RS1001");
  await sp.click("button.button-primary");
  await sp.waitForURL(/granted=/);
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  await login(ctx, owner, "Factory#Pass-2026");
  const formId = await draft(ctx, "Soil microbes under drought");
  const page = await ctx.newPage();
  for (const lang of ["cn", "br"]) {
    for (const w of [360, 1280]) {
      await sp.setViewportSize({ width: w, height: 900 });
      await sp.goto(`${BASE}/${lang}/staff/credits?email=${owner}`);
      await sp.screenshot({ path: `${OUT}/staff-credits-${lang}-${w}.png`, fullPage: true });
      await page.setViewportSize({ width: w, height: 900 });
      await page.goto(`${BASE}/${lang}/researcher`);
      await page.screenshot({ path: `${OUT}/dashboard-${lang}-${w}.png`, fullPage: true });
      await page.goto(`${BASE}/${lang}/researcher/submit/payment-details`);
      await page.check(".balance-prepay-partialPayment");
      await page.fill("#pf-prepayAmount", "20");
      await page.check(".balance-credits-yes");
      await page.click("button.balance-apply");
      await page.waitForLoadState("load");
      await page.locator("fieldset.balance-panel").scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${OUT}/wizard-${lang}-${w}.png`, fullPage: w === 1280 });
      // and an error state
      await page.fill("#pf-prepayAmount", "999");
      await page.click("button.balance-apply");
      await page.waitForLoadState("load");
      await page.locator("fieldset.balance-panel").screenshot({ path: `${OUT}/wizard-error-${lang}-${w}.png` });
    }
  }
  const placed = await ctx.request.post(`${BASE}/api/order-form/${formId}/payments`, { data: { paymentMethodId: 9, acceptedTermsAndConditions: true }, headers: { "Idempotency-Key": `shots-${formId}` } });
  const inv = (await placed.json()).order.invoiceNumber;
  for (const lang of ["cn", "br"]) for (const w of [360, 1280]) {
    await page.setViewportSize({ width: w, height: 900 });
    await page.goto(`${BASE}/${lang}/researcher/invoices/pay/${inv}`);
    await page.screenshot({ path: `${OUT}/pay-${lang}-${w}.png`, fullPage: w === 1280 });
  }
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
