// Vouchers over HTTP (issue 12 §7): verification, applying to and removing from the user's draft over the API
// (good, refused, another user's form, a placed form), and the payment step's voucher form without JavaScript
// (POST → 303 back to the payment step with the outcome).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type SignedInUser, type TestPortal } from "../helpers/portal";
import { createOrderFormFor, createPlacedOrder, createStaff } from "../helpers/factories";
import { readSession } from "#server/accounts/session";
import { systemScope } from "#server/scope";
import { createVoucher } from "#server/staff/vouchers";
import type { StaffVoucherInput } from "#common/vouchers/schemas";

let portal: TestPortal;
let n = 0;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

async function voucher(input: Partial<StaffVoucherInput> = {}): Promise<string> {
  const staff = await createStaff(portal.ctx);
  const scope = systemScope(portal.ctx, {
    userId: staff.id,
    lang: "en",
    localization: "US",
    session: await readSession(portal.ctx.db, staff.token),
  });
  const r = await createVoucher(scope, { kind: "percent", percent: "20", code: `HTTP-${Date.now()}-${n++}`, ...input });
  if (!r.ok) throw new Error(JSON.stringify(r.fieldErrors));
  return r.value.code;
}

async function draftOf(user: SignedInUser) {
  return createOrderFormFor(portal.ctx, user, { services: ["standard-editing"], projectTitle: "Voucher over HTTP" });
}
const voucherOf = async (id: string) =>
  (await portal.ctx.db.selectFrom("order_forms").select("voucher_code").where("id", "=", id).executeTakeFirstOrThrow()).voucher_code;

describe("the voucher API", () => {
  it("verifies a code, or says why not in words", async () => {
    const { client } = await portal.researcher();
    const code = await voucher({ description: "Twenty off" });
    const good = await client.get(`/api/voucher/${encodeURIComponent(` ${code.toLowerCase()} `)}`);
    expect(good.status).toBe(200);
    expect((await good.json()).voucher).toMatchObject({ code, percent: 20, amount: null, description: "Twenty off" });
    const unknown = await client.get("/api/voucher/NOPE-NOPE");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "voucher-not-found", fieldErrors: {}, message: "This voucher code is not valid." });
    const anonymous = await new Client(portal.url).get(`/api/voucher/${code}`);
    expect(anonymous.status).toBe(401);
  });

  it("answers 429 with Retry-After once a user has guessed too many unknown codes", async () => {
    const { client } = await portal.researcher();
    const code = await voucher();
    for (let i = 0; i < 20; i++) expect((await client.get(`/api/voucher/GUESS-${i}`)).status).toBe(404);
    const closed = await client.get(`/api/voucher/${code}`);
    expect(closed.status).toBe(429);
    expect(Number(closed.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await closed.json()).toMatchObject({
      error: "too-many-requests",
      message: "Too many codes were tried. Please wait a few minutes and try again.",
    });
  });

  it("applies a voucher to the owner's draft and takes it off again; others get 404, a placed form 409", async () => {
    const owner = await portal.researcher();
    const form = await draftOf(owner);
    const code = await voucher();
    const before = (await (await owner.client.get(`/api/order-form/${form.id}/load`)).json()).orderForm;
    const put = await owner.client.request(`/api/order-form/${form.id}/voucher/${code.toLowerCase()}`, { method: "PUT" });
    expect(put.status, await put.clone().text()).toBe(200);
    const body = await put.json();
    expect(body.messages).toEqual(["voucher-applied-message"]);
    expect(body.voucherCode).toBe(code);
    expect(JSON.stringify(body.orderForm)).toContain("Voucher");
    expect(JSON.stringify(body.orderForm)).not.toEqual(JSON.stringify(before));
    expect(await voucherOf(form.id)).toBe(code);

    const bad = await owner.client.request(`/api/order-form/${form.id}/voucher/NOPE-NOPE`, { method: "PUT" });
    expect(bad.status).toBe(404);
    expect((await bad.json()).error).toBe("voucher-not-found");
    expect(await voucherOf(form.id)).toBe(code);

    const other = await portal.researcher();
    expect((await other.client.request(`/api/order-form/${form.id}/voucher/${code}`, { method: "PUT" })).status).toBe(404);
    expect((await other.client.request(`/api/order-form/${form.id}/voucher`, { method: "DELETE" })).status).toBe(404);
    expect(await voucherOf(form.id)).toBe(code);

    const del = await owner.client.request(`/api/order-form/${form.id}/voucher`, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect(await del.json()).toMatchObject({ voucherCode: null, messages: ["voucher-removed-message"] });
    expect(await voucherOf(form.id)).toBeNull();

    const placed = await createPlacedOrder(portal.ctx, owner);
    const late = await owner.client.request(`/api/order-form/${placed.orderFormId}/voucher/${code}`, { method: "PUT" });
    expect(late.status).toBe(409);
    expect((await late.json()).error).toBe("order-form-placed");
  });
});

describe("the payment step's voucher form without JavaScript", () => {
  it("applies, refuses and removes with a 303 back to the payment step", async () => {
    const owner = await portal.researcher();
    const form = await draftOf(owner);
    const code = await voucher({ kind: "amount", amount: "15.00", currencyIso: "USD" });

    const applied = await owner.client.post("/en/researcher/submit/voucher", {
      formId: form.id,
      intent: "apply",
      code: ` ${code.toLowerCase()}`,
    });
    expect(applied.status, await applied.clone().text()).toBe(303);
    expect(applied.headers.get("location")).toBe("/en/researcher/submit/payment-details?voucher=voucher-applied");
    expect(await voucherOf(form.id)).toBe(code);
    // The order's summary shows the voucher as a discount line with its code.
    const page = await owner.client.get("/en/researcher/submit/payment-details?voucher=voucher-applied");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`Voucher ${code}`);

    const refused = await owner.client.post("/en/researcher/submit/voucher", { formId: form.id, intent: "apply", code: "NOPE-NOPE" });
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe("/en/researcher/submit/payment-details?voucher=voucher-not-found");
    expect(await voucherOf(form.id)).toBe(code);

    const removed = await owner.client.post("/en/researcher/submit/voucher", { formId: form.id, intent: "remove" });
    expect(removed.status).toBe(303);
    expect(removed.headers.get("location")).toBe("/en/researcher/submit/payment-details?voucher=voucher-removed");
    expect(await voucherOf(form.id)).toBeNull();
  });

  it("refuses a cross-site POST and sends a visitor to sign in", async () => {
    const owner = await portal.researcher();
    const form = await draftOf(owner);
    const code = await voucher();
    const cross = await owner.client.request("/en/researcher/submit/voucher", {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
      body: `intent=apply&code=${code}`,
    });
    expect(cross.status).toBe(403);
    expect(await voucherOf(form.id)).toBeNull();
    const visitor = await new Client(portal.url).post("/en/researcher/submit/voucher", { intent: "apply", code });
    expect(visitor.status).toBe(303);
    expect(visitor.headers.get("location")).toMatch(/^\/en\/login\?redirect=/);
  });
});
