// Double submits of the payment page (issue 10 §13): every repeated submit of a placed form goes to that
// order's thank-you page, never to a new order form, and places nothing else.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, startRelaxedPortal, type TestPortal } from "../helpers/portal";
import { createOrderFormFor, createResearcher } from "../helpers/factories";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

describe("repeated submits of the payment page", () => {
  it("sends all of 20 concurrent submits, and a later one, to the order's thank-you page", async () => {
    const user = await createResearcher(portal.ctx);
    const form = await createOrderFormFor(portal.ctx, user, { services: ["standard-editing"], projectTitle: "Double submit" });
    const c = await signIn(portal, user);
    const html = await (await c.get("/en/researcher/submit/payment-details")).text();
    const shown = /name="orderFormId" value="([a-z2-9]{20})"/.exec(html)?.[1];
    expect(shown).toBe(form.id);
    const body = { orderFormId: form.id, paymentMethodId: "9", acceptTerms: "on" };
    const replies = await Promise.all(Array.from({ length: 20 }, () => c.post("/en/researcher/submit/payment-details", body)));
    const locations = new Set(replies.map((r) => `${r.status} ${r.headers.get("location")}`));
    const orders = await portal.ctx.db.selectFrom("orders").select("external_id").where("order_form_id", "=", form.id).execute();
    expect(orders).toHaveLength(1);
    expect([...locations]).toEqual([`303 /en/researcher/index/details/${orders[0].external_id}/thank-you`]);

    // The user has started another form since: a resent submit of the placed one still shows its order.
    const next = await createOrderFormFor(portal.ctx, user, { services: ["standard-editing"], projectTitle: "Next one" });
    const again = await c.post("/en/researcher/submit/payment-details", body);
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe(`/en/researcher/index/details/${orders[0].external_id}/thank-you`);
    const status = await portal.ctx.db.selectFrom("order_forms").select("status").where("id", "=", next.id).executeTakeFirstOrThrow();
    expect(status.status).toBe("draft");
  });
});

describe("step saves racing the placement", () => {
  it("answer no 500 and leave the placed form equal to its order", async () => {
    const user = await createResearcher(portal.ctx);
    const form = await createOrderFormFor(portal.ctx, user, { services: ["standard-editing"], projectTitle: "Racing saves" });
    const c = await signIn(portal, user);
    const place = c.post("/en/researcher/submit/payment-details", { orderFormId: form.id, paymentMethodId: "9", acceptTerms: "on" });
    const saves = Array.from({ length: 30 }, (_, i) =>
      c.post("/en/researcher/submit/details", {
        intent: "next",
        projectTitle: `Racing saves ${i}`,
        areaOfStudyId: "1",
        styleOfEnglish: "american",
      }),
    );
    const replies = await Promise.all([place, ...saves]);
    expect(replies.map((r) => r.status).filter((s) => s >= 500)).toEqual([]);
    const order = await portal.ctx.db.selectFrom("orders").select("title").where("order_form_id", "=", form.id).executeTakeFirstOrThrow();
    const placed = await portal.ctx.db
      .selectFrom("order_forms")
      .select("project_title")
      .where("id", "=", form.id)
      .executeTakeFirstOrThrow();
    expect(order.title).toBe(placed.project_title);
  });
});
