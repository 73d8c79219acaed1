import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";
import { PAYMENT_OWNERS } from "./fixtures/payment-owners";

// Issue 12 §2, ADR 036: a researcher waits for an Alipay payment (made at start-up by ./fixtures/payments.ts). The
// pending page shows the QR code labelled test mode; the sandbox's "phone" page pays, which sends the signed
// notification; the pending page then moves on to the landing. With and without JavaScript. With JavaScript the
// card sandbox's hosted fields (our own origin) also turn typed test cards into one-time nonces for their parent.
test.describe("payment provider sandboxes", () => {
  test("an Alipay QR payment is paid on the test phone and settles", async ({ page }, info) => {
    const owner = PAYMENT_OWNERS.find((o) => o.project === info.project.name)!;
    await signIn(page, owner);

    if (info.project.name === "js") {
      // The hosted fields, embedded as CardFields embeds them; the parent only hears from that iframe.
      await page.goto("/en/terms");
      await page.evaluate(() => {
        const w = window as unknown as { cardMessages: unknown[] };
        w.cardMessages = [];
        window.addEventListener("message", (e) => e.origin === location.origin && w.cardMessages.push(e.data));
        const frame = document.createElement("iframe");
        frame.id = "e2e-card-fields";
        frame.src = "/sandbox/card-fields.html?lang=en";
        document.body.append(frame);
      });
      const fields = page.frameLocator("#e2e-card-fields");
      await expect(fields.getByText("Test mode — no real money")).toBeVisible();
      const nonces = () =>
        page.evaluate(() =>
          (window as unknown as { cardMessages: { type?: string; nonce?: string }[] }).cardMessages
            .filter((m) => m.type === "card-fields:nonce" && m.nonce)
            .map((m) => m.nonce!),
        );
      await fields.getByLabel("Card number").fill("4111 1111 1111 1111");
      await fields.getByLabel("Expiry (MM/YY)").fill("12/30");
      await fields.getByLabel("Security code").fill("123");
      await expect.poll(nonces).toEqual([expect.stringMatching(/^fake-valid-nonce~[0-9a-f]{24}$/)]);
      await expect(fields.getByText("Card ready: ending in 1111.")).toBeVisible();
      await fields.getByLabel("Card number").fill("4000 1111 1111 1115");
      await expect.poll(async () => (await nonces()).at(-1)).toMatch(/^fake-processor-declined-visa-nonce~/);
      await fields.getByLabel("Card number").fill("4111 1111 1111 1112");
      await expect.poll(async () => (await nonces()).at(-1)).toMatch(/^fake-luhn-invalid-nonce~/);

      // On the pay-invoices page, CardFields puts the nonce into the form's hidden `nonce` input.
      // The invoice the Alipay attempt holds leads to that attempt (one open attempt per invoice, ADR 051); the other
      // one is payable.
      const load = (await (await page.request.get("/api/invoice/load")).json()) as { unpaidInvoices: { invoiceNumber: string }[] };
      const leads: string[] = [];
      let payable = "";
      for (const { invoiceNumber } of load.unpaidInvoices) {
        await page.goto(`/en/researcher/invoices/pay/${invoiceNumber}`);
        const at = new URL(page.url()).pathname;
        if (at.startsWith("/en/researcher/payment/")) leads.push(at);
        else payable = invoiceNumber;
      }
      expect(leads).toEqual([`/en/researcher/payment/${owner.paymentId}`]);
      await page.goto(`/en/researcher/invoices/pay/${payable}`);
      await page.locator('input[type="radio"][value="3"]').check();
      const card = page.frameLocator("iframe.card-fields-frame");
      await card.getByLabel("Card number").fill("4111111111111111");
      await card.getByLabel("Expiry (MM/YY)").fill("11/31");
      await card.getByLabel("Security code").fill("737");
      await expect(page.locator('input[type="hidden"][name="nonce"]')).toHaveValue(/^fake-valid-nonce~[0-9a-f]{24}$/);
    }

    await page.goto(`/en/researcher/payment/${owner.paymentId}`);
    await expect(page.getByRole("heading", { name: "Your payment" })).toBeVisible();
    await expect(page.getByText("Test mode — no real money")).toBeVisible();
    await expect(page.getByRole("img", { name: "QR code to pay with Alipay" })).toBeVisible();
    await expect(page.getByText("Scan this QR code with the Alipay app to pay.")).toBeVisible();

    await page.getByRole("link", { name: "Open the test phone's page (pay without scanning)" }).click();
    await expect(page).toHaveURL(new RegExp(`/en/payment-sandbox/alipay/${owner.paymentId}$`));
    await expect(page.getByRole("heading", { name: "Alipay — test mode" })).toBeVisible();
    await page.getByRole("button", { name: "Pay" }).click();
    // Paid: the pending page sends the researcher on to the landing of an invoice payment.
    await page.waitForURL(/\/en\/researcher\/invoices\/unpaid/);

    // The sandbox page now says it is done; the pending page no longer waits.
    await page.goto(`/en/payment-sandbox/alipay/${owner.paymentId}`);
    await expect(page.getByText("This payment has already been paid, approved or cancelled here.")).toBeVisible();
    await page.goto(`/en/researcher/payment/${owner.paymentId}`);
    await page.waitForURL(/\/en\/researcher\/invoices\/unpaid/);
  });
});
