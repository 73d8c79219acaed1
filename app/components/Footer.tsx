import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/translate";
import { useLang } from "~/lib/use-lang";
import { useRootData } from "~/root";

export function Footer() {
  const { t } = useTranslation();
  const root = useRootData();
  const lang = useLang();
  const year = new Date().getFullYear();
  const founded = root?.site.companyFoundedYear ?? 2004;
  const company = root?.site.companyShortName ?? t("site.name");
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <p>{t("footer.companyAge", { years: year - founded })}</p>
        <nav aria-label={t("footer.nav")}>
          <Link to={`/${lang}/support`}>{t("footer.support")}</Link>
          <Link to={`/${lang}/certificate/verify`}>{t("footer.verifyCertificate")}</Link>
          <Link to={`/${lang}/terms`}>{t("footer.terms")}</Link>
          <Link to={`/${lang}/privacy`}>{t("footer.privacy")}</Link>
        </nav>
        <p className="copyright">{t("footer.copyright", { year, company })}</p>
      </div>
    </footer>
  );
}
