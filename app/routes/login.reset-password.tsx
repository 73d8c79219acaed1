import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getFormProps, useForm } from "@conform-to/react";
import { useTranslation } from "#app/lib/translate";
import { resetPasswordSchema } from "#common/auth/schemas";
import { FormErrors, NewPasswordField, SubmitButton } from "#app/components/form";
import { requireLang } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { parseForm } from "#app/lib/forms.server";
import { paths, query } from "#common/paths";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { useClientValidation } from "#app/lib/client-validation";
import { signedInRedirect } from "#app/lib/sign-in.server";
import { checkResetToken } from "#server/auth/password-reset";
import { signInWithResetLink } from "#server/auth/sign-in";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;

// login/reset-password/{hash}/{userIdentity}: set a new password with a one-time link.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requireLang(request);
  const t = await getFixedT(request, "auth");
  const valid = await checkResetToken(context.app, params.hash ?? "", params.userIdentity ?? "");
  return { title: t("reset.title"), valid };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const scope = await pageScope(request, context);
  const submission = await parseForm<{ password: string }>(request, resetPasswordSchema);
  if (submission.status !== "success") return Response.json(submission.reply({ hideFields: ["password"] }), { status: 400 });
  // The link proved control of the mailbox: the user is signed in on a fresh session (all others were revoked).
  const r = await signInWithResetLink(scope, {
    token: params.hash ?? "",
    userIdentity: params.userIdentity ?? "",
    password: submission.value.password,
  });
  if (!r.ok && r.error === "too-many-attempts")
    return Response.json(submission.reply({ formErrors: ["auth:errors.tooManyRequests"], hideFields: ["password"] }), { status: 429 });
  if (!r.ok) return Response.json(submission.reply({ formErrors: ["auth:reset.invalid"], hideFields: ["password"] }), { status: 400 });
  const lang = scope.lang;
  return signedInRedirect(context, { token: r.value.token, lang, target: `${paths.researcher(lang)}${query({ passwordReset: 1 })}` });
}

export default function ResetPassword() {
  const { valid } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation("auth");
  const lang = useLang();
  const [form, fields] = useForm<{ password: string }>({
    lastResult,
    onValidate: useClientValidation("resetPassword"),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  if (!valid) {
    return (
      <div className="auth-card">
        <h1>{t("reset.title")}</h1>
        <p className="alert alert-danger" role="alert">
          {t("reset.invalid")}
        </p>
        <p>
          <Link className="button" to={paths.forgotPassword(lang)}>
            {t("reset.requestNew")}
          </Link>
        </p>
      </div>
    );
  }
  return (
    <div className="auth-card">
      <h1>{t("reset.title")}</h1>
      <Form method="post" {...getFormProps(form)} className="stack">
        <FormErrors errors={form.errors} id={form.errorId} />
        <NewPasswordField meta={fields.password} label={t("reset.newPassword")} />
        <SubmitButton busy={navigation.state === "submitting"} busyText={t("reset.processing")}>
          {t("reset.submit")}
        </SubmitButton>
      </Form>
    </div>
  );
}
