import fs from "node:fs";
import path from "node:path";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import type { ShotFacts } from "./seed";
import { fillBoletoForm, payNowAndWaitForPayment, placeBankTransferOrder, SAO_PAULO_PAYER } from "../e2e/helpers";

// Screenshots of the billing pages (issue 21 "Done when"), JavaScript off, at 360 and 1280 px, in Chinese (cn) and
// Brazilian Portuguese (br): the invoice lists, an order's details (its invoice), the pay page, a pending payment,
// the receipt and the invoice PDFs, and the staff payment pages (a card payment, an overpaid one, and the
// researcher's own payment by boleto or Alipay). Saved to SHOTS_DIR for a person to look at; asserts only that
// each page answered.

const OUT = process.env.SHOTS_DIR ?? "/work/shots/billing";
const WIDTHS = [360, 1280] as const;
const STAFF = { email: "staff@example.com", password: "Staff#2026!" };

/** The seeded facts (tests/shots/seed.ts), written once the portal has made them (after it answers /healthz). */
async function facts(): Promise<ShotFacts> {
  const file = path.resolve(".tmp/shots-facts.json");
  await expect.poll(() => fs.existsSync(file), { timeout: 90_000 }).toBe(true);
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

async function shoot(page: Page, name: string, url: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
    const r = await page.goto(url);
    expect(r?.status(), `${name} ${url}`).toBeLessThan(400);
    await page.screenshot({ path: path.join(OUT, `${name}-${width}.png`), fullPage: true });
    // A character the page's bytes could not spell (U+FFFD), in the HTML as sent or as the browser read it.
    const sent = (await (await page.request.get(url)).body()).toString("utf8");
    const garbled = [...(await page.content()).matchAll(/.{0,40}\uFFFD.{0,40}/g), ...sent.matchAll(/.{0,40}\uFFFD.{0,40}/g)].map(
      (m) => m[0],
    );
    NOTES.push({ shot: `${name}-${width}`, url, ...(await look(page)), garbled });
  }
  fs.writeFileSync(path.join(OUT, "notes.json"), JSON.stringify(NOTES, null, 2));
}

/** What a person should look at twice: the page wider than the window, and English words on a cn or br page. */
const NOTES: { shot: string; url: string; overflow: string[]; english: string[]; garbled: string[] }[] = [];
async function look(page: Page): Promise<{ overflow: string[]; english: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const overflow = [...document.querySelectorAll("body *")]
      .filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && r.right > width + 1 && !e.closest(".table-scroll");
      })
      .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")}: ${(e.textContent ?? "").trim().slice(0, 60)}`)
      .slice(0, 15);
    const english = (
      document.body.innerText.match(/[^\n]*\b(the|and|of|is|are|with|payment|invoice|refund|credit|paid|amount)\b[^\n]*/gi) ?? []
    ).slice(0, 15);
    return { overflow, english };
  });
}

/**
 * A PDF's pages drawn by pdf.js (unpdf's build) on a page of a made-up origin: the headless browser has no PDF
 * viewer. The PDF itself is saved beside its picture.
 */
async function shootPdf(browser: Browser, from: BrowserContext, name: string, url: string) {
  const r = await from.request.get(url);
  expect(r.status(), url).toBe(200);
  const pdf = await r.body();
  fs.writeFileSync(path.join(OUT, `${name}.pdf`), pdf);
  const context = await browser.newContext({ javaScriptEnabled: true, viewport: { width: 1000, height: 1300 } });
  try {
    const page = await context.newPage();
    const origin = "http://pdf.shots";
    await page.route(`${origin}/**`, (route) => {
      const at = new URL(route.request().url()).pathname;
      if (at === "/pdfjs.mjs") return route.fulfill({ contentType: "text/javascript", body: fs.readFileSync(PDFJS) });
      if (at === "/doc.pdf") return route.fulfill({ contentType: "application/pdf", body: pdf });
      return route.fulfill({ contentType: "text/html", body: PDF_PAGE });
    });
    await page.goto(`${origin}/`);
    await expect(page.locator("body[data-done]")).toBeAttached({ timeout: 30_000 });
    expect(await page.locator("body").getAttribute("data-done")).toBe("ok");
    await page.screenshot({ path: path.join(OUT, `${name}-1280.png`), fullPage: true });
  } finally {
    await context.close();
  }
}

const PDFJS = path.resolve("node_modules/unpdf/dist/pdfjs.mjs");
const PDF_PAGE = `<!doctype html><html><body style="margin:0;background:#888">
<script type="module">
try {
  const pdfjs = await import("/pdfjs.mjs");
  const data = new Uint8Array(await (await fetch("/doc.pdf")).arrayBuffer());
  const doc = await pdfjs.getDocument({ data }).promise;
  for (let n = 1; n <= doc.numPages; n++) {
    const p = await doc.getPage(n);
    const viewport = p.getViewport({ scale: 1.6 });
    const canvas = document.createElement("canvas");
    canvas.width = viewport.width;
    canvas.height = viewport.height;
    canvas.style = "display:block;margin:0 auto 12px";
    document.body.append(canvas);
    await p.render({ canvasContext: canvas.getContext("2d"), viewport }).promise;
  }
  document.body.dataset.done = "ok";
} catch (e) {
  document.body.dataset.done = String(e);
}
</script></body></html>`;

async function signInApi(page: Page, user: { email: string; password: string }) {
  expect((await page.request.post("/api/auth/login", { data: user })).status()).toBe(200);
}

test("billing pages, JavaScript off, cn and br at 360 and 1280 px", async ({ browser, page }) => {
  fs.mkdirSync(OUT, { recursive: true });
  const f = await facts();
  const ownPayments: Record<string, string> = {};
  const orderOf = (o: { externalId: string }) => o.externalId;

  // ── br: three orders — one to pay, one whose boleto waits, one whose boleto is paid at the test bank ─────────
  await signInApi(page, { email: f.researchers.br.email, password: f.password });
  const brazil = { brazilPaymentMethods: "no-requirements" };
  const brToPay = await placeBankTransferOrder(page.request, "Biodiversidade do cerrado", brazil);
  const brWaiting = await placeBankTransferOrder(page.request, "Hidrologia do Pantanal", brazil);
  const brPaid = await placeBankTransferOrder(page.request, "Ecologia de manguezais", brazil);
  const issueBoleto = async (number: string) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/br/researcher/invoices/pay/${number}`);
    await fillBoletoForm(page, SAO_PAULO_PAYER);
    return payNowAndWaitForPayment(page);
  };
  const pendingBoleto = await issueBoleto(brWaiting.invoiceNumber);
  const paidBoleto = await issueBoleto(brPaid.invoiceNumber);
  await page.getByRole("link", { name: "Pagar o boleto no banco de teste" }).click();
  await page.locator("form.actions button[value=pay]").click();
  await page.waitForURL(/\/br\/researcher\/invoices\/unpaid/);
  ownPayments.br = paidBoleto.split("/").at(-1)!;

  await shoot(page, "br-invoices", "/br/researcher/invoices");
  await shoot(page, "br-invoices-unpaid", "/br/researcher/invoices/unpaid");
  await shoot(page, "br-invoice-details-unpaid", `/br/researcher/index/details/${orderOf(brToPay)}`);
  await shoot(page, "br-invoice-details-paid", `/br/researcher/index/details/${orderOf(brPaid)}`);
  await shoot(page, "br-pay", `/br/researcher/invoices/pay/${brToPay.invoiceNumber}`);
  await shoot(page, "br-pending-boleto", pendingBoleto);
  await page.goto("/br/researcher/invoices");
  const brReceipt = await page.locator('a[href^="/api/payment/"][href$="/pdf"]').first().getAttribute("href");
  await shootPdf(browser, page.context(), "br-receipt", brReceipt!);
  await shootPdf(browser, page.context(), "br-invoice-pdf", `/api/invoice/${brPaid.invoiceNumber}/pdf`);
  await page.context().clearCookies();

  // ── cn: two orders — one to pay, one paid with Alipay on the test phone ─────────────────────────────────────
  await signInApi(page, { email: f.researchers.cn.email, password: f.password });
  const cnToPay = await placeBankTransferOrder(page.request, "Karst hydrology");
  const cnPaid = await placeBankTransferOrder(page.request, "Monsoon variability");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/cn/researcher/invoices/pay/${cnPaid.invoiceNumber}`);
  await page.locator(".pm-method", { hasText: "支付宝" }).click();
  await page.locator("fieldset.pm-address").first().getByLabel("姓名").fill("李伟");
  await page.getByLabel("我接受服务条款").check();
  await page.locator(".payoff-summary").getByRole("button", { name: "立即支付" }).click();
  await page.waitForURL(/\/cn\/researcher\/payment\/[0-9a-f-]{36}$/);
  const alipay = new URL(page.url()).pathname;
  await shoot(page, "cn-pending-alipay", alipay);
  ownPayments.cn = alipay.split("/").at(-1)!;
  await page.getByRole("link", { name: "打开测试手机页面（无需扫码即可付款）" }).click();
  await page.locator("form.actions button[value=pay]").click();
  await page.waitForURL(/\/cn\/researcher\/invoices\/unpaid/);

  await shoot(page, "cn-invoices", "/cn/researcher/invoices");
  await shoot(page, "cn-invoices-unpaid", "/cn/researcher/invoices/unpaid");
  await shoot(page, "cn-invoice-details-unpaid", `/cn/researcher/index/details/${orderOf(cnToPay)}`);
  await shoot(page, "cn-invoice-details-paid", `/cn/researcher/index/details/${orderOf(cnPaid)}`);
  await shoot(page, "cn-pay", `/cn/researcher/invoices/pay/${cnToPay.invoiceNumber}`);
  await page.goto("/cn/researcher/invoices");
  const cnReceipt = await page.locator('a[href^="/api/payment/"][href$="/pdf"]').first().getAttribute("href");
  await shootPdf(browser, page.context(), "cn-receipt", cnReceipt!);
  await shootPdf(browser, page.context(), "cn-invoice-pdf", `/api/invoice/${cnPaid.invoiceNumber}/pdf`);
  await page.context().clearCookies();

  // ── staff: the payment pages in both languages ──────────────────────────────────────────────────────────────
  await signInApi(page, STAFF);
  for (const lang of ["cn", "br"] as const) {
    await shoot(page, `${lang}-staff-payment-card`, `/${lang}/staff/payments/${f.payments.card}`);
    await shoot(page, `${lang}-staff-payment-overpaid`, `/${lang}/staff/payments/${f.payments.overpaid}`);
    await shoot(page, `${lang}-staff-payment-own`, `/${lang}/staff/payments/${ownPayments[lang]}`);
    await shoot(page, `${lang}-staff-payments`, `/${lang}/staff/payments`);
  }
});
