// Spending balances over HTTP without JavaScript (issue 13, ADR 041): the payment step's balance panel and its
// "Update total" (no payment made), bad prepay amounts answered 400 with the translated message, the pay page's
// credits notice, another user's invoice 404, /api/invoice/load's real balances, the staff credits page
// (staff only, POST → 303 → GET), and GETs that change nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { signIn, startRelaxedPortal, Client, type SignedInUser, type TestPortal } from "../helpers/portal";
import { createInvoice, createOrderFormFor, createResearcher } from "../helpers/factories";
import { seedCredit, seedPrepayment } from "../helpers/balances";

let portal: TestPortal;
let staff: SignedInUser;
beforeAll(async () => {
  portal = await startRelaxedPortal();
  staff = await portal.staff();
});
afterAll(async () => portal.stop());

const STEP = "/en/researcher/submit/payment-details";
const keyOf = (html: string) => /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
const payableOf = (html: string) => /id="balance-payable"><strong>([^<]+)</.exec(html)?.[1];
const movements = (userId: number) => portal.ctx.db.selectFrom("balance_movements").select("id").where("user_id", "=", userId).execute();

describe("the wizard's balance panel", () => {
  it("updates the total without paying, refuses bad amounts with the translated message, pays the rest", async () => {
    const user = await createResearcher(portal.ctx);
    await seedPrepayment(portal.ctx, user.id, 2000);
    const form = await createOrderFormFor(portal.ctx, user, { services: ["standard-editing"], projectTitle: "Balances" });
    const c = await signIn(portal, user);
    const html = await (await c.get(STEP)).text();
    expect(html).toContain("Prepayment available: $20");
    expect(html).toContain('name="prepayOption"');
    const total = payableOf(html)!;
    const key = keyOf(html)!;
    const base = { orderFormId: form.id, idempotencyKey: key, paymentMethodId: "9" };

    // Update total: 200, the new amount payable, nothing spent or placed.
    let r = await c.post(STEP, { ...base, prepayOption: "partialPayment", prepayAmount: "5", intent: "balances" });
    expect(r.status).toBe(200);
    const updated = await r.text();
    expect(payableOf(updated)).not.toBe(total);
    expect(updated).toContain("−$5");

    for (const amount of ["abc", "-5", "0", "1e5", "99999999999999999999"]) {
      r = await c.post(STEP, { ...base, prepayOption: "partialPayment", prepayAmount: amount, intent: "balances", acceptTerms: "on" });
      expect(r.status, amount).toBe(400);
      expect(await r.text(), amount).toContain("Enter the prepayment amount as a number above 0");
    }
    r = await c.post(STEP, { ...base, prepayOption: "partialPayment", prepayAmount: "20.01", acceptTerms: "on" });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Prepay amount cannot exceed $20");
    // A choice changed without "Update total": shown again, not paid unseen.
    r = await c.post(STEP, { ...base, prepayOption: "fullPayment", balancesPayable: "1", acceptTerms: "on" });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("The amount payable changed");
    expect(await movements(user.id)).toHaveLength(1);
    expect(await portal.ctx.db.selectFrom("orders").select("id").where("order_form_id", "=", form.id).execute()).toEqual([]);

    // Paying: bank transfer for the rest, the prepayment on the invoice.
    const shown = /name="balancesPayable" value="(\d+)"/.exec(updated)![1];
    expect(shown).toBe(String(Number(/name="balancesPayable" value="(\d+)"/.exec(html)![1]) - 500));
    r = await c.post(STEP, { ...base, prepayOption: "partialPayment", prepayAmount: "5", balancesPayable: shown, acceptTerms: "on" });
    expect(r.status, await r.clone().text()).toBe(303);
    const order = await portal.ctx.db
      .selectFrom("orders")
      .select(["id", "total"])
      .where("order_form_id", "=", form.id)
      .executeTakeFirstOrThrow();
    const invoice = await portal.ctx.db
      .selectFrom("invoices")
      .select(["balance", "status"])
      .where("order_id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect([Number(invoice.balance), invoice.status]).toEqual([Number(order.total) - 500, "unpaid"]);
  });
});

describe("the pay page and the invoices API", () => {
  it("shows the real credits, pays from them with no provider, and 404s another user's invoice", async () => {
    const owner = await createResearcher(portal.ctx);
    const other = await createResearcher(portal.ctx);
    const { invoice } = await createInvoice(portal.ctx, owner);
    const { invoice: theirs } = await createInvoice(portal.ctx, other);
    await seedCredit(portal.ctx, owner.id, 100_000);
    const c = await signIn(portal, owner);
    const page = `/en/researcher/invoices/pay/${invoice.number}`;
    const html = await (await c.get(page)).text();
    expect(html).toContain("You have $1,000 bank credits available.");
    expect(html).toContain('name="useCredits"');
    expect((await c.get(`/en/researcher/invoices/pay/${theirs.number}`)).status).toBe(404);
    expect(
      (await c.post(`/en/researcher/invoices/pay/${theirs.number}`, { paymentMethodId: "1", useCredits: "yes", acceptTerms: "on" })).status,
    ).toBe(404);

    const api = (await (await c.get("/api/invoice/load")).json()) as {
      credits: { balance: number }[];
      usdCredits: number;
      prepayments: unknown[];
    };
    expect(api.credits.map((x) => x.balance)).toEqual([100_000]);
    expect(api.usdCredits).toBe(100_000);

    // "Update total" with the credits: nothing left to pay, the method is free; paying calls no provider.
    const key = keyOf(html)!;
    let r = await c.post(page, { idempotencyKey: key, useCredits: "yes", intent: "balances" });
    expect(r.status).toBe(200);
    const covered = await r.text();
    expect(covered).toMatch(/name="paymentMethodId"[^>]*value="4"/);
    expect(covered).not.toMatch(/name="paymentMethodId"[^>]*value="3"/);
    r = await c.post(page, { idempotencyKey: key, paymentMethodId: "4", useCredits: "yes", balancesPayable: "0", acceptTerms: "on" });
    expect(r.status, await r.clone().text()).toBe(303);
    const paid = await portal.ctx.db
      .selectFrom("invoices")
      .select(["status"])
      .where("number", "=", invoice.number)
      .executeTakeFirstOrThrow();
    expect(paid.status).toBe("paid");
    expect(await portal.ctx.db.selectFrom("payments").select("id").where("user_id", "=", owner.id).execute()).toEqual([]);

    // Hidden invoices: no notice, no balances in the API.
    const { invoice: second } = await createInvoice(portal.ctx, owner);
    await portal.ctx.db.updateTable("users").set({ hide_invoices: true }).where("id", "=", owner.id).execute();
    const hidden = await (await c.get(`/en/researcher/invoices/pay/${second.number}`)).text();
    expect(hidden).not.toContain("You have $");
    expect(hidden).not.toContain('name="useCredits"');
  });
});

describe("staff courtesy credits", () => {
  it("refuses researchers, finds by e-mail, grants with an audit row, shows the credit to the researcher", async () => {
    const user = await createResearcher(portal.ctx);
    const researcher = await signIn(portal, user);
    expect((await researcher.get("/en/staff/credits")).status).toBe(403);
    expect((await researcher.post("/en/staff/credits", { email: user.email, amount: "10" })).status).toBe(403);
    const visitor = new Client(portal.url);
    expect([302, 303]).toContain((await visitor.get("/en/staff/credits")).status);

    const found = await staff.client.get(`/en/staff/credits?email=${encodeURIComponent(user.email)}`);
    expect(found.status).toBe(200);
    expect(await found.text()).toContain("This researcher has no credits.");
    const missing = await (await staff.client.get(`/en/staff/credits?email=nobody-${randomUUID()}@example.org`)).text();
    expect(missing).toContain("No researcher has this e-mail address.");

    let r = await staff.client.post("/en/staff/credits", { email: user.email, amount: "-4", currencyIso: "USD" });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Enter an amount above 0");
    r = await staff.client.post("/en/staff/credits", { email: user.email, amount: "15", currencyIso: "USD", validityDays: "99999" });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Enter a number of days from 1 to 3650.");
    r = await staff.client.post("/en/staff/credits", { email: user.email, amount: "15", currencyIso: "USD", note: "Late delivery" });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toMatch(/\/en\/staff\/credits\?email=.*&granted=CR\d+/);
    const page = await (await staff.client.get(r.headers.get("location")!)).text();
    expect(page).toContain("Late delivery");
    expect(page).toContain("$15");
    const audit = await portal.ctx.db
      .selectFrom("audit_log")
      .select("id")
      .where("action", "=", "staff.credit.grant")
      .where("actor_user_id", "=", staff.id)
      .execute();
    expect(audit.length).toBeGreaterThan(0);

    // The researcher sees it: the dashboard widget and the payment notice's source.
    const dash = await (await researcher.get("/en/researcher")).text();
    expect(dash).toContain("Prepay and credits");
    expect(dash).toContain("$15");
  });

  it("changes nothing on GET (pages with balances, the staff search, the API)", async () => {
    const user = await createResearcher(portal.ctx);
    const { invoice } = await createInvoice(portal.ctx, user);
    await seedCredit(portal.ctx, user.id, 5000);
    await seedPrepayment(portal.ctx, user.id, 5000);
    await createOrderFormFor(portal.ctx, user, { services: ["standard-editing"], projectTitle: "GET only" });
    const c = await signIn(portal, user);
    const count = async () =>
      Promise.all([
        movements(user.id).then((m) => m.length),
        portal.ctx.db
          .selectFrom("audit_log")
          .select("id")
          .execute()
          .then((a) => a.length),
        portal.ctx.db
          .selectFrom("payments")
          .select("id")
          .where("user_id", "=", user.id)
          .execute()
          .then((p) => p.length),
        portal.ctx.db
          .selectFrom("credits")
          .select("id")
          .execute()
          .then((p) => p.length),
      ]);
    const before = await count();
    for (const url of [
      `${STEP}?useCredits=yes&prepayOption=fullPayment&intent=balances`,
      `/en/researcher/invoices/pay/${invoice.number}?useCredits=yes&paymentMethodId=4&acceptTerms=on`,
      "/en/researcher",
      "/api/invoice/load",
    ])
      expect((await c.get(url)).status, url).toBe(200);
    expect((await staff.client.get(`/en/staff/credits?email=${encodeURIComponent(user.email)}&amount=10`)).status).toBe(200);
    expect(await count()).toEqual(before);
  });
});
