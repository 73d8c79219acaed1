// server/http/input.ts: what the edges refuse (ADR 018) — NUL and lone surrogates, URLs that do not decode.
import { describe, expect, it } from "vitest";
import { findUnstorable, findUnstorableField, isUnstorable, urlProblem } from "../../server/http/input";

describe("unstorable text", () => {
  it("is a NUL or an unpaired surrogate; paired surrogates (emoji, rare CJK) are fine", () => {
    expect(isUnstorable("a\u0000b")).toBe(true);
    expect(isUnstorable("a\ud800b")).toBe(true);
    expect(isUnstorable("a\udc00")).toBe(true);
    expect(isUnstorable("\ud800")).toBe(true);
    expect(isUnstorable("naïve 研究 😀 𠀋")).toBe(false);
    expect(isUnstorable("")).toBe(false);
  });

  it("is found in nested JSON keys and values, with its path", () => {
    expect(findUnstorable({ a: { b: ["ok", "x\u0000"] } })).toBe("a.b.1");
    expect(findUnstorable({ "k\u0000": 1 })).toBe("body");
    expect(findUnstorable({ a: 1, b: [true, null, { c: "fine" }] })).toBeNull();
    expect(findUnstorable("x\ud800")).toBe("body");
  });

  it("is found in form fields", () => {
    expect(findUnstorableField(new URLSearchParams({ name: "a\u0000" }))).toBe("name");
    expect(findUnstorableField({ title: "ok" })).toBeNull();
  });
});

describe("urlProblem", () => {
  it("refuses paths that do not decode or hold a NUL, and NULs in the query", () => {
    expect(urlProblem("/en/%E0%A4%A")).toBe("invalid-path");
    expect(urlProblem("/en/%00")).toBe("invalid-path");
    expect(urlProblem("/en?q=%00")).toBe("invalid-query");
    expect(urlProblem("/en?%00=1")).toBe("invalid-query");
    // A backslash or a control character, which a URL parser reads as `/` or drops (ADR 047).
    for (const path of ["/%5C/login", "/%5c", "/en/%5C", "/%09/login", "/%0A", "/%0D", "/%7F", "/en/a\\b"])
      expect(urlProblem(path), path).toBe("invalid-path");
  });

  it("lets ordinary URLs through, and malformed escapes in the query (every reader decodes them leniently)", () => {
    expect(urlProblem("/cn/researcher/submit/get-started?promo=WELCOME10")).toBeNull();
    expect(urlProblem("/en/login/failure/%E4%BD%A0%E5%A5%BD")).toBeNull();
    expect(urlProblem("/en?q=%E0%A4%A")).toBeNull();
    expect(urlProblem("/en?q=100%")).toBeNull();
  });
});
