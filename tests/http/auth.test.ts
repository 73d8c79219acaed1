import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPortal, Client, type TestPortal } from "../helpers/portal";
import { createResearcher } from "../helpers/factories";
import { listOutbox } from "../../server/mail";
import { deliveredMail } from "../helpers/mail";
import { RESET_LIMIT_DEFAULTS } from "../../server/auth/password-reset";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startTestPortal();
});
afterAll(async () => portal.stop());

describe("sign-in page", () => {
  it("shows validation messages of spec 1 §5 with status 400", async () => {
    const c = new Client(portal.url);
    const r = await c.post("/en/login", { email: "not-an-email", password: "" });
    expect(r.status).toBe(400);
    const html = await r.text();
    expect(html).toContain("Please enter a valid email address.");
    expect(html).toContain("Please enter your password.");
    // The e-mail is kept, the password is not echoed.
    expect(html).toContain('value="not-an-email"');
  });

  it("refuses wrong credentials without saying which part was wrong", async () => {
    const { email } = await createResearcher(portal.ctx);
    const c = new Client(portal.url);
    const r = await c.post("/en/login", { email, password: "wrong-password" });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("The e-mail address or password is not correct.");
    expect(c.cookies.has("sid")).toBe(false);
  });

  it("signs in, sets the session and language cookies, and follows a safe redirect", async () => {
    const ada = await createResearcher(portal.ctx, { firstName: "Ada", lastName: "Lovelace" });
    const c = new Client(portal.url);
    const r = await c.post("/cn/login", {
      email: ada.email,
      password: ada.password,
      redirect: "/cn/researcher/invoices?x=1",
    });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/cn/researcher/invoices?x=1");
    const cookies = r.headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/sid=[A-Za-z0-9_-]{22}; Path=\/; HttpOnly; SameSite=Lax/);
    expect(cookies).toContain("lang=cn");
    // A signed-in visitor on the sign-in page goes to the redirect or home.
    const again = await c.get("/cn/login");
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe("/cn/researcher");
    // The header shows who is signed in.
    const page = await c.get("/cn/researcher");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Ada Lovelace");
  });

  it("never follows an external redirect (no open redirect)", async () => {
    const { email, password } = await createResearcher(portal.ctx);
    for (const evil of ["https://evil.example/", "//evil.example/x", "/\\evil.example"]) {
      const c = new Client(portal.url);
      const r = await c.post("/en/login", { email, password, redirect: evil });
      expect(r.headers.get("location")).toBe("/en/researcher");
    }
  });

  it("rotates the session: signing in again gives a new token and signing out revokes it", async () => {
    const { email, password } = await createResearcher(portal.ctx);
    const c = new Client(portal.url);
    await c.post("/en/login", { email, password });
    const first = c.cookies.get("sid");
    const out = await c.post("/en/logout", {});
    expect(out.status).toBe(303);
    expect(c.cookies.has("sid")).toBe(false);
    // The old token no longer works.
    const stale = new Client(portal.url);
    stale.cookies.set("sid", first!);
    expect((await stale.get("/en/account")).status).toBe(302);
    await c.post("/en/login", { email, password });
    expect(c.cookies.get("sid")).not.toBe(first);
  });

  it("shows a failure from the URL: known codes translated, any other message decoded as plain text in a translated frame", async () => {
    let html = await (await fetch(`${portal.url}/en/login/failure/oauth-failure`)).text();
    expect(html).toContain("We could not sign you in with that provider.");
    // Any other message is shown (spec 1 §2), escaped, framed so it cannot pass for the portal's copy.
    html = await (await fetch(`${portal.url}/en/login/failure/${encodeURIComponent("<b>Call +1 555 fake support</b>")}`)).text();
    expect(html).toContain("Sign-in failed: &lt;b&gt;Call +1 555 fake support&lt;/b&gt;");
    expect(html).not.toContain("<b>Call");
    html = await (await fetch(`${portal.url}/cn/login/failure/${encodeURIComponent("provider said no")}`)).text();
    expect(html).toContain("登录失败：provider said no");
    // Bidi characters go; at most 200 characters. A control character never reaches the page: no address of the
    // portal holds one, so the edge answers 400 (ADR 047).
    html = await (await fetch(`${portal.url}/en/login/failure/${encodeURIComponent("a\u202Eb\u202Dc\u2066d")}`)).text();
    expect(html).toContain("Sign-in failed: a b c d");
    expect((await fetch(`${portal.url}/en/login/failure/${encodeURIComponent("a\u0007b")}`)).status).toBe(400);
    html = await (await fetch(`${portal.url}/en/login/failure/${"x".repeat(500)}`)).text();
    expect(/role="alert">Sign-in failed: (x+)…<\/div>/.exec(html)?.[1]).toHaveLength(199);
  });

  it("keeps redirect and origin on the register and forgot-password links", async () => {
    const html = await (await fetch(`${portal.url}/en/login?redirect=%2Fen%2Fresearcher&origin=grammar`)).text();
    expect(html).toContain('href="/en/register?redirect=%2Fen%2Fresearcher&amp;origin=grammar"');
    expect(html).toContain('href="/en/login/forgot-password?redirect=%2Fen%2Fresearcher&amp;origin=grammar"');
  });

  it("shows the old layout when new_login is off", async () => {
    await portal.ctx.config.setFlag("new_login", false);
    const html = await (await fetch(`${portal.url}/en/login`)).text();
    expect(html).toContain("<h1>Log in</h1>");
    expect(html).toContain("Forgot your password?");
    await portal.ctx.config.setFlag("new_login", true);
    const html2 = await (await fetch(`${portal.url}/en/login`)).text();
    expect(html2).toContain("<h1>Sign in</h1>");
    expect(html2).toContain("I don&#x27;t have an account");
    expect(html2).toContain("Can&#x27;t sign in?");
  });
});

describe("reset-password limits (issue 10 §5)", () => {
  it("answers 429 with Retry-After once a client has used up its attempts, on the API and on the page", async () => {
    const c = new Client(portal.url);
    const attempt = () =>
      c.request("/api/auth/reset-password", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ oneTimeLoginHash: "forged", userIdentity: crypto.randomUUID(), password: "a-new-password" }),
      });
    for (let i = 0; i < RESET_LIMIT_DEFAULTS.resetAttemptsPerHour; i++) expect((await attempt()).status).toBe(400);
    const over = await attempt();
    expect(over.status).toBe(429);
    expect(await over.json()).toEqual({ error: "too-many-attempts" });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    const page = await c.post(`/en/login/reset-password/forged/${crypto.randomUUID()}`, { password: "a-new-password" });
    expect(page.status).toBe(429);
    expect(await page.text()).toContain("Too many requests. Please wait a while and try again.");
  });
});

describe("forgot password", () => {
  it("answers the same for known and unknown addresses and e-mails only the known one", async () => {
    const { email } = await createResearcher(portal.ctx);
    const c = new Client(portal.url);
    const known = await c.post("/en/login/forgot-password", { email });
    const unknown = await c.post("/en/login/forgot-password", { email: "nobody-here@example.com" });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    const a = await known.text();
    const b = await unknown.text();
    expect(a).toContain("If an account exists for that address");
    expect(b).toContain("If an account exists for that address");
    const mails = await listOutbox(portal.ctx, { to: email });
    expect(mails[0].template).toBe("password-reset");
    // The outbox keeps the message without its link; only the recipient gets it (ADR 018).
    expect(mails[0].text_body).not.toMatch(/reset-password\/[A-Za-z0-9_-]{43}/);
    expect(deliveredMail(portal.ctx, email)[0].text).toMatch(/\/en\/login\/reset-password\/[A-Za-z0-9_-]{43}\/[0-9a-f-]{36}/);
    expect(await listOutbox(portal.ctx, { to: "nobody-here@example.com" })).toHaveLength(0);
  });

  it("validates the e-mail address", async () => {
    const r = await new Client(portal.url).post("/en/login/forgot-password", { email: "nope" });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("Please enter a valid email address.");
  });
});
