// /{lang}/login/wechat/confirm/{loginCode}: the SANDBOX stand-in for scanning the QR code with the
// WeChat app (ADR 004). A visitor signed in to the portal here (the "phone") confirms or cancels
// with a POST; the browser that shows the QR code is then signed in as that visitor. Opening the
// page while signed in counts as the scan (like WeChat's "scanned" event: it only moves a pending
// session to scanned, so the other browser can say "confirm on your phone").
import { data, type HeadersFunction, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import type { ReactNode } from "react";
import { getCurrentSession, requireLang, requireUser } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { WechatErrorIcon, WechatSandboxNotice } from "#app/components/WechatLogin";
import { parseForm } from "#app/lib/forms.server";
import { wechatConfirmSchema, type WechatConfirmFields } from "#common/auth/schemas";
import { paths } from "#common/paths";
import {
  cancelWechatSession,
  confirmWechatSession,
  scanWechatSession,
  wechatProvider,
  wechatSessionForConfirmation,
} from "#server/auth/wechat";

export const handle = { i18n: ["auth", "wechat"] };
/** The loader's Cache-Control (no-store: QR codes and confirmations must never be cached) reaches the document. */
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const h = new Headers();
  const cc = actionHeaders.get("Cache-Control") ?? loaderHeaders.get("Cache-Control");
  if (cc) h.set("Cache-Control", cc);
  const robots = loaderHeaders.get("X-Robots-Tag");
  if (robots) h.set("X-Robots-Tag", robots);
  return h;
};

export const meta = titleMeta;

const NO_STORE = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const lang = requireLang(request);
  if (!(await context.app.config.flag("wechat_sso"))) throw new Response("Not Found", { status: 404 });
  const t = await getFixedT(request, "wechat");
  const url = new URL(request.url);
  const common = { title: t("confirm.title"), sandbox: wechatProvider(context.app).sandbox };
  const session = await getCurrentSession(request, context);
  if (!session) {
    return data({ ...common, state: "sign-in" as const, signInHref: paths.login(lang, { redirect: url.pathname }) }, { headers: NO_STORE });
  }
  const loginCode = params.loginCode ?? "";
  const qr = await wechatSessionForConfirmation(context.app, loginCode);
  if (!qr || (qr.status !== "pending" && qr.status !== "scanned")) {
    return data({ ...common, state: "unavailable" as const }, { status: qr ? 410 : 404, headers: NO_STORE });
  }
  await scanWechatSession(context.app, loginCode);
  return data(
    {
      ...common,
      state: "confirm" as const,
      name: `${session.user.firstName} ${session.user.lastName}`.trim(),
      requestIp: qr.ip ?? "",
      requestDevice: (qr.userAgent ?? "").slice(0, 160),
    },
    { headers: NO_STORE },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireLang(request);
  if (!(await context.app.config.flag("wechat_sso"))) throw new Response("Not Found", { status: 404 });
  const session = await requireUser(request, context);
  const submission = await parseForm<WechatConfirmFields>(request, wechatConfirmSchema);
  if (submission.status !== "success") return data({ done: "failed" as const }, { status: 400 });
  const loginCode = params.loginCode ?? "";
  if (submission.value.intent === "cancel") {
    const r = await cancelWechatSession(context.app, loginCode);
    return data({ done: r.ok ? ("cancelled" as const) : ("failed" as const) }, { status: r.ok ? 200 : 409 });
  }
  const r = await confirmWechatSession(context.app, loginCode, session.user.id);
  if (r.ok) context.logger.info({ userId: session.user.id }, "wechat sandbox sign-in confirmed");
  return data({ done: r.ok ? ("confirmed" as const) : ("failed" as const) }, { status: r.ok ? 200 : 409 });
}

type PageData = { title: string; sandbox: boolean } & (
  | { state: "sign-in"; signInHref: string }
  | { state: "unavailable" }
  | { state: "confirm"; name: string; requestIp: string; requestDevice: string }
);

export default function WechatConfirm() {
  // data() wraps statuses and headers; the payload is what the component gets (single fetch).
  const d = useLoaderData() as PageData;
  const result = useActionData() as { done: "confirmed" | "cancelled" | "failed" } | undefined;
  const navigation = useNavigation();
  const { t } = useTranslation("wechat");
  const lang = useLang();
  const busy = navigation.state === "submitting";

  let body: ReactNode;
  if (result?.done === "confirmed") {
    body = (
      <p className="alert alert-success" role="status">
        {t("confirm.confirmed")}
      </p>
    );
  } else if (result?.done === "cancelled") {
    body = (
      <p className="alert alert-info" role="status">
        {t("confirm.cancelled")}
      </p>
    );
  } else if (result?.done === "failed" || d.state === "unavailable") {
    body = (
      <div className="alert alert-danger wechat-error" role="alert">
        <WechatErrorIcon /> {t("confirm.unavailable")}
      </div>
    );
  } else if (d.state === "sign-in") {
    body = (
      <>
        <p>{t("confirm.signInFirst")}</p>
        <p>
          <Link className="button button-primary" to={d.signInHref}>
            {t("confirm.signIn")}
          </Link>
        </p>
      </>
    );
  } else {
    body = (
      <>
        <p className="wechat-confirm-question">{t("confirm.question", { name: d.name })}</p>
        <p className="alert alert-warning">{t("confirm.warning")}</p>
        {d.requestIp || d.requestDevice ? (
          <dl className="wechat-confirm-details">
            {d.requestIp ? (
              <>
                <dt>{t("confirm.requestAddress")}</dt>
                <dd>{d.requestIp}</dd>
              </>
            ) : null}
            {d.requestDevice ? (
              <>
                <dt>{t("confirm.requestDevice")}</dt>
                <dd>{d.requestDevice}</dd>
              </>
            ) : null}
          </dl>
        ) : null}
        <Form method="post" className="actions">
          <button type="submit" name="intent" value="confirm" className="button button-primary" disabled={busy}>
            {t("confirm.submit")}
          </button>
          <button type="submit" name="intent" value="cancel" className="button" disabled={busy}>
            {t("confirm.cancel")}
          </button>
        </Form>
      </>
    );
  }

  return (
    <div className="auth-card wechat-confirm">
      <h1>{t("confirm.title")}</h1>
      {d.sandbox ? <WechatSandboxNotice phone /> : null}
      {body}
      <p className="auth-links">
        <Link to={paths.researcher(lang)}>{t("confirm.home")}</Link>
      </p>
    </div>
  );
}
