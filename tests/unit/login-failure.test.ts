// /login/{failure}/{message} (spec 1 §2; issue 9 §3.13): known codes translated, other text shown as plain
// text, cleaned and capped; a malformed escape is no page.
import { describe, expect, it } from "vitest";
import { hasMalformedEscape, loginFailure, LOGIN_FAILURE_MAX_CHARS } from "../../server/auth/login";

describe("loginFailure", () => {
  it("translates known failure codes", () => {
    expect(loginFailure("oauth-failure")).toEqual({ key: "auth:login.failures.oauth-failure" });
  });
  it("shows any other message, without control or bidi characters, at most 200 characters", () => {
    expect(loginFailure("The provider said: no")).toEqual({ message: "The provider said: no" });
    expect(loginFailure("a\u0000b\u202Ec\u001B\nd")).toEqual({ message: "a b c d" });
    const long = loginFailure("é".repeat(500)) as { message: string };
    expect([...long.message]).toHaveLength(LOGIN_FAILURE_MAX_CHARS);
    expect(long.message.endsWith("…")).toBe(true);
    expect(loginFailure("\u0007 \u200B")).toEqual({ key: "auth:login.failures.generic" });
  });
  it("tells a malformed percent-escape", () => {
    expect(hasMalformedEscape("/en/login/failure/%E0%A4%A")).toBe(true);
    expect(hasMalformedEscape("/en/login/failure/100%25%20sure")).toBe(false);
  });
});
