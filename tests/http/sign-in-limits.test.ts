// Sign-in limits do not lock the owner out (issue 10 §7, ADR 024): wrong passwords from one address
// limit that address for that account, not the account; a correct password from an address that has
// not failed still signs in. The password-change form limits guesses of the current password.
// The portal trusts X-Forwarded-For from its loopback peer here, so each test can speak from several addresses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPortal, Client, type TestPortal } from "../helpers/portal";
import { createResearcher } from "../helpers/factories";

let portal: TestPortal;
beforeAll(async () => {
  // The default limits (10 sign-ins a minute per address), not the relaxed ones of other HTTP tests.
  portal = await startTestPortal({ TRUST_PROXY: "loopback" });
});
afterAll(async () => portal.stop());

function login(from: string, email: string, password: string, client = new Client(portal.url)) {
  return client.request("/api/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": from },
    body: JSON.stringify({ email, password }),
  });
}

describe("password sign-in limits", () => {
  it("lets the owner in from another address while the attacking address stays limited", async () => {
    const owner = await createResearcher(portal.ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await login("203.0.113.10", owner.email, `wrong-${i}`)).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);

    // (a) The owner, from an address that has not failed, with the correct password.
    const home = new Client(portal.url);
    const r = await login("198.51.100.7", owner.email, owner.password, home);
    expect(r.status).toBe(200);
    expect((await r.json()).loggedIn).toBe(true);
    expect(home.cookies.has("sid")).toBe(true);

    // (b) The attacking address is still limited for this account, even with the correct password.
    const again = await login("203.0.113.10", owner.email, owner.password);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("the sign-in page answers the same way", async () => {
    const owner = await createResearcher(portal.ctx);
    for (let i = 0; i < 10; i++) {
      const r = await new Client(portal.url).post(
        "/en/login",
        { email: owner.email, password: `wrong-${i}` },
        { headers: { "x-forwarded-for": "203.0.113.20" } },
      );
      expect(r.status).toBe(400);
    }
    const limited = await new Client(portal.url).post(
      "/en/login",
      { email: owner.email, password: owner.password },
      { headers: { "x-forwarded-for": "203.0.113.20" } },
    );
    expect(limited.status).toBe(429);
    const c = new Client(portal.url);
    const ok = await c.post(
      "/en/login",
      { email: owner.email, password: owner.password },
      { headers: { "x-forwarded-for": "198.51.100.20" } },
    );
    expect(ok.status).toBe(303);
    expect(c.cookies.has("sid")).toBe(true);
  });
});

describe("password change", () => {
  it("answers 429 after five wrong current passwords, also to the right one", async () => {
    const user = await createResearcher(portal.ctx);
    const c = await portal.signIn(user);
    const change = (currentPassword: string) =>
      c.post(
        "/en/account?index",
        { intent: "password", currentPassword, newPassword: "Researcher#2027" },
        { headers: { "x-forwarded-for": "192.0.2.30" } },
      );
    for (let i = 0; i < 5; i++) {
      const r = await change(`wrong-current-${i}`);
      expect(r.status).toBe(400);
      expect(await r.text()).toContain("Your current password is not correct.");
    }
    const r = await change(`wrong-current-5`);
    expect(r.status).toBe(429);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await r.text()).toContain("Too many wrong passwords. Please wait a few minutes and try again.");
    // Also from another address and with the right password: the limit is the account's (whoever holds the session).
    const right = await c.post(
      "/en/account?index",
      { intent: "password", currentPassword: user.password, newPassword: "Researcher#2027" },
      { headers: { "x-forwarded-for": "192.0.2.31" } },
    );
    expect(right.status).toBe(429);
    // The password did not change.
    await expect(portal.signIn(user)).resolves.toBeInstanceOf(Client);
  });
});
