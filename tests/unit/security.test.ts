import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, isCrossSiteRequest } from "../../server/http/security";

describe("cross-site request check", () => {
  const req = (method: string, headers: Record<string, string>) => ({ method, headers });
  it("lets safe methods through", () => {
    expect(isCrossSiteRequest(req("GET", { "sec-fetch-site": "cross-site" }), ["http://a.test"])).toBe(false);
  });
  it("refuses cross-site and same-site POSTs by Sec-Fetch-Site", () => {
    expect(isCrossSiteRequest(req("POST", { "sec-fetch-site": "cross-site" }), ["http://a.test"])).toBe(true);
    expect(isCrossSiteRequest(req("POST", { "sec-fetch-site": "same-site" }), ["http://a.test"])).toBe(true);
    expect(isCrossSiteRequest(req("POST", { "sec-fetch-site": "same-origin" }), ["http://a.test"])).toBe(false);
  });
  it("falls back to comparing Origin with Host", () => {
    expect(isCrossSiteRequest(req("POST", { origin: "https://evil.test" }), ["http://a.test"])).toBe(true);
    expect(isCrossSiteRequest(req("PUT", { origin: "http://a.test:3000" }), ["http://a.test:3000"])).toBe(false);
    expect(isCrossSiteRequest(req("DELETE", { origin: "null" }), ["http://a.test"])).toBe(true);
  });
  it("compares the whole origin: scheme, host and port (issue 10 item 11)", () => {
    // The same host over https is another origin than the portal served over http.
    expect(isCrossSiteRequest(req("POST", { origin: "https://a.test" }), ["http://a.test"])).toBe(true);
    expect(isCrossSiteRequest(req("POST", { origin: "http://a.test:8080" }), ["http://a.test"])).toBe(true);
    expect(isCrossSiteRequest(req("POST", { origin: "HTTPS://A.test:443" }), ["https://a.test"])).toBe(false);
    // The configured public address counts as the portal's own (a proxy not trusted with X-Forwarded-Proto).
    expect(isCrossSiteRequest(req("POST", { origin: "https://portal.example" }), ["http://a.test", "https://portal.example"])).toBe(false);
    expect(isCrossSiteRequest(req("POST", { origin: "not an origin" }), ["http://a.test"])).toBe(true);
  });
  it("lets clients without browser headers through (curl)", () => {
    expect(isCrossSiteRequest(req("POST", {}), ["http://a.test"])).toBe(false);
  });
});

describe("content security policy", () => {
  it("names no third-party origin", () => {
    const csp = contentSecurityPolicy("abc");
    expect(csp).toContain("script-src 'self' 'nonce-abc'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toMatch(/https?:\/\//);
  });
});
