import { Form, Link, useLocation } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { useRootData } from "#app/root";
import { LANG_NATIVE_NAME, LANG_TAG, SITE_LANGS, withLang } from "#common/i18n";
import { paths } from "#common/paths";
import { personName } from "#common/names";

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
        <Link to={paths.home(lang)} className="brand">
          {root?.site.companyShortName ?? t("site.name")}
        </Link>
        <nav aria-label={t("nav.main")} className="main-nav">
          {user ? (
            <>
              <Link to={paths.researcher(lang)}>{t("nav.myOrders")}</Link>
              <Link to={paths.submit(lang, "new")}>{t("nav.newOrder")}</Link>
              <Link to={paths.account(lang)}>{t("nav.account")}</Link>
              {user.isStaff ? <Link to={paths.staff(lang)}>{t("nav.staff")}</Link> : null}
              <span className="signed-in" title={user.email}>
                {t("nav.signedInAs", { name: personName(user.firstName, user.lastName, lang) })}
              </span>
              <Form method="post" action={paths.logout(lang)} className="inline-form">
                <button type="submit" className="link-button">
                  {t("nav.signOut")}
                </button>
              </Form>
            </>
          ) : (
            <>
              <Link to={paths.submit(lang, "new")}>{t("nav.newOrder")}</Link>
              {onAuthPage ? null : (
                <>
                  <Link to={paths.login(lang, { redirect: here })}>{t("nav.signIn")}</Link>
                  <Link to={paths.register(lang)} className="button button-small">
                    {t("nav.register")}
                  </Link>
                </>
              )}
            </>
          )}
          <details className="lang-switcher">
            {/* The accessible name starts with what is seen (label in name): "中文", then "Language". */}
            <summary>
              {LANG_NATIVE_NAME[lang]}
              <span className="visually-hidden"> — {t("nav.language")}</span>
            </summary>
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
