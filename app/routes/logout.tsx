import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { readCookie, requireLang } from "~/lib/session.server";
import { getFixedT } from "~/i18n.server";
import { titleMeta } from "~/lib/meta";
import { clearedSessionCookie, revokeSession, SESSION_COOKIE } from "../../server/auth/session";

export const meta = titleMeta;

// GET shows a confirmation (no state change on GET); POST signs out.
export async function loader({ request }: LoaderFunctionArgs) {
  requireLang(request);
  const t = await getFixedT(request);
  return { title: t("logout.title") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const lang = requireLang(request);
  await revokeSession(context.app.db, readCookie(request, SESSION_COOKIE));
  return redirect(`/${lang}/login`, { status: 303, headers: { "Set-Cookie": clearedSessionCookie(context.secure) } });
}

export default function Logout() {
  const { t } = useTranslation();
  return (
    <section className="auth-card">
      <h1>{t("logout.title")}</h1>
      <p>{t("logout.body")}</p>
      <Form method="post">
        <button type="submit" className="button button-primary">
          {t("nav.signOut")}
        </button>
      </Form>
    </section>
  );
}
