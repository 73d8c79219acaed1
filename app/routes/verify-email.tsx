import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireLang } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import { checkVerificationLink, verifyEmail } from "#server/accounts/email-verification";

export const handle = { i18n: ["auth"] };
export const meta = titleMeta;

const linkOf = (params: LoaderFunctionArgs["params"]) => ({
  identity: params.identity ?? "",
  expires: params.expires ?? "",
  signature: params.signature ?? "",
});

// verify-email/{identity}/{expires}/{signature}: the link of the verification mail (ADR 026). Opening it changes
// nothing (a mail scanner follows links); the button's POST confirms the address.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  requireLang(request);
  const t = await getFixedT(request, "auth");
  return { title: t("verifyEmail.title"), valid: await checkVerificationLink(context.app, linkOf(params)) };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  requireLang(request);
  const r = await verifyEmail(context.app, linkOf(params));
  return Response.json({ verified: r.ok }, { status: r.ok ? 200 : 400 });
}

export default function VerifyEmail() {
  const { valid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation("auth");
  const lang = useLang();
  if (result?.verified) {
    return (
      <div className="auth-card">
        <h1>{t("verifyEmail.title")}</h1>
        <p className="alert alert-success" role="status">
          {t("verifyEmail.done")}
        </p>
        <p>
          <Link className="button" to={paths.login(lang)}>
            {t("verifyEmail.continue")}
          </Link>
        </p>
      </div>
    );
  }
  if (!valid || result) {
    return (
      <div className="auth-card">
        <h1>{t("verifyEmail.title")}</h1>
        <p className="alert alert-danger" role="alert">
          {t("verifyEmail.invalid")}
        </p>
      </div>
    );
  }
  return (
    <div className="auth-card">
      <h1>{t("verifyEmail.title")}</h1>
      <p>{t("verifyEmail.intro")}</p>
      <Form method="post">
        <button type="submit" className="button button-primary">
          {t("verifyEmail.submit")}
        </button>
      </Form>
    </div>
  );
}
