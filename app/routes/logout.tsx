import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { requireLang } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { paths } from "#common/paths";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { signOut } from "#server/auth/sign-in";
import { logoutToken, verifyLogoutToken } from "#server/auth/logout-token";
import { cookies } from "#server/http/cookies";
import { localizationForHost } from "#server/config";
import { otherSiteOrigins } from "#server/accounts/localization";

export const meta = titleMeta;

// GET asks for confirmation (no state change on GET); POST signs out and shows the signed-out page,
// which also signs the visitor out of the other localisations' sites through their logout images.
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireLang(request);
  const t = await getFixedT(request);
  const params = new URL(request.url).searchParams;
  const done = params.get("done") === "1";
  // The token this portal's sign-out made (below): only with it do the other sites' images sign out.
  const token = params.get("t");
  let logoutImages: string[] = [];
  if (done && token && verifyLogoutToken(context.app, token) !== null) {
    const { localizations } = await context.app.config.snapshot();
    const here = localizationForHost(localizations, request.headers.get("host"));
    logoutImages = otherSiteOrigins(localizations, here.identity, new URL(request.url)).map(
      (origin) => `${origin}${paths.api.logoutGif(token)}`,
    );
  }
  return { title: t(done ? "logout.doneTitle" : "logout.title"), done, logoutImages };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const scope = await pageScope(request, context);
  await signOut(scope);
  // A short-lived token naming this user: the signed-out page's images carry it to the other sites (issue 10 §10).
  const t = scope.userId ? logoutToken(context.app, scope.userId) : undefined;
  return redirect(paths.logout(scope.lang, { done: 1, t }), {
    status: 303,
    headers: { "Set-Cookie": cookies.session.clear(scope.secure) },
  });
}

export default function Logout() {
  const { done, logoutImages } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const lang = useLang();
  if (done) {
    return (
      <section className="auth-card">
        <h1>{t("logout.doneTitle")}</h1>
        <p>{t("logout.doneBody")}</p>
        <p>
          <Link className="button button-primary" to={paths.login(lang)}>
            {t("nav.signIn")}
          </Link>
        </p>
        {logoutImages.map((src) => (
          <img key={src} src={src} alt="" width={1} height={1} className="logout-image" />
        ))}
      </section>
    );
  }
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
