// A wizard step's save that loses a race with the form's placing (issue 10 §13): the guarded write throws
// OrderFormClosedError, and stepAction (app/lib/wizard.server.ts) answers with the placed order's thank-you
// page, or a new form for someone who does not own it, never a 500. The race itself is exercised over HTTP
// in tests/http/order-form-guard.test.ts; here the step is made to lose it every time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppLoadContext } from "@remix-run/node";
import { createTestContext, type TestContext } from "../helpers/context";
import { createPlacedOrder, createResearcher } from "../helpers/factories";
import { stepAction } from "#app/lib/wizard.server";
import { OrderFormClosedError } from "#server/order-form";
import { createSession } from "#server/accounts/session";
import { cookies } from "#server/http/cookies";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t?.close();
});

async function post(userId: number) {
  const sid = await createSession(t.ctx.db, userId);
  const request = new Request("http://127.0.0.1/cn/researcher/submit/details", {
    method: "POST",
    headers: { cookie: `${cookies.session.name}=${sid}` },
  });
  return { request, context: { app: t.ctx, ip: "127.0.0.1", secure: false } as unknown as AppLoadContext, params: {} };
}

describe("stepAction", () => {
  it("sends a save on a form placed meanwhile to that order's thank-you page, a stranger to a new form", async () => {
    const ada = await createResearcher(t.ctx);
    const placed = await createPlacedOrder(t.ctx, ada);
    const losesTheRace = stepAction(async () => {
      throw new OrderFormClosedError(placed.orderFormId);
    });
    let r = await losesTheRace(await post(ada.id));
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe(`/cn/researcher/index/details/${placed.externalId}/thank-you`);

    const eve = await createResearcher(t.ctx);
    r = await losesTheRace(await post(eve.id));
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/cn/researcher/submit/new");
  });

  it("lets any other failure through, and a step's own answer unchanged", async () => {
    const ada = await createResearcher(t.ctx);
    await expect(stepAction(async () => Promise.reject(new Error("disk full")))(await post(ada.id))).rejects.toThrow("disk full");
    const r = await stepAction(async () => new Response(null, { status: 204 }))(await post(ada.id));
    expect(r.status).toBe(204);
  });
});
