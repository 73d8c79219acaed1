// The referral link in a read-only text area (issue 25 item 3): a copy button once JavaScript runs (Clipboard API),
// and without it the field selects itself on focus where it can, with a plain instruction to select and copy.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "#app/lib/translate";

export function CopyLink({ link }: { link: string }) {
  const { t } = useTranslation("referrals");
  const area = useRef<HTMLTextAreaElement>(null);
  const [canCopy, setCanCopy] = useState(false);
  const [result, setResult] = useState<"copied" | "failed" | null>(null);
  useEffect(() => setCanCopy(typeof navigator !== "undefined" && Boolean(navigator.clipboard?.writeText)), []);

  async function copy() {
    area.current?.select();
    try {
      await navigator.clipboard.writeText(link);
      setResult("copied");
    } catch {
      setResult("failed");
    }
  }

  return (
    <div className="field referral-link-field">
      <label htmlFor="referral-link-text">{t("page.linkLabel")}</label>
      <textarea
        id="referral-link-text"
        ref={area}
        readOnly
        rows={2}
        value={link}
        spellCheck={false}
        aria-describedby="referral-link-hint"
        onFocus={(e) => e.currentTarget.select()}
      />
      <div className="referral-link-actions">
        {canCopy ? (
          <button type="button" className="button button-primary" onClick={copy}>
            {result === "copied" ? t("page.copied") : t("page.copy")}
          </button>
        ) : null}
        <p id="referral-link-hint" className={result === "failed" ? "field-error" : "field-hint"} role="status">
          {result === "failed" ? t("page.copyFailed") : canCopy ? "" : t("page.selectHint")}
        </p>
      </div>
    </div>
  );
}
