// POST /api/auth/wechat-login (spec 1 §7): starts a WeChat QR sign-in for this browser.
// Body (JSON or form, all optional): redirect, origin, lang.
// Answer: { loginCode, ticket, url, qrCodeUrl, expiresAt, pollIntervalMs, maxPolls, sandbox }, and an
// HttpOnly cookie binding the QR session to this browser (ADR 004). Errors: { error, errorCode }.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { detectLang, getFixedT } from "#app/i18n.server";
import { isSiteLang } from "#common/i18n";
import { WECHAT_MAX_POLLS, WECHAT_POLL_INTERVAL_MS, startWechatSignIn, wechatBindingCookie, wechatErrorKey } from "#server/auth/wechat";

export const handle = { i18n: ["auth", "wechat"] };

const NO_STORE = { "Cache-Control": "no-store" };

async function methodNotAllowed(request: Request) {
  const t = await getFixedT(request, "wechat");
  return Response.json(
    { error: t("errors.methodNotAllowed"), errorCode: "method-not-allowed" },
    { status: 405, headers: { ...NO_STORE, Allow: "POST" } },
  );
}

function notFound() {
  return Response.json({ error: "not-found", errorCode: "not-found" }, { status: 404, headers: NO_STORE });
}

async function readBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.includes("application/json")) {
      const body = await request.json();
      return body && typeof body === "object" ? (body as Record<string, unknown>) : {};
    }
    if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
      return Object.fromEntries(await request.formData());
    }
  } catch {
    /* an unreadable body is an empty one */
  }
  return {};
}

const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!(await context.app.config.flag("wechat_sso"))) return notFound();
  return methodNotAllowed(request);
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (!(await context.app.config.flag("wechat_sso"))) return notFound();
  if (request.method !== "POST") return methodNotAllowed(request);
  const body = await readBody(request);
  const lang = isSiteLang(body.lang) ? body.lang : await detectLang(request);
  const result = await startWechatSignIn(context.app, {
    lang,
    redirect: text(body.redirect),
    origin: text(body.origin),
    ip: context.ip,
    userAgent: request.headers.get("user-agent"),
    baseUrl: new URL(request.url).origin,
  });
  if (!result.ok) {
    const t = await getFixedT(request, "wechat");
    return Response.json(
      { error: t(wechatErrorKey(result.error)), errorCode: result.error },
      { status: 429, headers: { ...NO_STORE, "Retry-After": String(result.retryAfterSeconds) } },
    );
  }
  return Response.json(
    {
      loginCode: result.loginCode,
      ticket: result.ticket,
      url: result.url,
      qrCodeUrl: result.qrCodeUrl,
      expiresAt: result.expiresAt.toISOString(),
      pollIntervalMs: WECHAT_POLL_INTERVAL_MS,
      maxPolls: WECHAT_MAX_POLLS,
      sandbox: result.sandbox,
    },
    { headers: { ...NO_STORE, "Set-Cookie": wechatBindingCookie(result.secret, context.secure) } },
  );
}
