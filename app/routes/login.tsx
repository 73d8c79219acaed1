import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { redirect, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Trans, useTranslation } from "#app/lib/translate";
import { loginSchema, type LoginFields } from "#common/auth/schemas";
import { useClientValidation } from "#app/lib/client-validation";
import { TextField, FormErrors, SubmitButton } from "#app/components/form";
import { getCurrentSession, homeDirectory, requireLang, resolveRedirect } from "#app/lib/session.server";
import { allowedRedirectHosts, signedInRedirect } from "#app/lib/sign-in.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { signInWithPassword } from "#server/auth/login";
import { useLang } from "#app/lib/use-lang";
import { SocialButtons } from "#app/components/SocialButtons";
import { WechatLogin } from "#app/components/WechatLogin";
import { providersForPage } from "#server/auth/social";
import { localizationForHost } from "#server/config";

export const handle = { i18n: ["auth", "wechat", "social"] };
export const meta = titleMeta;

/** Failure messages that may appear in /login/{failure}/{message}; anything else shows a generic text (no content injection). */
const KNOWN_FAILURES = new Set(["oauth-failure", "session-expired", "account-inactive", "wechat-failure", "link-expired"]);

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const lang = requireLang(request);
  const url = new URL(request.url);
  const session = await getCurrentSession(request, context);
  // A signed-in visitor goes to the redirect (also on an allowed external host), or to their home directory.
  if (session) {
    const { url: to, document } = resolveRedirect(
      url.searchParams.get("redirect"),
      homeDirectory(lang),
      await allowedRedirectHosts(context),
    );
    throw document ? redirectDocument(to) : redirect(to);
  }
  const t = await getFixedT(request, "auth");
  const snapshot = await context.app.config.snapshot();
  let failure: string | null = null;
  if (params.failure) {
    let decoded = params.message ?? params.failure;
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      /* keep as is */
    }
    failure = KNOWN_FAILURES.has(decoded) ? `auth:login.failures.${decoded}` : "auth:login.failures.generic";
  }
  const localization = localizationForHost(snapshot.localizations, request.headers.get("host"));
  const providers = await providersForPage(context.app, {
    lang,
    localization: localization.identity,
    redirect: url.searchParams.get("redirect"),
    origin: url.searchParams.get("origin"),
  });
  return {
    providers,
    wechatEnabled: snapshot.flags.wechat_sso,
    title: t(snapshot.flags.new_login ? "login.newTitle" : "login.title"),
    localAuthEnabled: Boolean(snapshot.config.localAuthEnabled),
    newLogin: snapshot.flags.new_login,
    failure,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const lang = requireLang(request);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success") return Response.json(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const { email, password, redirect: target } = submission.value;
  const result = await signInWithPassword(context.app, { email, password, ip: context.ip, userAgent: request.headers.get("user-agent") });
  if (!result.ok) {
    const key =
      result.error === "too-many-attempts"
        ? "auth:login.errors.tooManyAttempts"
        : result.error === "local-auth-disabled"
          ? "auth:login.errors.localAuthDisabled"
          : "auth:login.errors.invalidCredentials";
    const status = result.error === "too-many-attempts" ? 429 : 400;
    const headers: HeadersInit = result.error === "too-many-attempts" ? { "Retry-After": String(result.retryAfterSeconds) } : {};
    return Response.json(submission.reply({ formErrors: [key], hideFields: ["password"] }), { status, headers });
  }
  return signedInRedirect(context, { token: result.token, lang, target, claim: { request, userId: result.user.id } });
}

export default function Login() {
  const { localAuthEnabled, newLogin, failure, providers, wechatEnabled } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const { t } = useTranslation("auth");
  const lang = useLang();
  const [form, fields] = useForm<LoginFields>({
    lastResult,
    onValidate: useClientValidation("login"),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const keep = new URLSearchParams();
  for (const k of ["redirect", "origin"]) {
    const v = searchParams.get(k);
    if (v) keep.set(k, v);
  }
  const carried = keep.toString() ? `?${keep}` : "";
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";

  return (
    <div className="auth-card">
      <h1>{t(newLogin ? "login.newTitle" : "login.title")}</h1>
      {failure ? <FormErrors errors={[failure]} /> : null}
      {localAuthEnabled ? (
        <Form method="post" {...getFormProps(form)} className="stack">
          <FormErrors errors={form.errors} id={form.errorId} />
          <input type="hidden" name="redirect" value={searchParams.get("redirect") ?? ""} />
          <input type="hidden" name="origin" value={searchParams.get("origin") ?? ""} />
          <TextField meta={fields.email} type="email" label={t("login.email")} autoComplete="email" required />
          <TextField meta={fields.password} type="password" label={t("login.password")} autoComplete="current-password" required />
          <SubmitButton busy={busy} busyText={t("login.processing")}>
            {t("login.submit")}
          </SubmitButton>
        </Form>
      ) : (
        <p className="alert alert-info">{t("login.localAuthUnavailable")}</p>
      )}
      <SocialButtons providers={providers} />
      {wechatEnabled ? <WechatLogin redirect={searchParams.get("redirect")} origin={searchParams.get("origin")} /> : null}
      {newLogin ? (
        <div className="auth-links">
          <p>
            <Link to={`/${lang}/register${carried}`}>{t("login.noAccount")}</Link>
          </p>
          <p>
            <Link to={`/${lang}/login/forgot-password${carried}`}>{t("login.cantSignIn")}</Link>
          </p>
          <p className="legal">
            <Trans
              t={t}
              i18nKey="login.legal"
              components={{ terms: <Link to={`/${lang}/terms`} />, privacy: <Link to={`/${lang}/privacy`} /> }}
            />
          </p>
        </div>
      ) : (
        <div className="auth-links">
          <p>
            <Link to={`/${lang}/login/forgot-password${carried}`}>{t("login.forgot")}</Link>
          </p>
          <p>
            {t("login.noAccountOld")} <Link to={`/${lang}/register${carried}`}>{t("login.register")}</Link>
          </p>
        </div>
      )}
    </div>
  );
}
