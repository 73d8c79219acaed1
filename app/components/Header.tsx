import { Form, Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/lib/translate";
import { useLang } from "~/lib/use-lang";
import { useRootData } from "~/root";
import { LANG_NATIVE_NAME, LANG_TAG, SITE_LANGS, withLang } from "~/lib/i18n";

export function Header() {
  const { t } = useTranslation();
  const root = useRootData();
  const location = useLocation();
  const lang = useLang();
  const here = location.pathname + location.search;
  const user = root?.user;
  const languages = root?.site.siteLanguages?.length ? root.site.siteLanguages : [...SITE_LANGS];
  const onAuthPage = /^\/[a-z]{2}\/(login|register)/.test(location.pathname);
  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        {t("nav.skipToContent")}
      </a>
      <div className="header-inner">
        <Link to={`/${lang}`} className="brand">
          {root?.site.companyShortName ?? t("site.name")}
        </Link>
        <nav aria-label={t("nav.main")} className="main-nav">
          {user ? (
            <>
              <Link to={`/${lang}/researcher`}>{t("nav.myOrders")}</Link>
              <Link to={`/${lang}/researcher/submit/new`}>{t("nav.newOrder")}</Link>
              <Link to={`/${lang}/account`}>{t("nav.account")}</Link>
              {user.isStaff ? <Link to={`/${lang}/staff`}>{t("nav.staff")}</Link> : null}
              <span className="signed-in" title={user.email}>
                {t("nav.signedInAs", { name: `${user.firstName} ${user.lastName}` })}
              </span>
              <Form method="post" action={`/${lang}/logout`} className="inline-form">
                <button type="submit" className="link-button">
                  {t("nav.signOut")}
                </button>
              </Form>
            </>
          ) : (
            <>
              <Link to={`/${lang}/researcher/submit/new`}>{t("nav.newOrder")}</Link>
              {onAuthPage ? null : (
                <>
                  <Link to={`/${lang}/login?redirect=${encodeURIComponent(here)}`}>{t("nav.signIn")}</Link>
                  <Link to={`/${lang}/register`} className="button button-small">
                    {t("nav.register")}
                  </Link>
                </>
              )}
            </>
          )}
          <details className="lang-switcher">
            <summary aria-label={t("nav.language")}>{LANG_NATIVE_NAME[lang]}</summary>
            <ul>
              {languages.map((l) => (
                <li key={l}>
                  {/* Plain links: switching language works without JavaScript and keeps path and query. */}
                  <a href={withLang(l, here)} hrefLang={LANG_TAG[l]} lang={LANG_TAG[l]} aria-current={l === lang ? "true" : undefined}>
                    {LANG_NATIVE_NAME[l]}
                  </a>
                </li>
              ))}
            </ul>
          </details>
        </nav>
      </div>
    </header>
  );
}
