// GET /api/auth/wechat-login/{loginCode} (spec 1 §7): the status of this browser's WeChat QR
// sign-in, polled every 2 s at most 30 times. Waiting: { loggedIn: false, status }. Confirmed on
// the phone: the portal session is created here, in the browser that started the QR session
// (its binding cookie must match), and { loggedIn: true, redirectUri, user } is answered once.
// Errors: { error, errorCode } with 404 (unknown or not this browser's), 410 (expired, cancelled,
// used), 403 (inactive account) or 429 (rate limit).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getFixedT } from "#app/i18n.server";
import { LANG_COOKIE, isSiteLang, DEFAULT_LANG } from "#common/i18n";
import { homeDirectory, readCookie, resolveRedirect } from "#app/lib/session.server";
import { allowedRedirectHosts, claimAnonymousWork } from "#app/lib/sign-in.server";
import { sessionCookie } from "#server/auth/session";
import { WECHAT_BIND_COOKIE, clearedWechatBindingCookie, pollWechatSignIn, wechatErrorKey, wechatErrorStatus } from "#server/auth/wechat";

export const handle = { i18n: ["auth", "wechat"] };

const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  if (!(await context.app.config.flag("wechat_sso")))
    return Response.json({ error: "not-found", errorCode: "not-found" }, { status: 404, headers: NO_STORE });
  const result = await pollWechatSignIn(context.app, {
    loginCode: params.loginCode ?? "",
    secret: readCookie(request, WECHAT_BIND_COOKIE),
    ip: context.ip,
    userAgent: request.headers.get("user-agent"),
  });
  if (result.kind === "waiting") return Response.json({ loggedIn: false, status: result.status }, { headers: NO_STORE });
  if (result.kind === "error") {
    const t = await getFixedT(request, "wechat");
    const headers: Record<string, string> = { ...NO_STORE };
    if (result.retryAfterSeconds) headers["Retry-After"] = String(result.retryAfterSeconds);
    return Response.json(
      { error: t(wechatErrorKey(result.error)), errorCode: result.error },
      { status: wechatErrorStatus(result.error), headers },
    );
  }
  const lang = isSiteLang(result.lang) ? result.lang : DEFAULT_LANG;
  const { url } = resolveRedirect(result.redirect, homeDirectory(lang), await allowedRedirectHosts(context));
  await claimAnonymousWork(context, request, result.user.id);
  const headers = new Headers(NO_STORE);
  headers.append("Set-Cookie", sessionCookie(result.token, context.secure));
  headers.append("Set-Cookie", `${LANG_COOKIE}=${lang}; Path=/; Max-Age=31536000; SameSite=Lax${context.secure ? "; Secure" : ""}`);
  headers.append("Set-Cookie", clearedWechatBindingCookie(context.secure));
  return Response.json(
    {
      loggedIn: true,
      redirectUri: url,
      user: { identity: result.user.identity, firstName: result.user.firstName, lastName: result.user.lastName },
    },
    { headers },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (!(await context.app.config.flag("wechat_sso")))
    return Response.json({ error: "not-found", errorCode: "not-found" }, { status: 404, headers: NO_STORE });
  const t = await getFixedT(request, "wechat");
  return Response.json(
    { error: t("errors.methodNotAllowed"), errorCode: "method-not-allowed" },
    { status: 405, headers: { ...NO_STORE, Allow: "GET" } },
  );
}
