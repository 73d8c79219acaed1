// Localisation sites are configuration (ADR 021; issue 9 §2): a fresh deployment has one address, so a
// Chinese researcher who registers there and places an order sees the order, with no "your account
// belongs to another site" banner. Only with `localizationHosts` configured do the banner and the redirect
// to the user's own site apply.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, type TestPortal } from "../helpers/portal";
import { createPlacedOrder } from "../helpers/factories";

const CHINESE = { country: "CN", countryCode: "CN", phoneNumber: "13800138000", currency: "CNY", language: "cn" };
const HOSTS = JSON.stringify({ CN: "cn.localhost", BR: "br.localhost" });

async function placedByChineseResearcher(portal: TestPortal) {
  const user = await portal.researcher(CHINESE);
  const order = await createPlacedOrder(portal.ctx, user, { currencyIso: "CNY" });
  return { user, order };
}

describe("no localisation hosts configured (the default)", () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await startRelaxedPortal();
  });
  afterAll(() => portal?.stop());

  it("shows a Chinese researcher the order just placed on the thank-you page, with no mismatch banner", async () => {
    const { user, order } = await placedByChineseResearcher(portal);
    const r = await user.client.get(`/cn/researcher/index/details/${order.externalId}/thank-you`);
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain(`<strong data-external-id="true">${order.externalId}</strong>`);
    expect(html).not.toContain('href="/api/account/redirect');
  });

  it("answers /api/account with requiresLocalizationRedirect and localizationMismatch false", async () => {
    const { client } = await portal.researcher(CHINESE);
    const { user: account } = await (await client.get("/api/account")).json();
    expect(account.localization).toBe("CN");
    expect(account.requiresLocalizationRedirect).toBe(false);
    expect(account.localizationMismatch).toBe(false);
  });

  it("redirects /api/account/redirect to the path here, query kept", async () => {
    const { client } = await portal.researcher(CHINESE);
    const r = await client.get("/api/account/redirect?redirect=%2Fcn%2Fresearcher%3Fa%3D1%26b%3D2");
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe("/cn/researcher?a=1&b=2");
  });

  it("loads no other site's logout image and allows no other origin", async () => {
    const { client } = await portal.researcher();
    await client.post("/en/logout", {});
    const page = await client.get("/en/logout?done=1");
    expect(await page.text()).not.toContain("logout.gif");
    const imgSrc = /img-src ([^;]+)/.exec(page.headers.get("content-security-policy")!)![1].split(" ");
    expect(imgSrc.sort()).toEqual(["'self'", "blob:", "data:"].sort());
  });
});

describe("localisation hosts configured", () => {
  let portal: TestPortal;
  let port: string;
  beforeAll(async () => {
    portal = await startRelaxedPortal({ CONFIG_LOCALIZATION_HOSTS: HOSTS });
    port = new URL(portal.url).port;
  });
  afterAll(() => portal?.stop());

  it("replaces the page with the mismatch banner on another localisation's site", async () => {
    const { user, order } = await placedByChineseResearcher(portal);
    const html = await (await user.client.get(`/cn/researcher/index/details/${order.externalId}/thank-you`)).text();
    expect(html).toContain('href="/api/account/redirect?redirect=%2Fcn%2Fresearcher%2Findex%2Fdetails%2F');
    expect(html).not.toContain("data-external-id");
    const { user: account } = await (await user.client.get("/api/account")).json();
    expect(account.requiresLocalizationRedirect).toBe(true);
    expect(account.localizationMismatch).toBe(true);
  });

  it("redirects to the user's own site, keeping path and query", async () => {
    const { client } = await portal.researcher(CHINESE);
    let r = await client.get("/api/account/redirect?redirect=%2Fcn%2Fresearcher%3Fa%3D1%26b%3D2");
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe(`http://cn.localhost:${port}/cn/researcher?a=1&b=2`);
    r = await client.get("/api/account/redirect?redirect=https%3A%2F%2Fevil.example%2F");
    expect(r.headers.get("location")).toBe(`http://cn.localhost:${port}/cn/researcher`);
    // A US researcher (US has no host of its own here) stays on this site.
    const us = await portal.researcher();
    r = await us.client.get("/api/account/redirect?redirect=%2Fen%2Fresearcher%3Fa%3D1");
    expect(r.headers.get("location")).toBe("/en/researcher?a=1");
  });

  it("signs out of the other sites through their logout images, allowed by the CSP", async () => {
    const { client } = await portal.researcher();
    const out = await client.post("/en/logout", {});
    expect(out.headers.get("location")).toMatch(/^\/en\/logout\?done=1&t=/);
    const page = await client.get(out.headers.get("location")!);
    const html = await page.text();
    // Each image carries the logout token of this sign-out (issue 10 §10).
    expect(html).toMatch(new RegExp(`src="http://cn\\.localhost:${port}/api/auth/logout\\.gif\\?t=[\\w.-]+"`));
    expect(html).toMatch(new RegExp(`src="http://br\\.localhost:${port}/api/auth/logout\\.gif\\?t=[\\w.-]+"`));
    const imgSrc = /img-src ([^;]+)/.exec(page.headers.get("content-security-policy")!)![1].split(" ");
    expect(imgSrc.sort()).toEqual(["'self'", "blob:", "data:", `http://br.localhost:${port}`, `http://cn.localhost:${port}`].sort());
  });
});
