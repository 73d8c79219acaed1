// Edges of the HTTP layer (issue 10, ADR 025): the cross-site check compares whole origins (item 11).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";

let portal: TestPortal;
beforeAll(async () => {
  // Behind a proxy on loopback, which may say the request was https.
  portal = await startRelaxedPortal({ TRUST_PROXY: "loopback" });
});
afterAll(() => portal?.stop());

describe("the cross-site check (item 11)", () => {
  const post = (headers: Record<string, string>) =>
    new Client(portal.url).request("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ email: "nobody@example.org", password: "wrong-password" }),
    });

  it("refuses Origin https://<host> on a portal served over http", async () => {
    const host = new URL(portal.url).host;
    const r = await post({ origin: `https://${host}` });
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ error: "cross-site-request-refused" });
    expect((await post({ origin: `http://${host.replace(/:\d+$/, ":1")}` })).status).toBe(403);
    // Its own origin passes (the wrong password answers 401).
    expect((await post({ origin: `http://${host}` })).status).toBe(401);
  });

  it("takes the scheme from a trusted proxy", async () => {
    const host = new URL(portal.url).host;
    expect((await post({ origin: `https://${host}`, "x-forwarded-proto": "https" })).status).toBe(401);
    expect((await post({ origin: `http://${host}`, "x-forwarded-proto": "https" })).status).toBe(403);
  });
});
