// The sub-navigation with a welcome message (spec 3 §6, issue 25 item 6): signed-in users only, outside the order
// form (which has no chrome), the home area, curie/rubriq and the staff console (which has its own tabs).
import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { useRootData } from "#app/root";
import { paths } from "#common/paths";

const WITHOUT_SUBNAV = /^\/[a-z]{2}\/(home|curie|rubriq|staff)(\/|$)/;

export function SubNav() {
  const { t } = useTranslation("home");
  const root = useRootData();
  const lang = useLang();
  const { pathname } = useLocation();
  const user = root?.user;
  if (!user || WITHOUT_SUBNAV.test(pathname)) return null;
  return (
    <nav className="sub-nav" aria-label={t("subnav.label")}>
      <div className="sub-nav-inner">
        <p className="sub-nav-welcome">{t("subnav.welcome", { name: user.fullName || user.email })}</p>
        <ul>
          {root?.flags.curie_is_launched ? (
            <li>
              <Link to={paths.homeArea(lang)}>{t("subnav.home")}</Link>
            </li>
          ) : null}
          <li>
            <Link to={paths.researcher(lang)}>{t("subnav.orders")}</Link>
          </li>
          <li>
            <Link to={paths.invoices(lang)}>{t("subnav.invoices")}</Link>
          </li>
          <li>
            <Link to={paths.referralRewards(lang)}>{t("subnav.referrals")}</Link>
          </li>
        </ul>
      </div>
    </nav>
  );
}
