// Proxy trust (issue 10 item 2, ADR 025): only the configured proxies may name the client in X-Forwarded-For.
// A client that is not one of them cannot escape the per-address sign-in limit by inventing addresses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPortal, Client, type TestPortal } from "../helpers/portal";

function login(portal: TestPortal, i: number) {
  return new Client(portal.url).request("/api/auth/login", {
    method: "POST",
    // A new address and a new account each time: only the per-address limit can stop this.
    headers: { "content-type": "application/json", "x-forwarded-for": `203.0.113.${i + 1}` },
    body: JSON.stringify({ email: `nobody-${i}@example.org`, password: "wrong-password" }),
  });
}

async function statuses(portal: TestPortal, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await login(portal, i)).status);
  return out;
}

describe("a proxy named by address", () => {
  let portal: TestPortal;
  // The tests speak from 127.0.0.1, which is not this proxy: their X-Forwarded-For is a forgery.
  beforeAll(async () => {
    // Ten failed sign-ins an address a minute (the default is 30: ADR 082), so twelve attempts cross it.
    portal = await startTestPortal({ TRUST_PROXY: "192.0.2.1, 10.0.0.0/8", CONFIG_RATE_LIMITS: JSON.stringify({ signInPerMinute: 10 }) });
  });
  afterAll(() => portal?.stop());

  it("ignores X-Forwarded-For from any other peer: the limit keys on the real peer", async () => {
    const seen = await statuses(portal, 12);
    expect(seen.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(seen.slice(10)).toEqual([429, 429]);
  });
});

describe("the loopback proxy", () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await startTestPortal({ TRUST_PROXY: "loopback", CONFIG_RATE_LIMITS: JSON.stringify({ signInPerMinute: 10 }) });
  });
  afterAll(() => portal?.stop());

  it("is believed: each forwarded address has a limit of its own", async () => {
    expect((await statuses(portal, 12)).every((s) => s === 401)).toBe(true);
  });
});
