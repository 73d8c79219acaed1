import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getFormProps, useForm } from "@conform-to/react";
import { useTranslation } from "#app/lib/translate";
import { emailOnlySchema, type EmailFields } from "#common/auth/schemas";
import { useClientValidation } from "#app/lib/client-validation";
import { FormErrors, SubmitButton, TextField } from "#app/components/form";
import { requireLang } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { requestPasswordReset } from "#server/auth/password-reset";
import { parseForm } from "#app/lib/forms.server";
import { paths } from "#common/paths";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireLang(request);
  const t = await getFixedT(request, "auth");
  return { title: t("forgot.title"), newLogin: await context.app.config.flag("new_login") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const lang = requireLang(request);
  const submission = await parseForm<EmailFields>(request, emailOnlySchema);
  if (submission.status !== "success") return Response.json({ result: submission.reply(), sent: false }, { status: 400 });
  const outcome = await requestPasswordReset(context.app, {
    email: submission.value.email,
    lang,
    ip: context.ip,
  });
  if (outcome === "rate-limited") {
    return Response.json({ result: submission.reply({ formErrors: ["auth:errors.tooManyRequests"] }), sent: false }, { status: 429 });
  }
  // The answer is the same whether or not the address is registered.
  return Response.json({ result: submission.reply({ resetForm: true }), sent: true });
}

export default function ForgotPassword() {
  const { newLogin } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const { t } = useTranslation("auth");
  const lang = useLang();
  const [form, fields] = useForm<EmailFields>({
    lastResult: data?.result,
    onValidate: useClientValidation("email"),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  // The query (where the visitor was going) travels on to the sign-in and register links.
  const carried = Object.fromEntries(searchParams);
  const busy = navigation.state === "submitting";

  if (data?.sent) {
    return (
      <div className="auth-card">
        <h1>{t("forgot.title")}</h1>
        <p className="alert alert-success" role="status">
          {t("forgot.success")}
        </p>
        {newLogin ? (
          <p>
            <Link className="button" to={paths.login(lang, carried)}>
              {t("forgot.goBackToSignIn")}
            </Link>
          </p>
        ) : (
          <p className="auth-links">
            <Link to={paths.login(lang, carried)}>{t("forgot.signIn")}</Link> ·{" "}
            <Link to={paths.register(lang, carried)}>{t("forgot.register")}</Link>
          </p>
        )}
      </div>
    );
  }
  return (
    <div className="auth-card">
      {newLogin ? (
        <p>
          <Link to={paths.login(lang, carried)}>← {t("forgot.backToSignIn")}</Link>
        </p>
      ) : null}
      <h1>{t(newLogin ? "forgot.newTitle" : "forgot.title")}</h1>
      <p>{t("forgot.body")}</p>
      <Form method="post" {...getFormProps(form)} className="stack">
        <FormErrors errors={form.errors} id={form.errorId} />
        <TextField meta={fields.email} type="email" label={t("login.email")} autoComplete="email" required />
        <SubmitButton busy={busy} busyText={t("forgot.processing")}>
          {t("forgot.submit")}
        </SubmitButton>
      </Form>
    </div>
  );
}
