// Social sign-in end to end against a real OIDC server (tests/helpers/oidc-server.ts) and the real portal.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestPortal, Client } from "../helpers/portal";
import { startOidcServer, type OidcServer, type OidcTestUser } from "../helpers/oidc-server";
import { createResearcher, createStaff } from "../helpers/factories";
import { US_REGISTRATION_FIELDS } from "../helpers/api";
import type { RunningPortal } from "../../server/boot";
import type { AppContext } from "../../server/context";
import { attachPendingLink, createPendingLink } from "../../server/auth/social-link";
import { callbackUrl } from "../../server/auth/social-http";
import { providersForPage } from "../../server/auth/social";

const PROVIDER = "testid";
const CLIENT_ID = "portal-client";
const CLIENT_SECRET = "s3cret-for-tests";

let portal: RunningPortal;
let oidc: OidcServer;

const providerEntry = (id: string, name: string, icon = "") => ({
  id,
  name,
  icon,
  supportedLanguages: [] as string[],
  supportedLocalizations: [] as string[],
});

beforeAll(async () => {
  oidc = await startOidcServer({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  // snid's secret comes from the environment only (OAUTH_<ID>_CLIENT_SECRET), not from its row.
  portal = await startTestPortal({ OAUTH_SNID_CLIENT_SECRET: CLIENT_SECRET });
  oidc.setRedirectUris(["testid", "snid", "badsecret"].map((id) => `${portal.url}/api/auth/opa/${id}/callback`));
  await portal.ctx.db
    .insertInto("oauth_providers")
    .values([
      { id: PROVIDER, name: "Test ID", issuer: oidc.issuer, client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
      { id: "snid", name: "SNID", issuer: oidc.issuer, client_id: CLIENT_ID, client_secret: null },
      { id: "badsecret", name: "Bad secret", issuer: oidc.issuer, client_id: CLIENT_ID, client_secret: "wrong" },
      { id: "off", name: "Switched off", issuer: oidc.issuer, client_id: CLIENT_ID, client_secret: CLIENT_SECRET, enabled: false },
      { id: "brazil", name: "Brasil ID", issuer: oidc.issuer, client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
    ])
    .execute();
  await portal.ctx.config.setConfig("authenticationProviders", [
    providerEntry(PROVIDER, "Test ID", "/favicon.svg"),
    providerEntry("snid", "SNID", "https://evil.example/snid.svg"),
    providerEntry("badsecret", "Bad secret"),
    providerEntry("off", "Switched off"),
    { ...providerEntry("brazil", "Brasil ID"), supportedLanguages: ["pt_BR"], supportedLocalizations: ["BR"] },
  ]);
});

afterAll(async () => {
  await portal?.stop();
  await oidc?.close();
});

beforeEach(() => {
  oidc.setDeny(false);
  oidc.setUser(null);
});

let counter = 0;
function testUser(extra: Partial<OidcTestUser> = {}): OidcTestUser {
  counter++;
  const user: OidcTestUser = {
    sub: `sub-${counter}-${randomUUID()}`,
    email: `social-${counter}-${Date.now()}@example.org`,
    email_verified: true,
    given_name: "Grace",
    family_name: "Hopper",
    ...extra,
  };
  oidc.setUser(user);
  return user;
}

/** Start → provider (auto-approve, or deny) → back to the callback; returns the callback's answer. */
async function socialSignIn(
  c: Client,
  opts: { provider?: string; query?: string; deny?: boolean; state?: (s: string) => string } = {},
): Promise<Response> {
  const provider = opts.provider ?? PROVIDER;
  const start = await c.get(`/api/auth/opa/${provider}${opts.query ?? ""}`);
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get("location")!);
  expect(authorize.origin).toBe(oidc.issuer);
  if (opts.deny) authorize.searchParams.set("deny", "1");
  const answer = await fetch(authorize, { redirect: "manual" });
  expect(answer.status).toBe(302);
  const back = new URL(answer.headers.get("location")!);
  expect(`${back.origin}${back.pathname}`).toBe(`${portal.url}/api/auth/opa/${provider}/callback`);
  if (opts.state) back.searchParams.set("state", opts.state(back.searchParams.get("state") ?? ""));
  return c.get(back.pathname + back.search);
}

async function linksOf(subject: string) {
  return portal.ctx.db
    .selectFrom("linked_accounts")
    .selectAll()
    .where("provider_id", "=", PROVIDER)
    .where("subject", "=", subject)
    .execute();
}

async function userIdOf(email: string): Promise<number> {
  const row = await portal.ctx.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return row.id;
}

/** An account, and a provider identity with its e-mail (verified): signing in links the two. */
async function existingPerson(): Promise<{ user: OidcTestUser; userId: number }> {
  const user = testUser();
  return { user, userId: await makeUser(user.email!) };
}

async function makeUser(email: string): Promise<number> {
  const row = await portal.ctx.db
    .insertInto("users")
    .values({
      identity: randomUUID(),
      email,
      password_hash: null,
      first_name: "Test",
      last_name: "User",
      currency_iso: "USD",
      language: "en",
      localization: "US",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

function decodeConfirm(location: string) {
  const m = /\/register\/confirm\/([^?]+)/.exec(location);
  expect(m).toBeTruthy();
  return JSON.parse(Buffer.from(m![1], "base64url").toString("utf8")) as {
    email: string;
    firstName: string;
    lastName: string;
    link?: string;
  };
}

describe("provider buttons", () => {
  it("shows listed, enabled providers with links that carry redirect and origin, translated, with same-origin icons only", async () => {
    const html = await (await fetch(`${portal.url}/en/login?redirect=%2Fen%2Fresearcher%2Finvoices&origin=grammar`)).text();
    expect(html).toContain('href="/api/auth/opa/testid?redirect=%2Fen%2Fresearcher%2Finvoices&amp;origin=grammar"');
    expect(html).toContain("Continue with Test ID");
    expect(html).toContain('src="/favicon.svg"');
    expect(html).toContain('data-provider="badsecret"');
    // Disabled, flagged-off and other-localisation providers are not shown.
    expect(html).not.toContain('data-provider="off"');
    expect(html).not.toContain('data-provider="snid"');
    expect(html).not.toContain('data-provider="brazil"');
    const jp = await (await fetch(`${portal.url}/jp/login`)).text();
    expect(jp).toContain("Test ID で続ける");
    expect(jp).toContain('href="/api/auth/opa/testid"');
    const register = await (await fetch(`${portal.url}/es/register?origin=grammar`)).text();
    expect(register).toContain("Continuar con Test ID");
    expect(register).toContain('href="/api/auth/opa/testid?origin=grammar"');
  });

  it("filters by language and localisation", async () => {
    const br = await providersForPage(portal.ctx, { lang: "br", localization: "BR" });
    expect(br.map((p) => p.id)).toContain("brazil");
    expect(br.find((p) => p.id === "brazil")!.label).toBe("Continuar com Brasil ID");
    expect((await providersForPage(portal.ctx, { lang: "br", localization: "US" })).map((p) => p.id)).not.toContain("brazil");
    expect((await providersForPage(portal.ctx, { lang: "en", localization: "BR" })).map((p) => p.id)).not.toContain("brazil");
  });

  it("hides snid unless npgle_snid is on, and refuses to start it", async () => {
    const c = new Client(portal.url);
    const off = await c.get("/api/auth/opa/snid");
    expect(off.status).toBe(302);
    expect(off.headers.get("location")).toBe("/en/login/failure/oauth-failure");
    await portal.ctx.config.setFlag("npgle_snid", true);
    try {
      const html = await (await fetch(`${portal.url}/en/login`)).text();
      expect(html).toContain('data-provider="snid"');
      // A third-party icon is never rendered.
      expect(html).not.toContain("evil.example");
      // Its secret comes from OAUTH_SNID_CLIENT_SECRET: the whole flow works.
      testUser({ sub: "snid-person" });
      const done = await socialSignIn(new Client(portal.url), { provider: "snid" });
      expect(done.headers.get("location")).toMatch(/^\/en\/register\/confirm\//);
    } finally {
      await portal.ctx.config.setFlag("npgle_snid", false);
    }
    expect(await (await fetch(`${portal.url}/en/login`)).text()).not.toContain('data-provider="snid"');
  });

  it("builds the callback address from PUBLIC_URL when set, else from the request", () => {
    const request = new Request("http://127.0.0.1:3000/api/auth/opa/testid");
    expect(callbackUrl({ env: { PUBLIC_URL: "https://portal.example" } } as AppContext, request, "testid")).toBe(
      "https://portal.example/api/auth/opa/testid/callback",
    );
    expect(callbackUrl({ env: {} } as AppContext, request, "testid")).toBe("http://127.0.0.1:3000/api/auth/opa/testid/callback");
  });
});

describe("social sign-in", () => {
  it("sends the provider an authorization request with PKCE S256, state, nonce and the callback", async () => {
    testUser();
    const c = new Client(portal.url);
    const start = await c.get("/api/auth/opa/testid");
    const q = new URL(start.headers.get("location")!).searchParams;
    expect(q.get("response_type")).toBe("code");
    expect(q.get("client_id")).toBe(CLIENT_ID);
    expect(q.get("redirect_uri")).toBe(`${portal.url}/api/auth/opa/testid/callback`);
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get("state")).toBeTruthy();
    expect(q.get("nonce")).toBeTruthy();
    expect(q.get("scope")).toBe("openid email profile");
    expect(start.headers.get("cache-control")).toBe("no-store");
    const cookies = start.headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/opa_state:[^=]+=.*Path=\/api\/auth\/opa.*HttpOnly/i);
    expect(cookies).toMatch(/opa_flow_[0-9a-f]{16}=.*HttpOnly; SameSite=Lax/);
  });

  it("new person: register/confirm prefilled, registering links the identity, then signs straight in", async () => {
    const person = testUser({ given_name: "Grace", family_name: "Hopper" });
    const c = new Client(portal.url);
    const done = await socialSignIn(c, { query: "?redirect=%2Fen%2Fresearcher%2Finvoices&origin=grammar" });
    expect(done.status).toBe(302);
    const location = done.headers.get("location")!;
    expect(location).toMatch(/^\/en\/register\/confirm\/[A-Za-z0-9_-]+\?redirect=%2Fen%2Fresearcher%2Finvoices&origin=grammar$/);
    const data = decodeConfirm(location);
    expect(data).toMatchObject({ email: person.email, firstName: "Grace", lastName: "Hopper" });
    expect(data.link).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The flow's cookies are used up.
    expect([...c.cookies.keys()].filter((k) => k.startsWith("opa_"))).toEqual([]);
    expect(c.cookies.has("sid")).toBe(false);

    const page = await c.get(location);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(person.email!);
    expect(html).toContain('value="Grace"');
    expect(html).toContain('value="Hopper"');
    expect(html).toContain(`name="link" value="${data.link}"`);

    const registered = await c.post(location, {
      intent: "register",
      email: person.email!,
      link: data.link!,
      password: "Grace#Hopper1906",
      firstName: "Grace",
      lastName: "Hopper",
      ...US_REGISTRATION_FIELDS,
      redirect: "/en/researcher/invoices",
      origin: "grammar",
    });
    expect(registered.status).toBe(303);
    expect(registered.headers.get("location")).toBe("/en/researcher/invoices");
    const userId = await userIdOf(person.email!);
    expect((await linksOf(person.sub)).map((l) => l.user_id)).toEqual([userId]);
    // The provider vouched for the address the account registered with: it counts as proven (issue 10 §4).
    const verified = await portal.ctx.db.selectFrom("users").select("email_verified_at").where("id", "=", userId).executeTakeFirstOrThrow();
    expect(verified.email_verified_at).not.toBeNull();

    // The next social sign-in (another browser) signs straight in.
    const other = new Client(portal.url);
    const again = await socialSignIn(other, { query: "?redirect=%2Fen%2Fresearcher%2Finvoices" });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe("/en/researcher/invoices");
    expect(again.headers.getSetCookie().join("\n")).toMatch(/sid=[A-Za-z0-9_-]{22}; Path=\/; HttpOnly; SameSite=Lax/);
    const home = await other.get("/en/researcher");
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Grace Hopper");
  });

  it("an unverified e-mail of a new person is prefilled but not linked", async () => {
    testUser({ email_verified: false });
    const done = await socialSignIn(new Client(portal.url));
    const data = decodeConfirm(done.headers.get("location")!);
    expect(data.link).toBeUndefined();
  });

  it("existing account with the same, verified e-mail: linked and signed in", async () => {
    const existing = await createResearcher(portal.ctx, { firstName: "Ada", lastName: "Lovelace" });
    await portal.ctx.db.updateTable("users").set({ email_verified_at: null }).where("id", "=", existing.id).execute();
    const [local, domain] = existing.email.split("@");
    // The provider spells the address in capitals: e-mail addresses match whatever their case.
    const person = testUser({ email: `${local.toUpperCase()}@${domain}`, given_name: "Ada", family_name: "Lovelace" });
    const c = new Client(portal.url);
    const done = await socialSignIn(c, { query: "?redirect=%2Fen%2Faccount&origin=order" });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/en/account");
    expect(c.cookies.has("sid")).toBe(true);
    const links = await linksOf(person.sub);
    expect(links.map((l) => l.user_id)).toEqual([existing.id]);
    const audit = await portal.ctx.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "social.link")
      .where("actor_user_id", "=", links[0].user_id)
      .execute();
    expect(audit.length).toBeGreaterThan(0);
    // The provider's verified address proves the account's own.
    const row = await portal.ctx.db.selectFrom("users").select("email_verified_at").where("id", "=", existing.id).executeTakeFirstOrThrow();
    expect(row.email_verified_at).not.toBeNull();
    // Signing in again uses the link, even when the provider now reports another address.
    oidc.setUser({ ...person, email: "changed@example.org" });
    const again = await socialSignIn(new Client(portal.url));
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe("/en/researcher");
  });

  it("an unverified e-mail never links to an existing account", async () => {
    const person = testUser({ email: (await createStaff(portal.ctx)).email, email_verified: false });
    const c = new Client(portal.url);
    const done = await socialSignIn(c, { query: "?redirect=%2Fen%2Fresearcher&origin=grammar" });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/en/login/failure/oauth-failure?redirect=%2Fen%2Fresearcher&origin=grammar");
    expect(c.cookies.has("sid")).toBe(false);
    expect(await linksOf(person.sub)).toEqual([]);
  });

  it("denied consent goes to the failure page, keeping redirect and origin and the language", async () => {
    testUser();
    const c = new Client(portal.url);
    c.cookies.set("lang", "br");
    const done = await socialSignIn(c, { query: "?redirect=%2Fbr%2Fresearcher&origin=grammar", deny: true });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/br/login/failure/oauth-failure?redirect=%2Fbr%2Fresearcher&origin=grammar");
    expect(c.cookies.has("sid")).toBe(false);
    const page = await c.get(done.headers.get("location")!);
    expect(page.status).toBe(200);
  });

  it("a tampered or replayed state fails", async () => {
    await existingPerson();
    const c = new Client(portal.url);
    const tampered = await socialSignIn(c, { query: "?redirect=%2Fen%2Fresearcher&origin=grammar", state: (s) => `${s.slice(0, -2)}xx` });
    expect(tampered.status).toBe(302);
    expect(tampered.headers.get("location")).toBe("/en/login/failure/oauth-failure?redirect=%2Fen%2Fresearcher&origin=grammar");
    expect(c.cookies.has("sid")).toBe(false);

    // A state from another browser (no cookies of its own flow) fails too.
    const victim = new Client(portal.url);
    const start = await new Client(portal.url).get("/api/auth/opa/testid");
    const answer = await fetch(start.headers.get("location")!, { redirect: "manual" });
    const back = new URL(answer.headers.get("location")!);
    const foreign = await victim.get(back.pathname + back.search);
    expect(foreign.headers.get("location")).toBe("/en/login/failure/oauth-failure");
    expect(victim.cookies.has("sid")).toBe(false);

    // A callback used once cannot be replayed.
    const d = new Client(portal.url);
    const s = await d.get("/api/auth/opa/testid");
    const a = await fetch(s.headers.get("location")!, { redirect: "manual" });
    const cb = new URL(a.headers.get("location")!);
    const saved = new Map(d.cookies);
    expect((await d.get(cb.pathname + cb.search)).status).toBe(303);
    const replay = new Client(portal.url);
    replay.cookies = saved;
    expect((await replay.get(cb.pathname + cb.search)).headers.get("location")).toBe("/en/login/failure/oauth-failure");
  });

  it("a token error (wrong client secret), an unknown or a disabled provider fail", async () => {
    testUser();
    const bad = await socialSignIn(new Client(portal.url), { provider: "badsecret", query: "?origin=grammar" });
    expect(bad.headers.get("location")).toBe("/en/login/failure/oauth-failure?origin=grammar");
    for (const id of ["nope", "off", "brazil%20x", "..%2F..%2Fetc"]) {
      const r = await new Client(portal.url).get(`/api/auth/opa/${id}?redirect=%2Fen%2Faccount`);
      expect(r.status, id).toBe(302);
      expect(r.headers.get("location"), id).toBe("/en/login/failure/oauth-failure?redirect=%2Fen%2Faccount");
    }
  });

  it("does not follow an unsafe redirect after signing in", async () => {
    await existingPerson();
    for (const evil of ["https://evil.example/", "//evil.example/x"]) {
      const done = await socialSignIn(new Client(portal.url), { query: `?redirect=${encodeURIComponent(evil)}` });
      expect(done.status).toBe(303);
      expect(done.headers.get("location")).toBe("/en/researcher");
    }
  });

  it("a signed-in researcher links another identity to their own account", async () => {
    const staff = await createStaff(portal.ctx);
    const c = new Client(portal.url);
    const signedIn = await c.post("/en/login", { email: staff.email, password: staff.password });
    expect(signedIn.status).toBe(303);
    const person = testUser({ email: "someone-else@example.org" });
    const done = await socialSignIn(c, { query: "?redirect=%2Fen%2Faccount" });
    expect(done.headers.get("location")).toBe("/en/account");
    expect((await linksOf(person.sub)).map((l) => l.user_id)).toEqual([staff.id]);
  });
});

describe("attachPendingLink", () => {
  it("links only a live, unused pending link whose e-mail matches the new account's", async () => {
    const ctx = portal.ctx;
    const email = `pending-${Date.now()}@example.org`;
    const userId = await makeUser(email);
    const otherId = await makeUser(`other-${Date.now()}@example.org`);

    expect(await attachPendingLink(ctx, "not-a-link", { id: userId, email })).toBe(false);
    expect(await attachPendingLink(ctx, "A".repeat(43), { id: userId, email })).toBe(false);

    const mismatched = await createPendingLink(ctx, { providerId: PROVIDER, subject: "pending-1", email });
    expect(await attachPendingLink(ctx, mismatched, { id: otherId, email: `other-${Date.now()}@example.org` })).toBe(false);
    // Used up by the refused attempt.
    expect(await attachPendingLink(ctx, mismatched, { id: userId, email })).toBe(false);
    expect(await linksOf("pending-1")).toEqual([]);

    const good = await createPendingLink(ctx, { providerId: PROVIDER, subject: "pending-2", email });
    expect(await attachPendingLink(ctx, good, { id: userId, email: email.toUpperCase() })).toBe(true);
    expect((await linksOf("pending-2")).map((l) => l.user_id)).toEqual([userId]);
    // Once only.
    expect(await attachPendingLink(ctx, good, { id: userId, email })).toBe(false);

    // An expired record is refused even if the cache still holds it.
    const expired = await createPendingLink(ctx, { providerId: PROVIDER, subject: "pending-3", email });
    const { createHash } = await import("node:crypto");
    const key = `social:pending:${createHash("sha256").update(expired).digest("hex")}`;
    await ctx.cache.setJson(key, { providerId: PROVIDER, subject: "pending-3", email, expiresAt: Date.now() - 1 }, 60);
    expect(await attachPendingLink(ctx, expired, { id: otherId, email })).toBe(false);
  });
});
