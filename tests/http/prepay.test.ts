// Prepay over HTTP (issue 13 §1–2, ADR 040): the amount step without JavaScript (Next locks the amount and shows
// the payment form; bad amounts a translated 400), a bank-transfer prepayment issued unpaid, the existing
// prepayment's page (another user's 404), the retainer PDF (owner only), the complete/{type} landing, the flag
// off, POST /api/prepay/payment (key, bad amounts, NUL bytes, huge numbers, another user's retainer), GET
// /api/prepay/load, the staff's record-transfer page, and the currency chooser (choose, confirm, CNY refused).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { startRelaxedPortal, Client, type TestPortal, type SignedInUser } from "../helpers/portal";
import { currencyNotChosen } from "../helpers/prepay";
import { pdfText } from "../helpers/invoices";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

const keyOf = (html: string) => /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
const prepayApi = (c: Client, body: unknown, key?: string) =>
  c.request("/api/prepay/payment", {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { "Idempotency-Key": key } : {}) },
    body: JSON.stringify(body),
  });
const retainersOf = (userId: number) =>
  portal.ctx.db
    .selectFrom("invoices")
    .selectAll()
    .where("user_id", "=", userId)
    .where("kind", "=", "prepayment")
    .orderBy("created_at")
    .execute();
const countryId = async (iso2: string) =>
  (await portal.ctx.db.selectFrom("countries").select("id").where("iso2", "=", iso2).executeTakeFirstOrThrow()).id;

/** A bank-transfer prepayment of `amount` made through the page without JavaScript; its retainer number. */
async function prepayByTransfer(user: SignedInUser, amount: string): Promise<string> {
  const next = await user.client.post("/en/researcher/prepay", { intent: "amount", amount });
  const html = await next.text();
  const r = await user.client.post("/en/researcher/prepay", {
    idempotencyKey: keyOf(html)!,
    amount,
    paymentMethodId: "9",
    acceptTerms: "on",
  });
  expect(r.status).toBe(303);
  const number = /\/researcher\/prepay\/(P[A-Z]+\d+)\?issued=1$/.exec(r.headers.get("location") ?? "")?.[1];
  expect(number).toBeTruthy();
  return number!;
}

describe("the prepay page without JavaScript", () => {
  let ada: SignedInUser;
  beforeAll(async () => {
    ada = await portal.researcher();
  });

  it("shows the amount step, the banner and empty lists; a visitor signs in first", async () => {
    const r = await new Client(portal.url).get("/en/researcher/prepay");
    expect(r.status).toBe(302);
    const page = await ada.client.get("/en/researcher/prepay");
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const s of [
      "Make a Prepayment",
      "Total credit balance:",
      "$0",
      'name="amount"',
      'value="amount"',
      "You have no prepayments yet.",
      "You have no credits.",
    ])
      expect(html, s).toContain(s);
    expect(html).not.toContain('name="paymentMethodId"');
  });

  it("refuses bad amounts with a translated 400 and locks a good one with the prepay payment form", async () => {
    for (const [amount, text] of [
      ["50", "The amount needs to be more than $100"],
      ["abc", "Please enter an amount"],
      ["99999999999999", "Please enter an amount"],
      ["1\u0000", ""],
    ] as const) {
      const r = await ada.client.post("/en/researcher/prepay", { intent: "amount", amount });
      expect(r.status, amount).toBe(400);
      if (text) expect(await r.text()).toContain(text);
    }
    const cn = await ada.client.post("/cn/researcher/prepay", { intent: "amount", amount: "10" });
    expect(await cn.text()).toContain("金额需要大于 $100");
    const next = await ada.client.post("/en/researcher/prepay", { intent: "amount", amount: "500" });
    expect(next.status).toBe(200);
    const html = await next.text();
    expect(html).toContain("$500");
    expect(html).toContain('name="amount" value="500"');
    expect(html).toMatch(/name="paymentMethodId"[^>]*value="9"/);
    expect(html).not.toMatch(/name="paymentMethodId"[^>]*disabled[^>]*value="9"/);
    expect(html).toContain("Start over");
    const reset = await ada.client.post("/en/researcher/prepay", { intent: "start-over", amount: "500" });
    expect([reset.status, reset.headers.get("location")]).toEqual([303, "/en/researcher/prepay"]);
    // The payment form refused (no terms): the amount stays locked with the form and its values.
    const refused = await ada.client.post("/en/researcher/prepay", { idempotencyKey: keyOf(html)!, amount: "500", paymentMethodId: "9" });
    expect(refused.status).toBe(400);
    const again = await refused.text();
    expect(again).toContain('name="amount" value="500"');
    expect(again).toContain("Please accept the terms of service to pay.");
    expect(await retainersOf(ada.id)).toEqual([]);
  });

  it("issues a bank-transfer prepayment unpaid with the bank's details; its page and PDF are the owner's only", async () => {
    const number = await prepayByTransfer(ada, "500");
    const page = await ada.client.get(`/en/researcher/prepay/${number}?issued=1`);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const s of [
      "Pay for existing prepayment",
      `Retainer invoice ${number} has been issued.`,
      "HFBKUS3D",
      "Awaiting payment",
      `/api/retainer-invoice/${number}/pdf`,
      "--",
    ])
      expect(html, s).toContain(s);
    const pdf = await ada.client.get(`/api/retainer-invoice/${number}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const pdfBytes = Buffer.from(await pdf.arrayBuffer());
    expect(pdfBytes.subarray(0, 5).toString()).toBe("%PDF-");
    // Unpaid by bank transfer: the PDF says where to send the money.
    expect(await pdfText(pdfBytes)).toContain("HFBKUS3D");

    const eve = await portal.researcher();
    expect((await eve.client.get(`/en/researcher/prepay/${number}`)).status).toBe(404);
    expect((await eve.client.get(`/api/retainer-invoice/${number}/pdf`)).status).toBe(404);
    expect((await eve.client.post(`/en/researcher/prepay/${number}`, { paymentMethodId: "9", acceptTerms: "on" })).status).toBe(404);
    expect((await ada.client.get("/en/researcher/prepay/PXX999")).status).toBe(404);
    expect((await new Client(portal.url).get(`/api/retainer-invoice/${number}/pdf`)).status).toBe(401);

    // Staff record the transfer: the balance banner shows it, the retainer is paid.
    const staff = await portal.staff();
    const staffPage = await staff.client.get(`/en/staff/prepayments/${number}`);
    expect(staffPage.status).toBe(200);
    expect(await staffPage.text()).toContain("Record bank transfer");
    expect(await (await staff.client.get("/en/staff/prepayments")).text()).toContain(number);
    expect((await ada.client.get(`/en/staff/prepayments/${number}`)).status).toBe(403);
    const bad = await staff.client.post(`/en/staff/prepayments/${number}`, {
      intent: "record-transfer",
      amount: "x",
      reference: "",
      receivedOn: "2026-13-01",
    });
    expect(bad.status).toBe(400);
    const form = { intent: "record-transfer", amount: "500", reference: "WIRE-500", receivedOn: new Date().toISOString().slice(0, 10) };
    const ok = await staff.client.post(`/en/staff/prepayments/${number}`, form);
    expect([ok.status, ok.headers.get("location")]).toEqual([303, `/en/staff/prepayments/${number}?done=recorded`]);
    expect((await retainersOf(ada.id))[0].status).toBe("paid");
    const after = await (await ada.client.get("/en/researcher/prepay")).text();
    expect(after).toMatch(/prepay-banner-amount">\$500</);
    expect(after).toContain("Paid");
  });

  it("the landing adds its message and goes back to the prepay page", async () => {
    for (const [type, outcome] of [
      ["success", "success"],
      ["anything", "error"],
    ]) {
      const r = await ada.client.get(`/en/researcher/prepay/complete/${type}`);
      expect([r.status, r.headers.get("location")]).toEqual([303, `/en/researcher/prepay?payment=${outcome}`]);
    }
    const html = await (await ada.client.get("/en/researcher/prepay?payment=error")).text();
    expect(html).toContain("An error occurred processing your payment");
  });

  it("shows the disabled message when prepay_enabled is off, and nothing for an account with hidden invoices", async () => {
    await portal.ctx.config.setFlag("prepay_enabled", false);
    try {
      const html = await (await ada.client.get("/en/researcher/prepay")).text();
      expect(html).toContain("Prepayments are currently disabled.");
      expect(html).not.toContain('name="amount"');
      expect((await ada.client.post("/en/researcher/prepay", { intent: "amount", amount: "500" })).status).toBe(403);
    } finally {
      await portal.ctx.config.setFlag("prepay_enabled", true);
    }
    const hidden = await portal.researcher();
    await portal.ctx.db.updateTable("users").set({ hide_invoices: true }).where("id", "=", hidden.id).execute();
    const html = await (await hidden.client.get("/en/researcher/prepay")).text();
    expect(html).toContain("Prepayments are not available for your account.");
    expect(html).not.toContain('id="prepay-credits"');
    expect(html).not.toContain('id="prepay-list"');
  });
});

describe("the prepay API", () => {
  it("POST /api/prepay/payment: needs a key, refuses bad amounts and other users' retainers, pays by sandbox card", async () => {
    const bob = await portal.researcher();
    const body = {
      paymentMethodId: 3,
      acceptedTermsAndConditions: true,
      amount: "250",
      creditCard: { nonce: `fake-valid-nonce~${randomUUID().replaceAll("-", "")}`, currency: "USD" },
      billingAddress: {
        name: "Bob",
        address1: "1 Main St",
        city: "Durham",
        state: "NC",
        zip: "27701",
        country: { value: await countryId("US") },
      },
    };
    expect((await prepayApi(bob.client, body)).status).toBe(400);
    for (const amount of ["5", "1e400", "9".repeat(40), -1]) {
      const r = await prepayApi(bob.client, { ...body, amount }, randomUUID());
      expect(r.status, String(amount)).toBe(400);
      expect((await r.json()).fieldErrors.amount).toMatch(/^amount-(minimum|invalid)$/);
    }
    // NUL bytes are refused at the edge, before any domain code.
    expect((await prepayApi(bob.client, { ...body, amount: "12\u0000" }, randomUUID())).status).toBe(400);
    const ok = await prepayApi(bob.client, body, randomUUID());
    expect(ok.status).toBe(200);
    const answer = (await ok.json()).payment;
    expect([answer.status, answer.redirectUrl]).toEqual(["succeeded", "/en/researcher/prepay/complete/success"]);
    const load = await (await bob.client.get("/api/prepay/load")).json();
    expect(load.totalBalance).toBe(25000);
    expect(load.prepayments[0]).toMatchObject({ totalAmount: 25000, availablePrepaymentAmount: 25000, balance: 0, boletoUrl: null });
    expect(load.prepayments[0].retainerInvoiceNumber).toMatch(/^PUS\d+$/);
    expect(load.credits).toEqual([]);

    const carol = await portal.researcher();
    const theirs = await prepayByTransfer(carol, "100");
    const r = await prepayApi(bob.client, { ...body, amount: undefined, retainerInvoiceNumber: theirs }, randomUUID());
    expect(r.status).toBe(404);
    expect((await new Client(portal.url).get("/api/prepay/load")).status).toBe(401);
  });
});

describe("the currency chooser", () => {
  it("sends a user without a currency there first; CNY is refused; confirm saves it once and goes back", async () => {
    const dan = await portal.researcher();
    await currencyNotChosen(portal.ctx, dan.id);
    const r = await dan.client.get("/en/researcher/prepay");
    expect([r.status, r.headers.get("location")]).toEqual([302, "/en/researcher/currency?redirect=%2Fen%2Fresearcher%2Fprepay"]);
    const page = await (await dan.client.get("/en/researcher/currency?redirect=%2Fen%2Fresearcher%2Fprepay")).text();
    expect(page).toContain("Choose Currency");
    expect(page).toMatch(/<input type="radio" name="currencyIso"[^>]*checked=""[^>]*value="USD"/);
    expect(page).not.toContain('value="CNY"');
    const back = "/en/researcher/prepay";
    const cny = await dan.client.post("/en/researcher/currency", { intent: "confirm", currencyIso: "CNY", redirect: back });
    expect(cny.status).toBe(400);
    expect(await cny.text()).toContain("Please choose one of the listed currencies.");
    const choose = await dan.client.post("/en/researcher/currency", { intent: "choose", currencyIso: "EUR", redirect: back });
    expect(choose.status).toBe(200);
    expect(await choose.text()).toContain("This cannot be changed later.");
    const confirm = await dan.client.post("/en/researcher/currency", {
      intent: "confirm",
      currencyIso: "EUR",
      redirect: "https://evil.example/",
    });
    expect([confirm.status, confirm.headers.get("location")]).toEqual([303, back]);
    const user = await portal.ctx.db
      .selectFrom("users")
      .select(["currency_iso", "currency_chosen"])
      .where("id", "=", dan.id)
      .executeTakeFirstOrThrow();
    expect([user.currency_iso.trim(), user.currency_chosen]).toEqual(["EUR", true]);
    expect(await (await dan.client.get("/en/researcher/prepay")).text()).toContain("Amount (EUR)");
    const twice = await dan.client.post("/en/researcher/currency", { intent: "confirm", currencyIso: "USD", redirect: back });
    expect([twice.status, twice.headers.get("location")]).toEqual([303, back]);
    const still = await portal.ctx.db.selectFrom("users").select("currency_iso").where("id", "=", dan.id).executeTakeFirstOrThrow();
    expect(still.currency_iso.trim()).toBe("EUR");
    expect((await dan.client.get("/en/researcher/currency")).status).toBe(302);
  });
});
