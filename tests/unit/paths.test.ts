import { describe, expect, it } from "vitest";
import { paths, query, safeRedirect } from "#common/paths";

describe("paths", () => {
  it("builds language-prefixed page URLs", () => {
    expect(paths.home("cn")).toBe("/cn");
    expect(paths.submit("br", "get-started")).toBe("/br/researcher/submit/get-started");
    expect(paths.orderThankYou("jp", "RS100001")).toBe("/jp/researcher/index/details/RS100001/thank-you");
    expect(paths.address("es", "new")).toBe("/es/account/addresses/new");
  });
  it("encodes query values and path segments as the hand-written links did", () => {
    expect(paths.login("en", { redirect: "/en/researcher?x=1&y=2" })).toBe(
      `/en/login?redirect=${encodeURIComponent("/en/researcher?x=1&y=2")}`,
    );
    expect(paths.login("en", { redirect: null })).toBe("/en/login");
    expect(query({ a: "b c", skip: undefined, no: false, n: 0 })).toBe("?a=b%20c&n=0");
    expect(paths.orderDetails("en", "RS/1")).toBe("/en/researcher/index/details/RS%2F1");
    expect(paths.api.priceQuotePdf("Q1")).toBe("/api/price-quote/Q1/pdf");
    expect(paths.api.accountRedirect("/en/researcher")).toBe(`/api/account/redirect?redirect=${encodeURIComponent("/en/researcher")}`);
    expect(paths.staffOutbox("en", 12)).toBe("/en/staff/outbox/12");
  });
  it("accepts only same-site redirect paths", () => {
    expect(safeRedirect("/en/researcher?x=1", "/f")).toBe("/en/researcher?x=1");
    expect(safeRedirect("//evil.example", "/f")).toBe("/f");
    expect(safeRedirect("https://evil.example/", "/f")).toBe("/f");
    expect(safeRedirect(undefined, "/f")).toBe("/f");
  });
});
