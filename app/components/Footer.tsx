import { Link } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { useRootData } from "#app/root";
import { paths } from "#common/paths";

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
          <Link to={paths.support(lang)}>{t("footer.support")}</Link>
          <Link to={paths.certificateVerify(lang)}>{t("footer.verifyCertificate")}</Link>
          <Link to={paths.terms(lang)}>{t("footer.terms")}</Link>
          <Link to={paths.privacy(lang)}>{t("footer.privacy")}</Link>
        </nav>
        <p className="copyright">{t("footer.copyright", { year, company })}</p>
      </div>
    </footer>
  );
}
