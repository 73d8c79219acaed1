import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "#app/lib/translate";
import * as z from "zod/mini";
import { passwordField } from "#common/auth/schemas";
import { FormErrors, SubmitButton, TextField } from "#app/components/form";
import { homeDirectory, requireLang } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { useClientValidation } from "#app/lib/client-validation";
import { signedInRedirect } from "#app/lib/sign-in.server";
import { checkResetToken, resetPassword } from "#server/auth/password-reset";
import { createSession } from "#server/auth/session";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;

const schema = z.object({ password: passwordField });

// login/reset-password/{hash}/{userIdentity}: set a new password with a one-time link.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requireLang(request);
  const t = await getFixedT(request, "auth");
  const valid = await checkResetToken(context.app, params.hash ?? "", params.userIdentity ?? "");
  return { title: t("reset.title"), valid };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const lang = requireLang(request);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return Response.json(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const r = await resetPassword(context.app, {
    token: params.hash ?? "",
    userIdentity: params.userIdentity ?? "",
    password: submission.value.password,
  });
  if (!r.ok) return Response.json(submission.reply({ formErrors: ["auth:reset.invalid"], hideFields: ["password"] }), { status: 400 });
  // The link proved control of the mailbox: sign the user in on a fresh session (all others were revoked).
  const token = await createSession(context.app.db, r.userId, { ip: context.ip, userAgent: request.headers.get("user-agent") });
  return signedInRedirect(context, { token, lang, target: `${homeDirectory(lang)}?passwordReset=1` });
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
          <Link className="button" to={`/${lang}/login/forgot-password`}>
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
        <FormErrors errors={form.errors} />
        <TextField
          meta={fields.password}
          type="password"
          label={t("reset.newPassword")}
          autoComplete="new-password"
          hint={t("register.passwordHint")}
          required
        />
        <SubmitButton busy={navigation.state === "submitting"} busyText={t("reset.processing")}>
          {t("reset.submit")}
        </SubmitButton>
      </Form>
    </div>
  );
}
