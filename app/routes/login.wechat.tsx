// /{lang}/login/wechat: WeChat QR sign-in without JavaScript (spec 1 §2, §4; ADR 004).
// POST starts a QR session for this browser and redirects to ?code=…; the page then shows the
// QR image and reloads itself every 2 s (<meta http-equiv="refresh"> from the `meta` export),
// at most 30 times, until the phone confirms, the code expires or the budget is used up.
import {
  data,
  type HeadersFunction,
  redirect,
  redirectDocument,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useEffect, useState } from "react";
import { getCurrentSession, homeDirectory, requireLang, resolveRedirect } from "#app/lib/session.server";
import { cookies } from "#server/http/cookies";
import { paths } from "#common/paths";
import { wechatStartSchema, type WechatStartFields } from "#common/auth/schemas";
import { parseForm } from "#app/lib/forms.server";
import { allowedRedirectHosts, signedInRedirect } from "#app/lib/sign-in.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { WechatConfirmCode, WechatErrorIcon, WechatSandboxNotice, useWechatPolling } from "#app/components/WechatLogin";
import {
  WECHAT_MAX_POLLS,
  pollWechatSignIn,
  qrCodeDataUrl,
  sandboxConfirmPath,
  startWechatSignIn,
  wechatAvailable,
  wechatErrorKey,
  wechatErrorStatus,
  wechatProvider,
} from "#server/auth/wechat";

export const handle = { i18n: ["auth", "wechat"] };

/** Spec 1 §9: at most 30 polls (see REFRESH_SECONDS). */
const MAX_POLLS = 30;
/** Spec 1 §9: every 2 s (a literal, not imported: `meta` runs in the browser too, where server modules may not go). */
const REFRESH_SECONDS = 2;

/** The loader's Cache-Control (no-store: QR codes and confirmations must never be cached) reaches the document. */
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const h = new Headers();
  const cc = actionHeaders.get("Cache-Control") ?? loaderHeaders.get("Cache-Control");
  if (cc) h.set("Cache-Control", cc);
  const robots = loaderHeaders.get("X-Robots-Tag");
  if (robots) h.set("X-Robots-Tag", robots);
  return h;
};

export const meta: MetaFunction<typeof loader> = (args) => {
  const base = titleMeta(args as Parameters<typeof titleMeta>[0]);
  const d = args.data as (Partial<PageData> & { refreshUrl?: string }) | undefined;
  // The page reloads itself while it waits for the phone: the no-JavaScript stand-in for polling.
  if (d?.state === "waiting" && d.refreshUrl)
    return [...base, { httpEquiv: "refresh", content: `${REFRESH_SECONDS}; url=${d.refreshUrl}` }];
  return base;
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const lang = requireLang(request);
  if (!(await wechatAvailable(context.app))) throw new Response("Not Found", { status: 404 });
  const url = new URL(request.url);
  const redirectTo = url.searchParams.get("redirect");
  const origin = url.searchParams.get("origin");
  const code = url.searchParams.get("code");
  const t = await getFixedT(request, "wechat");
  const common = { title: t("title"), redirect: redirectTo, origin, sandbox: wechatProvider(context.app)?.sandbox ?? false };

  if (!code) {
    // Already signed in: nothing to do here; go where the sign-in page would send you.
    if (await getCurrentSession(request, context)) {
      const { url: to, document } = resolveRedirect(redirectTo, homeDirectory(lang), await allowedRedirectHosts(context));
      throw document ? redirectDocument(to) : redirect(to);
    }
    return { ...common, state: "idle" as const };
  }

  const n = Math.max(0, Math.min(WECHAT_MAX_POLLS, Number.parseInt(url.searchParams.get("n") ?? "0", 10) || 0));
  const result = await pollWechatSignIn(context.app, {
    loginCode: code,
    secret: cookies.wechatBinding.read(request),
    ip: context.ip,
    userAgent: request.headers.get("user-agent"),
  });
  if (result.kind === "signed-in") {
    // A GET that completes a sign-in: acceptable here because this browser itself started it with a
    // POST (its HttpOnly binding cookie must match the QR session) and the phone confirmed it with a
    // POST; the GET only picks up that result, once (the QR session is consumed). Without JavaScript
    // a self-refreshing page can only issue GETs, so this is the one place the pick-up can happen.
    throw await signedInRedirect(context, {
      token: result.token,
      lang,
      target: result.redirect,
      claim: { request, userId: result.user.id },
      extraCookies: [cookies.wechatBinding.clear(context.secure)],
    });
  }
  if (result.kind === "error") {
    return data(
      { ...common, state: "error" as const, errorKey: wechatErrorKey(result.error) },
      { status: wechatErrorStatus(result.error), headers: { "Cache-Control": "no-store" } },
    );
  }
  // The client's budget (spec 1 §9: 30 polls) applies to reloads too.
  if (n >= WECHAT_MAX_POLLS) {
    return data({ ...common, state: "error" as const, errorKey: wechatErrorKey("expired") }, { headers: { "Cache-Control": "no-store" } });
  }
  const confirmPath = sandboxConfirmPath(result.session.lang, result.session.loginCode);
  const baseUrl = context.app.env.PUBLIC_URL ?? url.origin;
  return data(
    {
      ...common,
      state: "waiting" as const,
      status: result.status,
      loginCode: code,
      confirmCode: result.confirmCode,
      polls: n,
      qrCodeUrl: await qrCodeDataUrl(`${baseUrl}${confirmPath}`),
      confirmPath,
      refreshUrl: paths.wechatLogin(lang, { code, n: n + 1, redirect: redirectTo, origin }),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const lang = requireLang(request);
  if (!(await wechatAvailable(context.app))) throw new Response("Not Found", { status: 404 });
  // Every field is optional (the schema ignores what is not text), so the submission always parses.
  const submission = await parseForm<WechatStartFields>(request, wechatStartSchema);
  const fields = submission.status === "success" ? submission.value : {};
  const redirectTo = fields.redirect || null;
  const origin = fields.origin || null;
  const result = await startWechatSignIn(context.app, {
    lang,
    redirect: redirectTo,
    origin,
    ip: context.ip,
    userAgent: request.headers.get("user-agent"),
    baseUrl: new URL(request.url).origin,
  });
  if (!result.ok) {
    return data({ errorKey: wechatErrorKey(result.error) }, { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } });
  }
  return redirect(paths.wechatLogin(lang, { code: result.loginCode, redirect: redirectTo, origin }), {
    status: 303,
    headers: { "Set-Cookie": cookies.wechatBinding.serialize(result.secret, context.secure) },
  });
}

/** A plain form that (re)starts the QR sign-in: works without JavaScript. */
function StartForm({
  redirectTo,
  origin,
  label,
  primary,
}: {
  redirectTo: string | null;
  origin: string | null;
  label: string;
  primary?: boolean;
}) {
  const lang = useLang();
  return (
    <form method="post" action={paths.wechatLogin(lang)}>
      <input type="hidden" name="redirect" value={redirectTo ?? ""} />
      <input type="hidden" name="origin" value={origin ?? ""} />
      <button type="submit" className={primary ? "button button-primary" : "button"}>
        {label}
      </button>
    </form>
  );
}

type PageData = { title: string; redirect: string | null; origin: string | null; sandbox: boolean } & (
  | { state: "idle" }
  | { state: "error"; errorKey: string }
  | {
      state: "waiting";
      status: "pending" | "scanned";
      loginCode: string;
      confirmCode: string;
      polls: number;
      qrCodeUrl: string;
      confirmPath: string;
      refreshUrl: string;
    }
);

export default function WechatSignInPage() {
  // data() wraps statuses and headers; the payload is what the component gets (single fetch).
  const d = useLoaderData() as PageData;
  const actionData = useActionData() as { errorKey?: string } | undefined;
  const { t } = useTranslation("wechat");
  const lang = useLang();
  const back = paths.login(lang, { redirect: d.redirect, origin: d.origin });
  const waitingCode = d.state === "waiting" ? d.loginCode : null;
  // With JavaScript the page polls with fetch instead of reloading: the pending <meta> refresh is stopped,
  // as it would otherwise still fire after an in-app navigation away from this page.
  const [live, setLive] = useState<string | null>(null);
  useEffect(() => {
    if (!waitingCode) return;
    window.stop();
    setLive(waitingCode);
  }, [waitingCode]);
  const poll = useWechatPolling(
    live && live === waitingCode ? live : null,
    REFRESH_SECONDS * 1000,
    Math.max(1, MAX_POLLS - (d.state === "waiting" ? d.polls : 0)),
  );
  const status = live ? poll.status : d.state === "waiting" ? d.status : "pending";
  const errorKey = actionData?.errorKey ?? (d.state === "error" ? d.errorKey : null);
  const errorText = errorKey ? t(errorKey) : live ? poll.error : null;

  return (
    <div className="auth-card wechat-page">
      <h1>{t("title")}</h1>
      {d.sandbox ? <WechatSandboxNotice /> : null}
      {errorText ? (
        <>
          <div className="alert alert-danger wechat-error" role="alert">
            <WechatErrorIcon /> {errorText}
          </div>
          <StartForm redirectTo={d.redirect} origin={d.origin} label={t("tryAgain")} primary />
        </>
      ) : live && poll.signedIn ? (
        <p role="status">
          <span className="spinner" aria-hidden="true" /> {t("signedIn")}
        </p>
      ) : d.state === "waiting" ? (
        <div className="wechat-qr stack">
          <p>{t("scanPrompt")}</p>
          <img src={d.qrCodeUrl} alt={t("qrAlt")} width={200} height={200} className="wechat-qr-image" />
          <WechatConfirmCode code={d.confirmCode} />
          <p role="status" aria-live="polite">
            <span className="spinner" aria-hidden="true" /> {status === "scanned" ? t("scanned") : t("waiting")}
          </p>
          {d.sandbox ? (
            <p>
              <a href={d.confirmPath} target="_blank" rel="noopener">
                {t("sandbox.openConfirm")}
              </a>
            </p>
          ) : null}
        </div>
      ) : (
        <div className="stack">
          <p>{t("intro")}</p>
          <StartForm redirectTo={d.redirect} origin={d.origin} label={t("start")} primary />
        </div>
      )}
      <p className="auth-links">
        <Link to={back}>← {t("backToSignIn")}</Link>
      </p>
    </div>
  );
}
