import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, isCrossSiteRequest } from "../../server/http/security";

describe("cross-site request check", () => {
  const req = (method: string, headers: Record<string, string>) => ({ method, headers });
  it("lets safe methods through", () => {
    expect(isCrossSiteRequest(req("GET", { "sec-fetch-site": "cross-site" }), "a.test")).toBe(false);
  });
  it("refuses cross-site and same-site POSTs by Sec-Fetch-Site", () => {
    expect(isCrossSiteRequest(req("POST", { "sec-fetch-site": "cross-site" }), "a.test")).toBe(true);
    expect(isCrossSiteRequest(req("POST", { "sec-fetch-site": "same-site" }), "a.test")).toBe(true);
    expect(isCrossSiteRequest(req("POST", { "sec-fetch-site": "same-origin" }), "a.test")).toBe(false);
  });
  it("falls back to comparing Origin with Host", () => {
    expect(isCrossSiteRequest(req("POST", { origin: "https://evil.test" }), "a.test")).toBe(true);
    expect(isCrossSiteRequest(req("PUT", { origin: "http://a.test:3000" }), "a.test:3000")).toBe(false);
    expect(isCrossSiteRequest(req("DELETE", { origin: "null" }), "a.test")).toBe(true);
  });
  it("lets clients without browser headers through (curl)", () => {
    expect(isCrossSiteRequest(req("POST", {}), "a.test")).toBe(false);
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
