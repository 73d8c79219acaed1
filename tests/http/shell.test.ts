import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import { startTestPortal, Client } from "../helpers/portal";
import { createResearcher } from "../helpers/factories";
import type { RunningPortal } from "../../server/boot";

let portal: RunningPortal;
let base: string;
beforeAll(async () => {
  portal = await startTestPortal();
  base = portal.url;
});
afterAll(async () => portal.stop());

describe("language prefixes and routing", () => {
  it("redirects / and prefix-less paths to the visitor's language, keeping the query", async () => {
    const c = new Client(base);
    let r = await c.get("/researcher?x=1", { headers: { "accept-language": "ja-JP,ja;q=0.9" } });
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe("/jp/researcher?x=1");
    r = await c.get("/", { headers: { cookie: "lang=br", "accept-language": "ja" } });
    expect(r.headers.get("location")).toBe("/br");
    r = await c.get("/login/forgot-password");
    expect(r.headers.get("location")).toBe("/en/login/forgot-password");
  });

  it("answers an unknown prefix with a translated 404 page", async () => {
    const r = await fetch(`${base}/xx/login`, { headers: { "accept-language": "es" } });
    expect(r.status).toBe(404);
    const html = await r.text();
    expect(html).toContain('lang="es-ES"');
    expect(html).toContain("Página no encontrada");
  });

  it("answers unknown pages under a language with a 404 inside the page chrome", async () => {
    const r = await fetch(`${base}/cn/no-such-page`);
    expect(r.status).toBe(404);
    const html = await r.text();
    expect(html).toContain('lang="zh-CN"');
    expect(html).toContain("site-header");
    // The error page has a translated <title> (axe: document-title).
    expect(html).toMatch(/<title>页面未找到[^<]*<\/title>/);
  });

  it("sends a GET of the country prompt's address to the account page, not to a bare 404", async () => {
    const r = await fetch(`${base}/br/account/country`, { redirect: "manual" });
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe("/br/account");
  });

  it.each([
    ["en", "en-US", "Sign in"],
    ["cn", "zh-CN", "登录"],
    ["jp", "ja-JP", "ログイン"],
    ["br", "pt-BR", "Entrar"],
    ["es", "es-ES", "Iniciar sesión"],
  ])("serves /%s/login in its language", async (lang, tag, word) => {
    const r = await fetch(`${base}/${lang}/login`);
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain(`<html lang="${tag}"`);
    expect(html).toContain(word);
    expect(html).toContain(`href="/${lang}/register"`);
    // Remembering the language.
    expect(r.headers.getSetCookie().join()).toContain(`lang=${lang}`);
  });

  it.each(["en", "cn", "jp", "br", "es"])("serves /%s/register and the forgot-password page", async (lang) => {
    for (const p of ["register", "login/forgot-password"]) {
      const r = await fetch(`${base}/${lang}/${p}`);
      expect(r.status, p).toBe(200);
      expect(await r.text()).toContain('type="email"');
    }
  });

  it("sends anonymous visitors on protected pages to sign-in with the redirect", async () => {
    const r = await fetch(`${base}/en/researcher/invoices?page=2`, { redirect: "manual" });
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe(`/en/login?redirect=${encodeURIComponent("/en/researcher/invoices?page=2")}`);
  });

  it("redirects /researcher/aje-plus to /researcher/rewards and /curie/* to /rubriq/*", async () => {
    const { email, password } = await createResearcher(portal.ctx);
    const c = new Client(base);
    await c.post("/en/login", { email, password });
    let r = await c.get("/en/researcher/aje-plus");
    expect(r.headers.get("location")).toBe("/en/researcher/rewards");
    r = await c.get("/en/curie/plan/subscribe?a=1");
    expect(r.headers.get("location")).toBe("/en/rubriq/plan/subscribe?a=1");
  });
});

describe("HTTP safety", () => {
  it("sends a CSP with a nonce and no third-party origin, and the other security headers", async () => {
    const r = await fetch(`${base}/en/login`);
    const csp = r.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    expect(csp).not.toMatch(/https?:\/\//);
    // No inline styles are allowed, so the page must have none (issue 10 §15).
    expect(/style-src ([^;]+)/.exec(csp)![1]).toBe("'self'");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(r.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(r.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const html = await r.text();
    // Every script carries the nonce and no page refers to another origin.
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) if (!s.includes('type="application/json"')) expect(s).toContain(`nonce="${nonce}"`);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/<style\b|\sstyle="/);
  });

  it("sends a build script only the headers a subresource needs (no CSP or frame policy with every script)", async () => {
    const page = await (await fetch(`${base}/en/login`)).text();
    const script = /<link rel="modulepreload" href="(\/assets\/[^"]+\.js)"/.exec(page)![1];
    const r = await fetch(base + script, { headers: { "accept-encoding": "br" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    for (const h of ["content-security-policy", "x-frame-options", "permissions-policy", "cross-origin-opener-policy"]) {
      expect(r.headers.get(h), h).toBeNull();
    }
    // A missing asset is still a 404 under the same headers, never a page of the portal.
    expect((await fetch(`${base}/assets/nothing-here.js`)).status).toBe(404);
  });

  it("keeps a valid incoming request id", async () => {
    const r = await fetch(`${base}/healthz`, { headers: { "x-request-id": "trace-12345678" } });
    expect(r.headers.get("x-request-id")).toBe("trace-12345678");
  });

  it("refuses cross-site POSTs", async () => {
    let r = await fetch(`${base}/en/login`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: "email=a@b.c&password=x",
      redirect: "manual",
    });
    expect(r.status).toBe(403);
    r = await fetch(`${base}/en/logout`, { method: "POST", headers: { "sec-fetch-site": "cross-site" }, redirect: "manual" });
    expect(r.status).toBe(403);
  });

  it("reports the database and Redis on /healthz", async () => {
    const r = await fetch(`${base}/healthz`);
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body).toMatchObject({
      status: "ok",
      database: { ok: true, kind: process.env.DATABASE_URL ? "postgres" : "pglite" },
      redis: { configured: Boolean(process.env.REDIS_URL), ok: true },
      // The answering process (the portal runs in this test process): a restarted worker shows as a new pid.
      pid: process.pid,
    });
  });

  it("serves the application config and flags at /api/application", async () => {
    // fetch() may not set Host, so ask with node:http as a browser on the China site would.
    const body = await new Promise<{
      localAuthEnabled: boolean;
      featureFlags: Record<string, unknown>;
      currentLocalization: { identity: string };
      localizations: unknown[];
    }>((resolve, reject) => {
      const u = new URL(`${base}/api/application`);
      http
        .get({ host: u.hostname, port: u.port, path: u.pathname, headers: { host: `cn.localhost:${u.port}` } }, (res) => {
          let data = "";
          res.on("data", (c) => (data += c));
          res.on("end", () => (res.statusCode === 200 ? resolve(JSON.parse(data)) : reject(new Error(String(res.statusCode)))));
        })
        .on("error", reject);
    });
    expect(body.localAuthEnabled).toBe(true);
    expect(body.featureFlags).toHaveProperty("wechat_sso");
    // No localisation has a host of its own by default (ADR 021): every host is the default site.
    expect(body.currentLocalization.identity).toBe("US");
    expect(body.localizations).toHaveLength(3);
  });

  it("serves fingerprinted assets as immutable", async () => {
    const html = await (await fetch(`${base}/en/login`)).text();
    const asset = /href="(\/assets\/[^"]+\.css)"/.exec(html)![1];
    const r = await fetch(base + asset);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toContain("immutable");
  });
});
