import { expect, test } from "@playwright/test";
import {
  draftAtPayment,
  fillBoletoForm,
  guardThirdParty,
  jsEnabled,
  newResearcher,
  placeBankTransferOrder,
  registerIn,
  SAO_PAULO_PAYER,
  signedInBrazilian,
  signInApi,
  whenHydrated,
} from "./helpers";
import { isValidBoletoLine } from "../../app/common/payments/boleto";

// Issue 12 "Done when": the researcher's payments end to end through the real pages and the providers' built-in
// sandboxes — a card in the wizard (JavaScript: hosted fields) and a declined one, bank transfer where card entry
// cannot run (no JavaScript), three invoices paid at once with Alipay's QR code and its signed notification, and a
// boleto with a valid typed line and its PDF.

/** A researcher registered through the API for a country's site (its localisation follows the country). */

test.describe("payments", () => {
  test("the wizard's payment step: a declined card keeps the order form, a good card pays the order", async ({ page, baseURL }, info) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    const user = await newResearcher(page.request);
    await signInApi(page, user);
    await draftAtPayment(page.request, "Glacier retreat and sea level");
    await page.goto("/en/researcher/submit/payment-details");
    await expect(page.locator(".pm-method", { hasText: "Credit card" })).toContainText("test mode");
    if (!jsEnabled(info)) {
      // Card entry needs JavaScript: the page says so and the order is placed by bank transfer instead.
      await page.locator(".pm-method", { hasText: "Credit card" }).click();
      await expect(page.getByText("Card entry needs JavaScript.")).toBeVisible();
      await page.locator(".pm-method", { hasText: "Bank transfer" }).click();
      await page.getByLabel("I accept the terms of service").check();
      await page.getByRole("button", { name: "Place order" }).click();
      await page.waitForURL(/\/thank-you$/);
      await expect(page.locator("[data-payment=invoice]")).toContainText(/Please pay invoice INV\d+/);
      checkOrigins();
      return;
    }
    await page.locator(".pm-method", { hasText: "Credit card" }).click();
    const fields = page.frameLocator(".card-fields-frame");
    const typeCard = async (number: string) => {
      await fields.getByLabel("Card number").fill(number);
      await fields.getByLabel("Expiry (MM/YY)").fill("12/30");
      await fields.getByLabel("Security code").fill("123");
      // The hosted fields confirm the card by its last four digits once they have made its nonce.
      await expect(fields.locator("#card-result")).toContainText(number.slice(-4));
    };
    await whenHydrated(page);
    const billing = page.locator("fieldset.pm-address").first();
    await billing.getByLabel("Address", { exact: true }).fill("1 Main Street");
    await billing.getByLabel("City").fill("Boston");
    await billing.getByLabel("Country").selectOption({ label: "United States" });
    await billing.getByLabel("State or province").selectOption({ label: "Massachusetts" });
    await billing.getByLabel("Zip or postcode").fill("02108");
    await page.getByLabel("I accept the terms of service").check();

    // Declined (the sandbox's processor-declined test card): the reason, the form as it was.
    await typeCard("4000 1111 1111 1115");
    await page.getByRole("button", { name: "Place order" }).click();
    // (In the page's words, not the provider's "Do Not Honor": #common/payments/declines.)
    await expect(page.getByText("Your bank declined the card. Nothing was charged")).toBeVisible();
    await expect(page).toHaveURL(/\/researcher\/submit\/payment-details/);
    await expect(billing.getByLabel("City")).toHaveValue("Boston");
    const before = await (await page.request.get("/api/order/search")).json();
    expect(before.orders).toHaveLength(0);

    // A good card: paid at once, the order placed and its invoice settled.
    await typeCard("4111 1111 1111 1111");
    await page.getByLabel("I accept the terms of service").check();
    await page.getByRole("button", { name: "Place order" }).click();
    await page.waitForURL(/\/thank-you$/);
    await expect(page.locator("[data-payment=paid]")).toBeVisible();
    const after = await (await page.request.get("/api/order/search")).json();
    expect(after.orders).toHaveLength(1);
    expect(after.orders[0].paid).toBe(true);
    checkOrigins();
  });

  test("three invoices paid at once with Alipay's QR code and its signed notification", async ({ page, baseURL }) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    const user = await newResearcher(page.request);
    await signInApi(page, user);
    const orders = [
      await placeBankTransferOrder(page.request, "Retreating glaciers"),
      await placeBankTransferOrder(page.request, "Soil bacteria"),
      await placeBankTransferOrder(page.request, "Coral bleaching"),
    ];
    // Alipay is a method of the China localisation: this researcher's site offers card and PayPal; the CN
    // researcher below is registered for it.
    const cn = await registerIn(page, {
      prefix: "li",
      password: "Li#Research-2026",
      firstName: "Wei",
      lastName: "Li",
      country: "CN",
      phone: "13800138000",
      currency: "USD",
      language: "cn",
    });
    await signInApi(page, cn);
    const theirs = [
      await placeBankTransferOrder(page.request, "Retreating glaciers"),
      await placeBankTransferOrder(page.request, "Soil bacteria"),
      await placeBankTransferOrder(page.request, "Coral bleaching"),
    ];
    // The first researcher's invoices are not this one's to pay.
    expect((await page.request.get(`/en/researcher/invoices/pay/${orders.map((o) => o.invoiceNumber).join(",")}`)).status()).toBe(404);

    await page.goto(`/en/researcher/invoices/pay/${theirs.map((o) => o.invoiceNumber).join(",")}`);
    const summary = page.locator(".payoff-summary");
    const total = theirs.reduce((a, o) => a + o.total, 0);
    await expect(summary.locator("tfoot")).toContainText(`$${(total / 100).toLocaleString("en-US")}`);
    await page.locator(".pm-method", { hasText: "Alipay" }).click();
    await page.getByLabel("Full name").fill("Wei Li");
    await page.getByLabel("I accept the terms of service").check();
    await summary.getByRole("button", { name: "Pay now" }).click();

    // The pending page: the QR code, labelled test mode; the sandbox's phone pays it and Alipay notifies us.
    await page.waitForURL(/\/en\/researcher\/payment\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("img", { name: "QR code to pay with Alipay" })).toBeVisible();
    await expect(page.getByText("Test mode — no real money")).toBeVisible();
    await page.getByRole("link", { name: "Open the test phone's page (pay without scanning)" }).click();
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL(/\/en\/researcher\/invoices\/unpaid/);
    await expect(page.getByText("Thank you: your payment is being processed.")).toBeVisible();
    const load = await (await page.request.get("/api/invoice/load")).json();
    expect(load.unpaidInvoices).toHaveLength(0);
    const statuses = load.invoices.map((i: { status: string }) => i.status);
    expect(statuses).toEqual(["paid", "paid", "paid"]);
    checkOrigins();
  });

  test("a boleto for a Brazilian researcher: a valid typed line and its PDF", async ({ page, baseURL }) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    await signedInBrazilian(page, { prefix: "ana", password: "Ana#Pesquisa-2026", firstName: "Ana", lastName: "Souza" });
    const order = await placeBankTransferOrder(page.request, "Biodiversidade do cerrado", { brazilPaymentMethods: "no-requirements" });

    await page.goto(`/br/researcher/invoices/pay/${order.invoiceNumber}`);
    // A CPF whose check digits are wrong is refused, with its message.
    await fillBoletoForm(page, SAO_PAULO_PAYER, "123.456.789-00");
    await page.locator(".payoff-summary").getByRole("button", { name: "Pagar agora" }).click();
    await expect(page.getByText("Este CPF não é válido: confira os dígitos.", { exact: true })).toBeVisible();
    await page.getByLabel("Número do documento").fill("529.982.247-25");
    await page.getByLabel("Aceito os termos de serviço").check();
    await page.locator(".payoff-summary").getByRole("button", { name: "Pagar agora" }).click();

    await page.waitForURL(/\/br\/researcher\/payment\/[0-9a-f-]{36}$/);
    const line = (await page.locator(".payment-boleto-line").innerText()).replace(/\D/g, "");
    expect(line).toHaveLength(47);
    expect(isValidBoletoLine(line)).toBe(true);
    const pdfHref = await page.getByRole("link", { name: /boleto \(PDF\)/ }).getAttribute("href");
    const pdf = await page.request.get(pdfHref!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
    checkOrigins();
  });

  test("Allpago card in installments for a Brazilian researcher (the widget needs JavaScript)", async ({ page, baseURL }, info) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    await signedInBrazilian(page, { prefix: "bia", password: "Bia#Pesquisa-2026", firstName: "Beatriz", lastName: "Lima" });
    const order = await placeBankTransferOrder(page.request, "Ecologia de manguezais", { brazilPaymentMethods: "no-requirements" });
    await page.goto(`/br/researcher/invoices/pay/${order.invoiceNumber}`);
    // The widget is the provider's script: nothing to do here before the page is hydrated.
    await whenHydrated(page);
    await page.getByLabel("Formas de pagamento brasileiras (Allpago, boleto)").check();
    await page.locator(".pm-method", { hasText: "Cartão (Allpago)" }).click();
    if (!jsEnabled(info)) {
      await expect(page.getByText("O formulário de cartão da Allpago precisa de JavaScript.")).toBeVisible();
      checkOrigins();
      return;
    }
    const billing = page.locator("fieldset.pm-address").first();
    await billing.getByLabel("Nome completo").fill("Beatriz Lima");
    await billing.getByLabel("Endereço", { exact: true }).fill("Rua das Flores 10");
    await billing.getByLabel("Cidade").fill("Curitiba");
    await billing.getByLabel("Estado", { exact: true }).selectOption({ label: "Paraná" });
    await billing.getByLabel("CEP / código postal").fill("80010-000");
    await page.getByLabel("Tipo de documento").selectOption("CPF");
    await page.getByLabel("Número do documento").fill("529.982.247-25");
    await page.getByLabel("Número de parcelas").selectOption("3");
    const widget = page.frameLocator(".allpago-frame");
    await widget.getByLabel("Número do cartão").fill("4200 0000 0000 0000");
    await widget.getByLabel("Nome no cartão").fill("BEATRIZ LIMA");
    await widget.getByLabel("Validade (MM/AA)").fill("12/30");
    await widget.getByLabel("Código de segurança").fill("123");
    await widget.getByRole("button", { name: /^Pagar/ }).click();
    // The widget's own round trip to the sandbox: give it the time a loaded CI machine takes.
    await expect(widget.getByText("Cartão aceito.")).toBeVisible({ timeout: 15_000 });
    await page.getByLabel("Aceito os termos de serviço").check();
    await page.locator(".payoff-summary").getByRole("button", { name: "Pagar agora" }).click();
    // The widget's checkout is fetched on the way back from Allpago: paid, and the landing says so.
    await page.waitForURL(/\/br\/researcher\/invoices\/unpaid/);
    await expect(page.getByText("Obrigado! Seu pagamento está sendo processado.")).toBeVisible();
    const load = await (await page.request.get("/api/invoice/load")).json();
    expect(load.unpaidInvoices).toHaveLength(0);
    checkOrigins();
  });

  test("UnionPay: the front form to the gateway (auto-submitted with JavaScript, a button without), then paid", async ({
    page,
    baseURL,
  }, info) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    const cn = await registerIn(page, {
      prefix: "zhang",
      password: "Zhang#Research-2026",
      firstName: "Min",
      lastName: "Zhang",
      country: "CN",
      phone: "13800138001",
      currency: "USD",
      language: "en",
    });
    await signInApi(page, cn);
    const order = await placeBankTransferOrder(page.request, "Karst hydrology");
    await page.goto(`/en/researcher/invoices/pay/${order.invoiceNumber}`);
    await page.locator(".pm-method", { hasText: "UnionPay" }).click();
    await whenHydrated(page);
    const payer = page.locator("fieldset.pm-address").first();
    await payer.getByLabel("Full name").fill("Min Zhang");
    await payer.getByLabel("Phone number").fill("13800138001");
    await page.getByLabel("I accept the terms of service").check();
    await page.locator(".payoff-summary").getByRole("button", { name: "Pay now" }).click();
    if (!jsEnabled(info)) {
      // Without JavaScript the form to the gateway waits for the researcher's click.
      await expect(page.getByText("You are being taken to the payment page.")).toBeVisible();
      await page.getByRole("button", { name: "Continue to payment" }).click();
    }
    await page.waitForURL(/\/en\/payment-sandbox\/unionpay\/[0-9a-f-]{36}\?/);
    await expect(page.getByRole("heading", { name: "UnionPay — test mode" })).toBeVisible();
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL(/\/en\/researcher\/invoices\/unpaid/);
    await expect(page.getByText("Thank you: your payment is being processed.")).toBeVisible();
    const load = await (await page.request.get("/api/invoice/load")).json();
    expect(load.unpaidInvoices).toHaveLength(0);
    checkOrigins();
  });
});
