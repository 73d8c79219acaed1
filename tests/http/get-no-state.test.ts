// No state change on GET (issue 10 §10): /submit/new?promo= and ?rework= only ask, their confirmation's POST
// changes the draft; logout.gif signs out only with the token of the portal's own sign-out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, signIn, startRelaxedPortal, type TestPortal } from "../helpers/portal";
import { createCompletedOrder, createResearcher } from "../helpers/factories";
import { logoutToken } from "../../server/auth/logout-token";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

const signedIn = async (c: Client) => (await c.get("/api/account")).status === 200;

describe("links that would change a draft", () => {
  it("?promo= shows a confirmation and applies the code only when it is posted", async () => {
    const c = new Client(portal.url);
    const r = await c.get("/en/researcher/submit/new?promo=WELCOME10");
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain("Apply promo code WELCOME10?");
    expect(html).toContain('<input type="hidden" name="code" value="WELCOME10"/>');
    const forms = await portal.ctx.db
      .selectFrom("order_forms")
      .select(["id", "promo_code"])
      .where("promo_code", "=", "WELCOME10")
      .execute();
    expect(forms).toHaveLength(0);
    const posted = await c.post("/en/researcher/submit/promo", {
      intent: "apply",
      code: "WELCOME10",
      redirect: "/en/researcher/submit/get-started",
    });
    expect(posted.headers.get("location")).toBe("/en/researcher/submit/get-started?promo=coupon-applied-message");
    const after = await portal.ctx.db.selectFrom("order_forms").select("id").where("promo_code", "=", "WELCOME10").execute();
    expect(after).toHaveLength(1);
  });

  it("?rework= shows a confirmation and opens the re-edit only when it is posted", async () => {
    const user = await createResearcher(portal.ctx);
    const order = await createCompletedOrder(portal.ctx, user, { projectTitle: "Rework by link" });
    const c = await signIn(portal, user);
    const r = await c.get(`/en/researcher/submit/new?rework=${order.externalId}`);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain(`Re-edit order ${order.externalId}?`);
    const reworks = () =>
      portal.ctx.db.selectFrom("order_forms").select("id").where("user_id", "=", user.id).where("rework", "=", true).execute();
    expect(await reworks()).toHaveLength(0);
    const posted = await c.post("/en/researcher/submit/new", { rework: order.externalId });
    expect(posted.status).toBe(303);
    expect(posted.headers.get("location")).toBe("/en/researcher/submit/rework-get-started");
    expect(await reworks()).toHaveLength(1);
  });
});

describe("logout.gif", () => {
  it("signs out only with a valid logout token of the signed-in user", async () => {
    const user = await createResearcher(portal.ctx);
    const other = await createResearcher(portal.ctx);
    const c = await signIn(portal, user);
    for (const query of ["", "?t=", "?t=1.zzzzzzzz.forged", `?t=${logoutToken(portal.ctx, other.id)}`]) {
      const gif = await c.get(`/api/auth/logout.gif${query}`);
      expect(gif.headers.get("content-type")).toBe("image/gif");
      expect(gif.headers.get("set-cookie")).toBeNull();
      expect(await signedIn(c)).toBe(true);
    }
    // An expired token of this very user does nothing either.
    const expired = logoutToken(portal.ctx, user.id, Date.now() - 10 * 60_000);
    await c.get(`/api/auth/logout.gif?t=${expired}`);
    expect(await signedIn(c)).toBe(true);
    const gif = await c.get(`/api/auth/logout.gif?t=${logoutToken(portal.ctx, user.id)}`);
    expect(gif.headers.get("set-cookie")).toMatch(/^sid=;/);
    expect(await signedIn(c)).toBe(false);
  });

  it("the portal's sign-out page emits the token of the user who signed out", async () => {
    const user = await createResearcher(portal.ctx);
    const c = await signIn(portal, user);
    const out = await c.post("/en/logout", {});
    const location = out.headers.get("location")!;
    expect(location).toMatch(/^\/en\/logout\?done=1&t=/);
    // Signed in again (another site's session of the same user): the page's token signs it out.
    const again = await signIn(portal, user);
    const token = new URL(location, portal.url).searchParams.get("t")!;
    await again.get(`/api/auth/logout.gif?t=${encodeURIComponent(token)}`);
    expect(await signedIn(again)).toBe(false);
  });
});
