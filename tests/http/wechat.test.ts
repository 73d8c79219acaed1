import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPortal, Client } from "../helpers/portal";
import { createResearcher } from "../helpers/factories";
import type { RunningPortal } from "../../server/boot";

let portal: RunningPortal;
beforeAll(async () => {
  // The sandbox is the test mode: it runs only when configured explicitly (issue 10 §3, ADR 024).
  portal = await startTestPortal({ WECHAT_MODE: "sandbox" });
});
afterAll(async () => portal.stop());

/** A second device (the "phone") signed in, through the sign-in page, as a new researcher named Ada Lovelace. */
async function phone(): Promise<Client> {
  const { email, password } = await createResearcher(portal.ctx, { firstName: "Ada", lastName: "Lovelace" });
  const c = new Client(portal.url);
  const r = await c.post("/en/login", { email, password });
  expect(r.status).toBe(303);
  expect(c.cookies.has("sid")).toBe(true);
  return c;
}

async function startQr(c: Client, body: Record<string, unknown> = {}) {
  const r = await c.request("/api/auth/wechat-login", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  expect(r.status).toBe(200);
  return {
    res: r,
    body: (await r.json()) as {
      loginCode: string;
      ticket: string;
      url: string;
      qrCodeUrl: string;
      sandbox: boolean;
      confirmCode: string;
      maxPolls: number;
      pollIntervalMs: number;
    },
  };
}

function confirmPath(url: string): string {
  return new URL(url).pathname;
}

/** The phone types the code shown under the QR code (the scan), then confirms or cancels with it. */
async function phoneAnswers(device: Client, url: string, code: string, intent: "confirm" | "cancel") {
  const scanned = await device.post(confirmPath(url), { intent: "scan", code });
  expect(scanned.status).toBe(200);
  return device.post(confirmPath(url), { intent, code });
}

describe("WeChat QR sign-in API", () => {
  it("creates a QR session bound to this browser by an HttpOnly cookie", async () => {
    const browser = new Client(portal.url);
    const { res, body } = await startQr(browser, { redirect: "/en/researcher/invoices", origin: "grammar", lang: "en" });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(body.loginCode).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.ticket).toMatch(/^sandbox_/);
    expect(body.url).toBe(`${portal.url}/en/login/wechat/confirm/${body.loginCode}`);
    expect(body.qrCodeUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(body).toMatchObject({ sandbox: true, maxPolls: 30, pollIntervalMs: 2000 });
    // The short code the phone must type: shown only to the browser that started the sign-in.
    expect(body.confirmCode).toMatch(/^[A-HJKMNP-Z2-9]{6}$/);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("wechat_bind="))!;
    expect(cookie).toMatch(/^wechat_bind=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    // The secret is only in the cookie.
    expect(JSON.stringify(body)).not.toContain(browser.cookies.get("wechat_bind"));
  });

  it("signs in the creating browser after the phone confirms, once, and never another browser", async () => {
    const browser = new Client(portal.url);
    const { body } = await startQr(browser, { redirect: "/en/researcher/invoices", lang: "en" });
    const pollPath = `/api/auth/wechat-login/${body.loginCode}`;

    // Pending.
    let r = await browser.get(pollPath);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ loggedIn: false, status: "pending" });

    // A visitor who is not signed in on the confirmation page is asked to sign in first, with a way back.
    const anonymous = await new Client(portal.url).get(confirmPath(body.url));
    expect(anonymous.status).toBe(200);
    const anonHtml = await anonymous.text();
    expect(anonHtml).toContain("first sign in to your account on this device");
    expect(anonHtml).toContain(`href="/en/login?redirect=${encodeURIComponent(confirmPath(body.url))}"`);
    expect(anonHtml).toContain("Sandbox");

    // The phone opens the QR target: a GET shows a form asking for the code and changes nothing.
    const device = await phone();
    const page = await device.get(confirmPath(body.url));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('name="code"');
    expect(html).toContain("Enter the code shown under the QR code");
    expect(html).not.toContain("Ada Lovelace on the device");
    r = await browser.get(pollPath);
    expect(await r.json()).toEqual({ loggedIn: false, status: "pending" });

    // The code typed (any case, with spaces) is the scan: the phone sees whom it would sign in.
    const spaced = `${body.confirmCode.slice(0, 3).toLowerCase()} ${body.confirmCode.slice(3)}`;
    const scan = await device.post(confirmPath(body.url), { intent: "scan", code: spaced });
    expect(scan.status).toBe(200);
    const question = await scan.text();
    expect(question).toContain("Sign in as Ada Lovelace on the device that shows the QR code?");
    expect(question).toContain("Confirm sign-in");
    r = await browser.get(pollPath);
    expect(await r.json()).toEqual({ loggedIn: false, status: "scanned" });

    // Confirming without the code, or with a wrong one, does nothing.
    expect((await device.post(confirmPath(body.url), { intent: "confirm" })).status).toBe(400);
    expect(
      (await device.post(confirmPath(body.url), { intent: "confirm", code: "ZZZZZZ" === body.confirmCode ? "YYYYYY" : "ZZZZZZ" })).status,
    ).toBe(400);
    r = await browser.get(pollPath);
    expect(await r.json()).toEqual({ loggedIn: false, status: "scanned" });

    // The phone confirms with a POST and the code.
    const confirmed = await device.post(confirmPath(body.url), { intent: "confirm", code: body.confirmCode });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("The other device is being signed in");

    // Another browser that knows the login code but lacks the binding cookie gets nothing.
    const attacker = new Client(portal.url);
    r = await attacker.get(pollPath);
    expect(r.status).toBe(404);
    expect((await r.json()).loggedIn).toBeUndefined();
    expect(attacker.cookies.has("sid")).toBe(false);
    attacker.cookies.set("wechat_bind", "guessed-secret-value");
    r = await attacker.get(pollPath);
    expect(r.status).toBe(404);
    expect(attacker.cookies.has("sid")).toBe(false);

    // The creating browser is signed in.
    expect(browser.cookies.has("sid")).toBe(false);
    r = await browser.get(pollPath);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({
      loggedIn: true,
      redirectUri: "/en/researcher/invoices",
      user: { identity: expect.any(String), firstName: "Ada", lastName: "Lovelace" },
    });
    const cookies = r.headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/sid=[A-Za-z0-9_-]{22}; Path=\/; HttpOnly; SameSite=Lax/);
    expect(cookies).toContain("lang=en");
    expect(cookies).toMatch(/wechat_bind=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0/);
    const home = await browser.get("/en/researcher");
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Ada Lovelace");

    // The binding cookie went with the sign-in, so the next poll finds nothing (see also the replay test).
    r = await browser.get(pollPath);
    expect(r.status).toBe(404);
  });

  it("answers a repeated poll of a consumed session with an error", async () => {
    const browser = new Client(portal.url);
    const { body } = await startQr(browser);
    const secret = browser.cookies.get("wechat_bind")!;
    const device = await phone();
    await phoneAnswers(device, body.url, body.confirmCode, "confirm");
    const first = await browser.get(`/api/auth/wechat-login/${body.loginCode}`);
    expect((await first.json()).loggedIn).toBe(true);
    // Even with the binding secret put back, the session works only once.
    const replay = new Client(portal.url);
    replay.cookies.set("wechat_bind", secret);
    const second = await replay.get(`/api/auth/wechat-login/${body.loginCode}`);
    expect(second.status).toBe(410);
    const json = await second.json();
    expect(json).toMatchObject({ errorCode: "used", error: "This WeChat sign-in has already been used. Please start again." });
    expect(replay.cookies.has("sid")).toBe(false);
  });

  it("reports cancellation and unknown codes as errors", async () => {
    const browser = new Client(portal.url);
    const { body } = await startQr(browser);
    const device = await phone();
    const cancelled = await phoneAnswers(device, body.url, body.confirmCode, "cancel");
    expect(await cancelled.text()).toContain("Sign-in cancelled");
    const r = await browser.get(`/api/auth/wechat-login/${body.loginCode}`);
    expect(r.status).toBe(410);
    expect((await r.json()).errorCode).toBe("cancelled");
    const unknown = await browser.get(`/api/auth/wechat-login/${"Z".repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe("This WeChat sign-in was not found. Please start again.");
    // The confirmation page of a handled session says so.
    const page = await device.get(confirmPath(body.url));
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("has expired or has already been handled");
  });

  it("reports expiry", async () => {
    const browser = new Client(portal.url);
    const { body } = await startQr(browser);
    await portal.ctx.db
      .updateTable("wechat_login_sessions")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("login_code", "=", body.loginCode)
      .execute();
    const r = await browser.get(`/api/auth/wechat-login/${body.loginCode}`, { headers: { "accept-language": "zh-CN" } });
    expect(r.status).toBe(410);
    expect(await r.json()).toEqual({ errorCode: "expired", error: "二维码已过期，请重试。" });
  });

  it("rate-limits polling per login code with a translated 429", async () => {
    const browser = new Client(portal.url);
    const { body } = await startQr(browser);
    const path = `/api/auth/wechat-login/${body.loginCode}`;
    // The client's budget is 30 polls; the server allows some slack (45).
    for (let i = 0; i < 45; i++) expect((await browser.get(path)).status).toBe(200);
    const r = await browser.get(path, { headers: { "accept-language": "zh-CN" } });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await r.json()).toEqual({ errorCode: "rate-limited", error: "请求过于频繁，请稍后再试。" });
  });

  it("answers 405 for wrong methods", async () => {
    const c = new Client(portal.url);
    let r = await c.get("/api/auth/wechat-login");
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("POST");
    r = await c.request("/api/auth/wechat-login", { method: "PUT" });
    expect(r.status).toBe(405);
    r = await c.request("/api/auth/wechat-login", { method: "DELETE" });
    expect(r.status).toBe(405);
    r = await c.post(`/api/auth/wechat-login/${"A".repeat(43)}`, {});
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("GET");
  });

  it("a confirmation link alone scans, confirms and cancels nothing: the code is needed, and five wrong codes end the sign-in", async () => {
    const attackerBrowser = new Client(portal.url);
    const { body } = await startQr(attackerBrowser);
    const pollPath = `/api/auth/wechat-login/${body.loginCode}`;
    // The victim follows the phishing link while signed in.
    const victim = await phone();
    expect((await victim.get(confirmPath(body.url))).status).toBe(200);
    const forms: Record<string, string>[] = [
      { intent: "scan" },
      { intent: "confirm" },
      { intent: "cancel" },
      { intent: "confirm", code: "" },
    ];
    for (const form of forms) {
      const r = await victim.post(confirmPath(body.url), form);
      expect(r.status).toBe(400);
    }
    expect(await (await attackerBrowser.get(pollPath)).json()).toEqual({ loggedIn: false, status: "pending" });
    const wrong = body.confirmCode === "AAAAAA" ? "BBBBBB" : "AAAAAA";
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await victim.post(confirmPath(body.url), { intent: "confirm", code: wrong })).status);
    // The fifth wrong code (five in all, the empty and missing ones not counted) ends the QR session.
    expect(answers).toEqual([400, 400, 400, 400, 410]);
    const late = await victim.post(confirmPath(body.url), { intent: "confirm", code: body.confirmCode });
    expect(late.status).toBe(410);
    const r = await attackerBrowser.get(pollPath);
    expect(r.status).toBe(410);
    expect(attackerBrowser.cookies.has("sid")).toBe(false);
  });

  it("is not there when the wechat_sso flag is off", async () => {
    await portal.ctx.config.setFlag("wechat_sso", false);
    try {
      const c = new Client(portal.url);
      expect((await c.post("/api/auth/wechat-login", {})).status).toBe(404);
      expect((await c.get("/api/auth/wechat-login")).status).toBe(404);
      expect((await c.get(`/api/auth/wechat-login/${"A".repeat(43)}`)).status).toBe(404);
      expect((await c.get("/en/login/wechat")).status).toBe(404);
      expect((await c.post("/en/login/wechat", {})).status).toBe(404);
      expect((await c.get(`/en/login/wechat/confirm/${"A".repeat(43)}`)).status).toBe(404);
      expect(await (await c.get("/en/login")).text()).not.toContain('action="/en/login/wechat"');
    } finally {
      await portal.ctx.config.setFlag("wechat_sso", true);
    }
  });
});

describe("WeChat QR sign-in without JavaScript", () => {
  it("the sign-in page offers a plain form that keeps redirect and origin", async () => {
    const html = await (await new Client(portal.url).get("/en/login?redirect=%2Fen%2Fresearcher%2Finvoices&origin=grammar")).text();
    expect(html).toContain('action="/en/login/wechat"');
    expect(html).toContain('name="redirect" value="/en/researcher/invoices"');
    expect(html).toContain("Sign in with WeChat");
  });

  it("starts with a POST, refreshes itself with a meta tag, and signs in when the phone confirms", async () => {
    const browser = new Client(portal.url);
    const started = await browser.post("/cn/login/wechat", { redirect: "/cn/researcher/invoices", origin: "grammar" });
    expect(started.status).toBe(303);
    const location = started.headers.get("location")!;
    expect(location).toMatch(/^\/cn\/login\/wechat\?code=[A-Za-z0-9_-]{43}&redirect=%2Fcn%2Fresearcher%2Finvoices&origin=grammar$/);
    expect(browser.cookies.has("wechat_bind")).toBe(true);
    const code = new URL(location, portal.url).searchParams.get("code")!;

    const page = await browser.get(location);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    const head = html.slice(0, html.indexOf("</head>"));
    // The refresh is in <head>, from the route's meta export, and counts the reloads.
    expect(head).toContain(
      `<meta http-equiv="refresh" content="2; url=/cn/login/wechat?code=${code}&amp;n=1&amp;redirect=%2Fcn%2Fresearcher%2Finvoices&amp;origin=grammar"/>`,
    );
    expect(html).toContain('src="data:image/svg+xml;base64,');
    expect(html).toContain("请使用微信扫描二维码登录。");
    expect(html).toContain("沙箱");
    expect(html).toContain(`href="/cn/login/wechat/confirm/${code}"`);
    expect(html).toContain("打开沙箱确认页面");

    // Another browser with the code but without the binding cookie sees an error, not the QR code.
    const stranger = await new Client(portal.url).get(location);
    expect(stranger.status).toBe(404);
    expect(await stranger.text()).not.toContain("data:image/svg+xml");

    // The page shows the code the phone must type.
    const confirmCode = /class="wechat-confirm-code-value">([A-Z0-9]{6})</.exec(html)?.[1];
    expect(confirmCode).toMatch(/^[A-HJKMNP-Z2-9]{6}$/);
    expect(html).toContain("确认码");

    const device = await phone();
    await phoneAnswers(device, `${portal.url}/cn/login/wechat/confirm/${code}`, confirmCode!, "confirm");

    const done = await browser.get(`/cn/login/wechat?code=${code}&n=3&redirect=%2Fcn%2Fresearcher%2Finvoices&origin=grammar`);
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/cn/researcher/invoices");
    expect(browser.cookies.has("sid")).toBe(true);
    expect(browser.cookies.has("wechat_bind")).toBe(false);
    expect(await (await browser.get("/cn/researcher")).text()).toContain("Ada Lovelace");
  });

  it("stops after 30 reloads or at expiry with a try-again button", async () => {
    const browser = new Client(portal.url);
    const started = await browser.post("/en/login/wechat", { redirect: "/en/researcher" });
    const code = new URL(started.headers.get("location")!, portal.url).searchParams.get("code")!;
    const spent = await browser.get(`/en/login/wechat?code=${code}&n=30&redirect=%2Fen%2Fresearcher`);
    const html = await spent.text();
    expect(html).toContain("The QR code has expired. Please try again.");
    expect(html).not.toContain('http-equiv="refresh"');
    expect(html).toContain("Try again");
    expect(html).toContain('name="redirect" value="/en/researcher"');

    await portal.ctx.db
      .updateTable("wechat_login_sessions")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("login_code", "=", code)
      .execute();
    const expired = await browser.get(`/en/login/wechat?code=${code}&n=2`);
    expect(expired.status).toBe(410);
    const text = await expired.text();
    expect(text).toContain("The QR code has expired. Please try again.");
    expect(text).not.toContain('http-equiv="refresh"');
  });
});

describe("WeChat sign-in without a configured provider", () => {
  it("is unavailable unless WECHAT_MODE=sandbox is set, whatever the flag says", async () => {
    const plain = await startTestPortal();
    try {
      expect(await plain.ctx.config.flag("wechat_sso")).toBe(true);
      const c = new Client(plain.url);
      expect(
        (await c.request("/api/auth/wechat-login", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status,
      ).toBe(404);
      expect((await c.get(`/api/auth/wechat-login/${"A".repeat(43)}`)).status).toBe(404);
      expect((await c.get("/en/login/wechat")).status).toBe(404);
      expect((await c.post("/en/login/wechat", {})).status).toBe(404);
      expect((await c.get(`/en/login/wechat/confirm/${"A".repeat(43)}`)).status).toBe(404);
      const login = await (await c.get("/en/login")).text();
      expect(login).not.toContain('action="/en/login/wechat"');
      expect(login).not.toContain('class="wechat-login');
    } finally {
      await plain.stop();
    }
  });
});
