// /{lang}/login/wechat/confirm/{loginCode}: the SANDBOX stand-in for scanning the QR code with the
// WeChat app (ADR 004, ADR 024). A visitor signed in to the portal here (the "phone") types the short
// code shown beside the QR image: that POST is the scan (like WeChat's "scanned" event) and shows
// whom the other device would be signed in as; a second POST with the code confirms or cancels.
// The GET changes nothing: a link to this page alone, sent to someone signed in, does nothing.
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
import { personName } from "#common/names";
import { paths } from "#common/paths";
import {
  cancelWechatSession,
  confirmWechatSession,
  scanWechatSession,
  wechatAvailable,
  wechatPhoneStatus,
  wechatProvider,
  wechatSessionForConfirmation,
  type WechatPhoneOutcome,
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
  if (!(await wechatAvailable(context.app))) throw new Response("Not Found", { status: 404 });
  const t = await getFixedT(request, "wechat");
  const url = new URL(request.url);
  const common = { title: t("confirm.title"), sandbox: wechatProvider(context.app)?.sandbox ?? false };
  const session = await getCurrentSession(request, context);
  if (!session) {
    return data({ ...common, state: "sign-in" as const, signInHref: paths.login(lang, { redirect: url.pathname }) }, { headers: NO_STORE });
  }
  const qr = await wechatSessionForConfirmation(context.app, params.loginCode ?? "");
  if (!qr || (qr.status !== "pending" && qr.status !== "scanned")) {
    return data({ ...common, state: "unavailable" as const }, { status: qr ? 410 : 404, headers: NO_STORE });
  }
  // Only a form asking for the code: reading the page is not the scan.
  return data({ ...common, state: "code" as const }, { headers: NO_STORE });
}

type ActionResult =
  | { step: "code"; errorKey: string }
  | { step: "question"; code: string; name: string; requestIp: string; requestDevice: string }
  | { step: "done"; done: "confirmed" | "cancelled" | "failed" };

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireLang(request);
  if (!(await wechatAvailable(context.app))) throw new Response("Not Found", { status: 404 });
  const session = await requireUser(request, context);
  const submission = await parseForm<WechatConfirmFields>(request, wechatConfirmSchema);
  if (submission.status !== "success")
    return data<ActionResult>({ step: "code", errorKey: "confirm.codeRequired" }, { status: 400, headers: NO_STORE });
  const loginCode = params.loginCode ?? "";
  const { intent, code } = submission.value;
  let outcome: WechatPhoneOutcome;
  if (intent === "scan") outcome = await scanWechatSession(context.app, loginCode, code);
  else if (intent === "cancel") outcome = await cancelWechatSession(context.app, loginCode, code);
  else outcome = await confirmWechatSession(context.app, loginCode, session.user.id, code);
  const status = wechatPhoneStatus(outcome);
  if (!outcome.ok && outcome.error === "wrong-code")
    return data<ActionResult>({ step: "code", errorKey: "confirm.wrongCode" }, { status, headers: NO_STORE });
  if (!outcome.ok) return data<ActionResult>({ step: "done", done: "failed" }, { status, headers: NO_STORE });
  if (intent === "scan") {
    const qr = await wechatSessionForConfirmation(context.app, loginCode);
    return data<ActionResult>(
      {
        step: "question",
        code,
        name: personName(session.user.firstName, session.user.lastName),
        requestIp: qr?.ip ?? "",
        requestDevice: (qr?.userAgent ?? "").slice(0, 160),
      },
      // An explicit status: without one the page's loader status would decide the document's.
      { status: 200, headers: NO_STORE },
    );
  }
  if (intent === "confirm") context.logger.info({ userId: session.user.id }, "wechat sandbox sign-in confirmed");
  return data<ActionResult>({ step: "done", done: intent === "confirm" ? "confirmed" : "cancelled" }, { status: 200, headers: NO_STORE });
}

type PageData = { title: string; sandbox: boolean } & (
  { state: "sign-in"; signInHref: string } | { state: "unavailable" } | { state: "code" }
);

export default function WechatConfirm() {
  // data() wraps statuses and headers; the payload is what the component gets (single fetch).
  const d = useLoaderData() as PageData;
  const result = useActionData() as ActionResult | undefined;
  const navigation = useNavigation();
  const { t } = useTranslation("wechat");
  const lang = useLang();
  const busy = navigation.state === "submitting";

  let body: ReactNode;
  if (result?.step === "done" && result.done === "confirmed") {
    body = (
      <p className="alert alert-success" role="status">
        {t("confirm.confirmed")}
      </p>
    );
  } else if (result?.step === "done" && result.done === "cancelled") {
    body = (
      <p className="alert alert-info" role="status">
        {t("confirm.cancelled")}
      </p>
    );
  } else if (result?.step === "done" || d.state === "unavailable") {
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
  } else if (result?.step === "question") {
    body = (
      <>
        <p className="wechat-confirm-question">{t("confirm.question", { name: result.name })}</p>
        <p className="alert alert-warning">{t("confirm.warning")}</p>
        {result.requestIp || result.requestDevice ? (
          <dl className="wechat-confirm-details">
            {result.requestIp ? (
              <>
                <dt>{t("confirm.requestAddress")}</dt>
                <dd>{result.requestIp}</dd>
              </>
            ) : null}
            {result.requestDevice ? (
              <>
                <dt>{t("confirm.requestDevice")}</dt>
                <dd>{result.requestDevice}</dd>
              </>
            ) : null}
          </dl>
        ) : null}
        <Form method="post" className="actions">
          <input type="hidden" name="code" value={result.code} />
          <button type="submit" name="intent" value="confirm" className="button button-primary" disabled={busy}>
            {t("confirm.submit")}
          </button>
          <button type="submit" name="intent" value="cancel" className="button" disabled={busy}>
            {t("confirm.cancel")}
          </button>
        </Form>
      </>
    );
  } else {
    const error = result?.step === "code" ? t(result.errorKey) : null;
    body = (
      <>
        <p className="alert alert-warning">{t("confirm.codeWarning")}</p>
        <Form method="post" className="stack">
          {error ? (
            <p className="alert alert-danger" role="alert" id="wechat-code-error">
              {error}
            </p>
          ) : null}
          <div className="field">
            <label htmlFor="wechat-code">{t("confirm.codeLabel")}</label>
            <input
              id="wechat-code"
              name="code"
              type="text"
              inputMode="text"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={32}
              required
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "wechat-code-error" : undefined}
            />
          </div>
          <div className="actions">
            <button type="submit" name="intent" value="scan" className="button button-primary" disabled={busy}>
              {t("confirm.continue")}
            </button>
            <button type="submit" name="intent" value="cancel" className="button" disabled={busy}>
              {t("confirm.cancel")}
            </button>
          </div>
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
