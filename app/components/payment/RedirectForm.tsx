// A provider's redirect form (PaymentAnswer.redirectForm, spec 2 §7 "redirectForm (auto-submitted)"): posted
// to the provider at once when JavaScript runs (a client effect, so no inline script is needed), and a visible
// button without it.
import { useEffect, useRef } from "react";
import { useTranslation } from "#app/lib/translate";
import type { PaymentAnswer } from "#common/payments/types";

export function RedirectForm({ form }: { form: NonNullable<PaymentAnswer["redirectForm"]> }) {
  const { t } = useTranslation("payment");
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => ref.current?.submit(), []);
  return (
    <form ref={ref} action={form.action} method={form.method} className="stack pm-redirect">
      {Object.entries(form.fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <p className="alert alert-info">{t("redirect.text")}</p>
      <button type="submit" className="button button-primary">
        {t("redirect.continue")}
      </button>
    </form>
  );
}
