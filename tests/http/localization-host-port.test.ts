// Issue 22 item 3: a localisation's site configured with a port (`{"CN":"cn.localhost:3413"}`) is its own site
// when a request comes to that host and port: a Chinese researcher there sees their order, with no "your account
// belongs to another site" banner; on another port it is another site. Requests go to the test portal's port
// with the Host header a browser at cn.localhost:3413 would send (a proxy in front maps the one to the other).
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, type TestPortal } from "../helpers/portal";
import { createPlacedOrder } from "../helpers/factories";

const CHINESE = { country: "CN", countryCode: "CN", phoneNumber: "13800138000", currency: "CNY", language: "cn" };

function getWithHost(
  portal: TestPortal,
  pathname: string,
  host: string,
  cookie: string,
): Promise<{ status: number; body: string; location?: string }> {
  const url = new URL(portal.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: pathname, headers: { host, cookie } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, location: res.headers.location }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("a localisation host with a port", () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await startRelaxedPortal({ CONFIG_LOCALIZATION_HOSTS: JSON.stringify({ CN: "cn.localhost:3413", BR: "br.localhost" }) });
    // A shared machine can take more than the default minute to build a portal.
  }, 240_000);
  afterAll(() => portal?.stop());

  it("is the Chinese researcher's own site at that host and port, another site elsewhere", async () => {
    const user = await portal.researcher(CHINESE);
    const order = await createPlacedOrder(portal.ctx, user, { currencyIso: "CNY" });
    const cookie = user.client.cookieHeader();
    const page = `/cn/researcher/index/details/${order.externalId}/thank-you`;
    const own = await getWithHost(portal, page, "cn.localhost:3413", cookie);
    expect(own.status).toBe(200);
    expect(own.body).toContain(`data-external-id="true">${order.externalId}<`);
    expect(own.body).not.toContain('href="/api/account/redirect');
    const account = JSON.parse((await getWithHost(portal, "/api/account", "cn.localhost:3413", cookie)).body);
    expect(account.user.localizationMismatch).toBe(false);
    expect(account.user.requiresLocalizationRedirect).toBe(false);
    // Another port of the same name is another site: the banner, and the redirect to the configured host and port.
    const other = await getWithHost(portal, page, "cn.localhost:3414", cookie);
    expect(other.body).toContain('href="/api/account/redirect');
    expect(other.body).not.toContain("data-external-id");
    const moved = await getWithHost(portal, "/api/account/redirect?redirect=%2Fcn%2Fresearcher", "cn.localhost:3414", cookie);
    expect(moved.location).toBe("http://cn.localhost:3413/cn/researcher");
  });
});
