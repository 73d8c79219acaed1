import { describe, expect, it } from "vitest";
import { resolveRedirect, safeRedirect } from "../../app/lib/session.server";

describe("redirects after sign-in (spec 1 §2)", () => {
  const hosts = ["cn.portal.example", "br.portal.example"];
  it("accepts same-site paths only", () => {
    expect(safeRedirect("/en/researcher?x=1", "/f")).toBe("/en/researcher?x=1");
    expect(safeRedirect("//evil.example", "/f")).toBe("/f");
    expect(safeRedirect("/\\evil.example", "/f")).toBe("/f");
    expect(safeRedirect("javascript:alert(1)", "/f")).toBe("/f");
    expect(safeRedirect("/en/\u0000x", "/f")).toBe("/f");
    expect(safeRedirect(null, "/f")).toBe("/f");
  });
  it("gives /c/ addresses a full document navigation", () => {
    expect(resolveRedirect("/en/c/documents", "/f", hosts)).toEqual({ url: "/en/c/documents", document: true });
    expect(resolveRedirect("/en/researcher", "/f", hosts)).toEqual({ url: "/en/researcher", document: false });
  });
  it("follows external addresses only to allowed hosts", () => {
    expect(resolveRedirect("https://cn.portal.example/cn/researcher", "/f", hosts)).toEqual({
      url: "https://cn.portal.example/cn/researcher",
      document: true,
    });
    expect(resolveRedirect("https://evil.example/cn/researcher", "/f", hosts)).toEqual({ url: "/f", document: false });
    expect(resolveRedirect("https://cn.portal.example.evil.example/", "/f", hosts)).toEqual({ url: "/f", document: false });
  });
});
