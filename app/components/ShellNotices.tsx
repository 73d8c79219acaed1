import { Form, Link, useLocation } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useRootData } from "#app/root";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import { personName } from "#common/names";

/** While a staff member views as a researcher: who, and a one-click way back. */
export function ImpersonationBanner() {
  const { t } = useTranslation();
  const lang = useLang();
  const user = useRootData()?.user;
  if (!user?.impersonatorName) return null;
  return (
    <div className="impersonation-banner" role="status">
      {t("staff.impersonating", { staff: user.impersonatorName, user: personName(user.firstName, user.lastName, lang), email: user.email })}{" "}
      <Form method="post" action={paths.staffStopImpersonation(lang)} className="inline-form">
        <button type="submit" className="link-button">
          {t("staff.stopImpersonating")}
        </button>
      </Form>
    </div>
  );
}

/** The warning banners that replace the page (spec 1 §2): localisation mismatch, credit-notes lockout. */
export function ShellBanner() {
  const { t } = useTranslation();
  const lang = useLang();
  const location = useLocation();
  const banner = useRootData()?.user?.shell.banner;
  if (!banner) return null;
  return (
    <section className="alert alert-warning shell-banner" role="alert">
      <h1>{t(`shell.${banner}-title`)}</h1>
      <p>{t(`shell.${banner}-message`)}</p>
      {banner === "localization-mismatch" ? (
        <p>
          <a className="button button-primary" href={paths.api.accountRedirect(location.pathname + location.search)}>
            {t("shell.goToMySite")}
          </a>
        </p>
      ) : (
        <p>
          <Link to={paths.support(lang)}>{t("footer.support")}</Link>
        </p>
      )}
    </section>
  );
}

/** Users without a country are asked for it: a plain form that works without JavaScript. */
export function CountryPrompt({ countries }: { countries: { iso2: string; name: string }[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  const location = useLocation();
  return (
    <section className="card country-prompt" aria-labelledby="country-prompt-title">
      <h2 id="country-prompt-title">{t("shell.countryTitle")}</h2>
      <Form method="post" action={paths.accountCountry(lang)} className="stack">
        <input type="hidden" name="redirect" value={location.pathname + location.search} />
        <div className="field">
          <label htmlFor="country-prompt">{t("shell.countryLabel")}</label>
          <select id="country-prompt" name="country" required defaultValue="">
            <option value="" disabled>
              {t("shell.countryChoose")}
            </option>
            {countries.map((c) => (
              <option key={c.iso2} value={c.iso2}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button-primary">
          {t("shell.countrySave")}
        </button>
      </Form>
    </section>
  );
}
