// The cookies of a sign-in come from the one cookies module, in the attribute order the portal has always
// sent, Secure exactly when the request came over HTTPS (issue 8: the API's lang cookie lacked Secure).
import { describe, expect, it } from "vitest";
import { cookies, serializeCookie } from "#server/http/cookies";
import { signedInCookies } from "#server/auth/http";

describe("sign-in cookies", () => {
  it("session and language cookies, Secure only over HTTPS", () => {
    expect(signedInCookies("tok", "cn", true)).toEqual([
      "sid=tok; Path=/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure",
      "lang=cn; Path=/; SameSite=Lax; Max-Age=31536000; Secure",
    ]);
    expect(signedInCookies("tok", "en", false).some((c) => c.includes("Secure"))).toBe(false);
  });
  it("clears with Max-Age=0 and the same attributes", () => {
    expect(cookies.wechatBinding.clear(false)).toBe("wechat_bind=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    expect(serializeCookie("opa_flow_x", "", { path: "/api/auth/opa", httpOnly: true, maxAge: 0, secure: true })).toBe(
      "opa_flow_x=; Path=/api/auth/opa; HttpOnly; SameSite=Lax; Max-Age=0; Secure",
    );
  });
});
