import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { redirect, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getFormProps, useForm } from "@conform-to/react";
import { Trans, useTranslation } from "#app/lib/translate";
import { loginSchema, type LoginFields } from "#common/auth/schemas";
import { useClientValidation } from "#app/lib/client-validation";
import { TextField, FormErrors, SubmitButton } from "#app/components/form";
import { getCurrentSession, homeDirectory, requireLang, resolveRedirect } from "#app/lib/session.server";
import { allowedRedirectHosts, signedInRedirect } from "#app/lib/sign-in.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { signIn } from "#server/auth/sign-in";
import { hasMalformedEscape, loginFailure } from "#server/auth/login";
import { parseForm } from "#app/lib/forms.server";
import { pageScope } from "#app/lib/scope.server";
import { paths } from "#common/paths";
import { useLang } from "#app/lib/use-lang";
import { SocialButtons } from "#app/components/SocialButtons";
import { WechatLogin } from "#app/components/WechatLogin";
import { providersForPage } from "#server/auth/social";
import { wechatAvailable } from "#server/auth/wechat";
import { localizationForHost } from "#server/config";

export const handle = { i18n: ["auth", "wechat", "social"] };
export const meta = titleMeta;

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
  // The router hands a segment on undecoded when its escapes are malformed: no such page.
  if (hasMalformedEscape(url.pathname)) throw new Response("Not Found", { status: 404 });
  const failure = params.failure ? loginFailure(params.message ?? params.failure) : null;
  const localization = localizationForHost(snapshot.localizations, request.headers.get("host"));
  const providers = await providersForPage(context.app, {
    lang,
    localization: localization.identity,
    redirect: url.searchParams.get("redirect"),
    origin: url.searchParams.get("origin"),
  });
  return {
    providers,
    // Offered only with a configured provider (WECHAT_MODE) and the wechat_sso flag on (ADR 024).
    wechatEnabled: await wechatAvailable(context.app),
    title: t(snapshot.flags.new_login ? "login.newTitle" : "login.title"),
    localAuthEnabled: Boolean(snapshot.config.localAuthEnabled),
    newLogin: snapshot.flags.new_login,
    failure,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const scope = await pageScope(request, context);
  const submission = await parseForm<LoginFields>(request, loginSchema);
  if (submission.status !== "success") return Response.json(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const { email, password, redirect: target } = submission.value;
  // The same sign-in as POST /api/auth/login: a new session, and the browser's anonymous work claimed.
  const result = await signIn(scope, { email, password });
  if (!result.ok) {
    const tooMany = result.error === "too-many-attempts";
    const key = tooMany
      ? "auth:login.errors.tooManyAttempts"
      : result.error === "local-auth-disabled"
        ? "auth:login.errors.localAuthDisabled"
        : "auth:login.errors.invalidCredentials";
    const headers: HeadersInit = tooMany ? { "Retry-After": String(result.details?.retryAfterSeconds) } : {};
    return Response.json(submission.reply({ formErrors: [key], hideFields: ["password"] }), { status: tooMany ? 429 : 400, headers });
  }
  return signedInRedirect(context, { token: result.value.token, lang: scope.lang, target });
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
  // Where the visitor was going travels on to registration and the forgot-password page.
  const carried = { redirect: searchParams.get("redirect") || undefined, origin: searchParams.get("origin") || undefined };
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";

  return (
    <div className="auth-card">
      <h1>{t(newLogin ? "login.newTitle" : "login.title")}</h1>
      {failure ? (
        "key" in failure ? (
          <FormErrors errors={[failure.key]} />
        ) : (
          <div className="alert alert-danger" role="alert">
            {t("login.failures.withMessage", { message: failure.message })}
          </div>
        )
      ) : null}
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
            <Link to={paths.register(lang, carried)}>{t("login.noAccount")}</Link>
          </p>
          <p>
            <Link to={paths.forgotPassword(lang, carried)}>{t("login.cantSignIn")}</Link>
          </p>
          <p className="legal">
            <Trans
              t={t}
              i18nKey="login.legal"
              components={{ terms: <Link to={paths.terms(lang)} />, privacy: <Link to={paths.privacy(lang)} /> }}
            />
          </p>
        </div>
      ) : (
        <div className="auth-links">
          <p>
            <Link to={paths.forgotPassword(lang, carried)}>{t("login.forgot")}</Link>
          </p>
          <p>
            {t("login.noAccountOld")} <Link to={paths.register(lang, carried)}>{t("login.register")}</Link>
          </p>
        </div>
      )}
    </div>
  );
}
