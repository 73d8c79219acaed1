// The test portal helper: relaxed per-address limits, and clients signed in as factory users.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, RELAXED_RATE_LIMITS, startRelaxedPortal, type TestPortal } from "../helpers/portal";
import { createResearcher } from "../helpers/factories";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

describe("the relaxed test portal", () => {
  it("signs a factory researcher in", async () => {
    const user = await createResearcher(portal.ctx);
    const c = await portal.signIn(user);
    expect(c.cookies.has("sid")).toBe(true);
    const me = await c.get("/api/account");
    expect(me.status).toBe(200);
    expect((await me.json()).user).toMatchObject({ identity: user.identity, email: user.email, loggedIn: true });
    expect((await new Client(portal.url).get("/api/account")).status).toBe(401);
  });

  it("lets one address sign in more often than the default limit allows", async () => {
    expect(RELAXED_RATE_LIMITS.signInPerMinute).toBeGreaterThan(10);
    const user = await createResearcher(portal.ctx);
    // The default limit is 10 a minute per address and per account; the 12th still gets in.
    for (let i = 0; i < 11; i++) {
      const r = await new Client(portal.url).request("/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: user.email, password: "wrong" }),
      });
      expect(r.status).toBe(401);
    }
    expect((await portal.signIn(user)).cookies.has("sid")).toBe(true);
  });

  it("creates and signs in a fresh researcher or staff member in one call", async () => {
    const ada = await portal.researcher({ firstName: "Ada", lastName: "Lovelace" });
    const me = (await (await ada.client.get("/api/account")).json()).user;
    expect(me).toMatchObject({ identity: ada.identity, email: ada.email, firstName: "Ada", lastName: "Lovelace" });
    const staff = await portal.staff();
    expect(staff.email).not.toBe(ada.email);
    expect((await staff.client.get("/en/staff")).status).toBe(200);
    expect((await ada.client.get("/en/staff")).status).toBe(403);
  });

  it("refuses to hand out a client for a wrong password", async () => {
    const user = await createResearcher(portal.ctx);
    await expect(portal.signIn({ ...user, password: "wrong" })).rejects.toThrow(/401/);
  });
});
