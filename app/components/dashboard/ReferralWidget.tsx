// The referral widget of the dashboard's widget row (spec 2 §2, spec 3 "Referrals"): the user's link in a
// read-only field, a copy button and a link to /referral-rewards. The button needs the Clipboard API, so it
// appears only once JavaScript runs; without it the field is there to select and copy by hand.
import { useEffect, useRef, useState } from "react";
import { Link } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";

export function ReferralWidget({ link }: { link: string }) {
  const { t } = useTranslation("dashboard");
  const lang = useLang();
  const input = useRef<HTMLInputElement>(null);
  const [canCopy, setCanCopy] = useState(false);
  const [result, setResult] = useState<"copied" | "failed" | null>(null);
  useEffect(() => setCanCopy(typeof navigator !== "undefined" && Boolean(navigator.clipboard?.writeText)), []);

  async function copy() {
    input.current?.select();
    try {
      await navigator.clipboard.writeText(link);
      setResult("copied");
    } catch {
      setResult("failed");
    }
  }

  return (
    <section className="card dashboard-widget referral-widget" aria-labelledby="referral-title">
      <h2 id="referral-title">{t("referral.title")}</h2>
      <p>{t("referral.text")}</p>
      <div className="field">
        <label htmlFor="referral-link">{t("referral.label")}</label>
        <div className="referral-copy">
          <input id="referral-link" ref={input} type="text" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
          {canCopy ? (
            <button type="button" className="button button-small" onClick={copy}>
              {result === "copied" ? t("referral.copied") : t("referral.copy")}
            </button>
          ) : null}
        </div>
        <p className={result === "failed" ? "field-error" : "field-hint"} role="status">
          {result === "failed" ? t("referral.copyFailed") : ""}
        </p>
      </div>
      <p>
        <Link to={paths.referralRewards(lang)}>{t("referral.rewards")}</Link>
      </p>
    </section>
  );
}
