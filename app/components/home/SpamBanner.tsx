// The "check your spam folder" banner (spec 3 §4, issue 25 item 7, ADR 077): while the user has not hidden it and
// their e-mail address is not verified, on the dashboard and /home. Dismissed with a plain form POST (works without JavaScript), which hides it
// for good and comes back to this page.
import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { useRootData } from "#app/root";
import { paths } from "#common/paths";

export function SpamBanner() {
  const { t } = useTranslation("home");
  const root = useRootData();
  const lang = useLang();
  const location = useLocation();
  if (!root?.user?.showCheckSpamMessage) return null;
  return (
    <div className="alert alert-info spam-banner" role="note" aria-labelledby="spam-banner-text">
      <p id="spam-banner-text">{t("spam.text", { email: root.user.email })}</p>
      <Form method="post" action={paths.hideSpamMessage(lang)} className="inline-form">
        <input type="hidden" name="redirect" value={location.pathname + location.search} />
        <button type="submit" className="button button-small">
          {t("spam.dismiss")}
        </button>
      </Form>
    </div>
  );
}
