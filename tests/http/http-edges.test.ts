// Edges of the HTTP layer (issue 10, ADR 025): the cross-site check compares whole origins (item 11), cookies
// are Secure behind TLS (item 9), an early answer to a large unread body closes the connection (item 14).
import net from "node:net";
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

describe("cookies behind TLS (item 9)", () => {
  const https = { "x-forwarded-proto": "https" };
  const setCookies = (r: Response, name: string) => r.headers.getSetCookie().filter((c) => c.startsWith(`${name}=`));

  it("the API draft cookie and the API sign-in cookies are Secure when the proxy says https", async () => {
    const r = await new Client(portal.url).get("/api/order-form/new", { headers: https });
    expect(r.status).toBe(201);
    expect(setCookies(r, "draft")).toHaveLength(1);
    expect(setCookies(r, "draft")[0]).toMatch(/; Secure$/);

    const user = await portal.researcher();
    const signIn = await new Client(portal.url).request("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", ...https },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(signIn.status).toBe(200);
    for (const name of ["sid", "lang"]) expect(setCookies(signIn, name)[0], name).toMatch(/; Secure$/);
  });

  it("are not Secure over plain http", async () => {
    const r = await new Client(portal.url).get("/api/order-form/new");
    expect(setCookies(r, "draft")[0]).not.toContain("Secure");
  });
});

describe("cookies with an https PUBLIC_URL behind a proxy that is not trusted (item 9)", () => {
  let behind: TestPortal;
  beforeAll(async () => {
    behind = await startRelaxedPortal({ PUBLIC_URL: "https://portal.example" });
  });
  afterAll(() => behind?.stop());
  const setCookies = (r: Response, name: string) => r.headers.getSetCookie().filter((c) => c.startsWith(`${name}=`));

  it("marks the draft, session and language cookies Secure", async () => {
    const r = await new Client(behind.url).get("/api/order-form/new");
    expect(setCookies(r, "draft")[0]).toMatch(/; Secure$/);
    const user = await behind.researcher();
    const signIn = await new Client(behind.url).request("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(signIn.status).toBe(200);
    for (const name of ["sid", "lang"]) expect(setCookies(signIn, name)[0], name).toMatch(/; Secure$/);
    // Pages too: the language cookie a prefixed page sets.
    expect(setCookies(await new Client(behind.url).get("/jp/login"), "lang")[0]).toMatch(/; Secure$/);
  });
});

/**
 * Sends `path` a body of `total` bytes over a raw connection as fast as it is taken; resolves with the answer's
 * status line and Connection header, and how long after the answer the connection closed (null: still open
 * after `waitMs`).
 */
function earlyAnswer(path: string, total: number, waitMs = 8000) {
  const url = new URL(portal.url);
  return new Promise<{ status: string; connection: string | undefined; closedAfterMs: number | null }>((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let head = "";
    let answeredAt = 0;
    const done = (closedAfterMs: number | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: head.split("\r\n")[0], connection: /\r\nconnection: *([^\r]+)/i.exec(head)?.[1]?.toLowerCase(), closedAfterMs });
    };
    const timer = setTimeout(() => done(null), waitMs);
    socket.on("data", (d) => {
      if (!answeredAt) answeredAt = Date.now();
      head += d.toString("latin1");
    });
    socket.on("error", () => {});
    socket.on("close", () => done(answeredAt ? Date.now() - answeredAt : null));
    socket.write(`POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 32);
    let sent = 0;
    const pump = () => {
      while (sent < total && !socket.destroyed) {
        const part = chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += part.length;
        if (!socket.write(part)) return void socket.once("drain", pump);
      }
    };
    pump();
  });
}

describe("an early answer to a large unread body (item 14)", () => {
  const LARGE = 64 * 1024 * 1024;

  it("401 before reading the body: the answer says Connection: close and the connection closes at once", async () => {
    const r = await earlyAnswer("/api/price-quote/Q1/email", LARGE);
    expect(r.status).toBe("HTTP/1.1 401 Unauthorized");
    expect(r.connection).toBe("close");
    expect(r.closedAfterMs).not.toBeNull();
    expect(r.closedAfterMs!).toBeLessThan(2000);
  });

  it("413 past the body cap, on the API and on a page", async () => {
    for (const path of ["/api/auth/login", "/en/login"]) {
      const r = await earlyAnswer(path, LARGE);
      expect(r.status, path).toBe("HTTP/1.1 413 Payload Too Large");
      expect(r.connection, path).toBe("close");
      expect(r.closedAfterMs, path).not.toBeNull();
      expect(r.closedAfterMs!, path).toBeLessThan(2000);
    }
  });

  it("a small unread body is read and dropped: the connection stays open for the next request", async () => {
    const r = await earlyAnswer("/api/price-quote/Q1/email", 16 * 1024, 1500);
    expect(r.status).toBe("HTTP/1.1 401 Unauthorized");
    expect(r.connection).toBe("keep-alive");
    expect(r.closedAfterMs).toBeNull();
  });
});
