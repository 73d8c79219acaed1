import fs from "node:fs";
import path from "node:path";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import type { ShotFacts } from "./seed";

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
  }
}

/** A PDF as the browser's viewer shows it (a page of its own with JavaScript, which the viewer needs). */
async function shootPdf(browser: Browser, from: BrowserContext, name: string, url: string) {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, storageState: await from.storageState() });
  try {
    const page = await context.newPage();
    const r = await page.request.get(url);
    expect(r.status(), url).toBe(200);
    fs.writeFileSync(path.join(OUT, `${name}.pdf`), await r.body());
    await page.setViewportSize({ width: 1280, height: 1400 });
    await page.goto(`${url}${url.includes("?") ? "&" : "?"}display=inline`).catch(() => null);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: path.join(OUT, `${name}-1280.png`) });
  } finally {
    await context.close();
  }
}

async function signInApi(page: Page, user: { email: string; password: string }) {
  expect((await page.request.post("/api/auth/login", { data: user })).status()).toBe(200);
}

test("billing pages, JavaScript off, cn and br at 360 and 1280 px", async ({ browser, page }) => {
  fs.mkdirSync(OUT, { recursive: true });
  const f = await facts();
  const ownPayments: Record<string, string> = {};

  // ── br: a boleto left pending, another issued and paid at the test bank ─────────────────────────────────────
  const br = f.researchers.br;
  await signInApi(page, { email: br.email, password: f.password });
  const issueBoleto = async (number: string) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/br/researcher/invoices/pay/${number}`);
    await page.getByLabel("Formas de pagamento brasileiras (Allpago, boleto)").check();
    await page.locator(".pm-method", { hasText: "Boleto" }).click();
    const billing = page.locator("fieldset.pm-address").first();
    await billing.getByLabel("Nome completo").fill("Ana Souza");
    await billing.getByLabel("Endereço", { exact: true }).fill("Av. Paulista 1000");
    await billing.getByLabel("Cidade").fill("São Paulo");
    await billing.getByLabel("Estado", { exact: true }).selectOption({ label: "São Paulo" });
    await billing.getByLabel("CEP / código postal").fill("01310-100");
    await page.getByLabel("Tipo de documento").selectOption("CPF");
    await page.getByLabel("Número do documento").fill("529.982.247-25");
    await page.getByLabel("Aceito os termos de serviço").check();
    await page.locator(".payoff-summary").getByRole("button", { name: "Pagar agora" }).click();
    await page.waitForURL(/\/br\/researcher\/payment\/[0-9a-f-]{36}$/);
    return new URL(page.url()).pathname;
  };
  const pendingBoleto = await issueBoleto(br.unpaid[1]);
  const paidBoleto = await issueBoleto(br.unpaid[2]);
  await page.getByRole("link", { name: /banco de teste|test bank/i }).click();
  await page.locator("form.actions button[value=pay]").click();
  ownPayments.br = paidBoleto.split("/").at(-1)!;

  await shoot(page, "br-invoices", "/br/researcher/invoices");
  await shoot(page, "br-invoices-unpaid", "/br/researcher/invoices/unpaid");
  await shoot(page, "br-invoice-details-unpaid", `/br/researcher/index/details/${br.orders[br.unpaid[0]]}`);
  await shoot(page, "br-invoice-details-paid", `/br/researcher/index/details/${br.orders[br.paid]}`);
  await shoot(page, "br-pay", `/br/researcher/invoices/pay/${br.unpaid[0]}`);
  await shoot(page, "br-pending-boleto", pendingBoleto);
  await page.goto("/br/researcher/invoices");
  const brReceipt = await page.locator('a[href^="/api/payment/"][href$="/pdf"]').first().getAttribute("href");
  await shootPdf(browser, page.context(), "br-receipt", brReceipt!);
  await shootPdf(browser, page.context(), "br-invoice-pdf", `/api/invoice/${br.paid}/pdf`);
  await page.context().clearCookies();

  // ── cn: an invoice paid with Alipay on the test phone ───────────────────────────────────────────────────────
  const cn = f.researchers.cn;
  await signInApi(page, { email: cn.email, password: f.password });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/cn/researcher/invoices/pay/${cn.unpaid[1]}`);
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

  await shoot(page, "cn-invoices", "/cn/researcher/invoices");
  await shoot(page, "cn-invoices-unpaid", "/cn/researcher/invoices/unpaid");
  await shoot(page, "cn-invoice-details-unpaid", `/cn/researcher/index/details/${cn.orders[cn.unpaid[0]]}`);
  await shoot(page, "cn-invoice-details-paid", `/cn/researcher/index/details/${cn.orders[cn.paid]}`);
  await shoot(page, "cn-pay", `/cn/researcher/invoices/pay/${cn.unpaid[0]}`);
  await page.goto("/cn/researcher/invoices");
  const cnReceipt = await page.locator('a[href^="/api/payment/"][href$="/pdf"]').first().getAttribute("href");
  await shootPdf(browser, page.context(), "cn-receipt", cnReceipt!);
  await shootPdf(browser, page.context(), "cn-invoice-pdf", `/api/invoice/${cn.paid}/pdf`);
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
