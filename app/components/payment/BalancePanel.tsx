// The payment options panel's prepayment and credits (issue 13, spec 2 §4–§6, ADR 041): how much of the
// user's prepaid and credit balances this payment uses, and what is left to pay. Part of the payment form
// (its fields are posted with it); the "Update total" button posts the same fields with intent=balances and
// the page answers with the form re-computed, so it works without JavaScript. Amounts come from the server.
import type { FormEvent } from "react";
import { useSubmit } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { formatMoney } from "#common/format";
import { BALANCES_INTENT, PREPAY_OPTIONS, type BalancePanel as Panel } from "#common/payments/balances";
import { PAYMENT_FIELD as F } from "#common/payments/fields";

/** The hidden field carrying the amount payable the page showed (a changed total is shown again, not paid). */
export const SHOWN_PAYABLE = "balancesPayable";

export function BalancePanel({
  panel,
  values,
  errors,
}: {
  panel: Panel;
  values: Record<string, string> | null;
  errors: Record<string, string>;
}) {
  const { t } = useTranslation("credits");
  const money = (minor: number) => formatMoney(minor, panel.currency);
  const v = (name: string) => values?.[name];
  const option = v(F.prepayOption) ?? panel.choice.prepayOption;
  const useCredits = (v(F.useCredits) ?? (panel.choice.useCredits ? "yes" : "no")) === "yes";
  const amountError = errors[F.prepayAmount];
  const optionError = errors[F.prepayOption];
  const creditsError = errors[F.useCredits];
  const submit = useSubmit();
  // With JavaScript a changed choice is priced at once, as "Update total" would be (issue 21 defect 11a): the
  // total shown, and the amount payable the form posts, are then the choice's, so "Pay now" works with one press.
  // The submit button stays disabled while the answer is on its way (PaymentForm's busy state).
  const update = (e: FormEvent<HTMLElement>) => {
    const input = e.target as HTMLInputElement;
    const form = input.form;
    // A typed partial amount is priced when the field is left (not at each key), once there is one.
    if (!form || (input.type === "radio" ? input.value === "partialPayment" : e.type !== "blur" || !input.value.trim())) return;
    const fields = new FormData(form);
    fields.set("intent", BALANCES_INTENT);
    submit(fields, { method: "post", replace: true, preventScrollReset: true });
  };
  return (
    <fieldset className="balance-panel card stack" aria-describedby="balance-payable" onChange={update}>
      <legend>{t("panel.legend")}</legend>
      <input type="hidden" name={SHOWN_PAYABLE} value={panel.payable} />
      {panel.prepayment > 0 ? (
        <div className="stack balance-group">
          <p className="balance-available">{t("panel.prepaymentAvailable", { amount: money(panel.prepayment) })}</p>
          <div className="balance-options" role="radiogroup" aria-label={t("panel.prepayLegend")}>
            {PREPAY_OPTIONS.map((o) => (
              <label key={o} className="checkbox">
                <input
                  type="radio"
                  id={o === PREPAY_OPTIONS[0] ? "pf-prepayOption" : undefined}
                  name={F.prepayOption}
                  value={o}
                  defaultChecked={option === o}
                  className={`balance-prepay-${o}`}
                />
                <span>{t(`panel.prepay.${o}`)}</span>
              </label>
            ))}
          </div>
          {optionError ? (
            <p className="field-error" role="alert">
              {t(optionError)}
            </p>
          ) : null}
          <div className={`field balance-amount${amountError ? " field-invalid" : ""}`}>
            <label htmlFor="pf-prepayAmount">{t("panel.amountLabel", { currency: panel.currency.isoCode })}</label>
            <input
              id="pf-prepayAmount"
              name={F.prepayAmount}
              inputMode="decimal"
              autoComplete="off"
              maxLength={16}
              onBlur={update}
              defaultValue={v(F.prepayAmount) ?? panel.choice.prepayAmount ?? ""}
              aria-invalid={amountError ? true : undefined}
              aria-describedby={amountError ? "pf-prepayAmount-error" : "pf-prepayAmount-hint"}
            />
            <p className="field-hint" id="pf-prepayAmount-hint">
              {t("panel.amountHint", { amount: money(panel.prepayMax) })}
            </p>
            {amountError ? (
              <p className="field-error" id="pf-prepayAmount-error" role="alert">
                {t(amountError, { amount: money(panel.prepayMax) })}
              </p>
            ) : null}
          </div>
        </div>
      ) : null}
      {panel.credits > 0 ? (
        <div className="stack balance-group">
          <p className="balance-available">{t("panel.creditsAvailable", { amount: money(panel.credits) })}</p>
          <div className="balance-options" role="radiogroup" aria-label={t("panel.creditsLegend")}>
            {(["yes", "no"] as const).map((o) => (
              <label key={o} className="checkbox">
                <input
                  type="radio"
                  id={o === "yes" ? "pf-useCredits" : undefined}
                  name={F.useCredits}
                  value={o}
                  defaultChecked={(o === "yes") === useCredits}
                  className={`balance-credits-${o}`}
                />
                <span>{t(`panel.useCredits.${o}`)}</span>
              </label>
            ))}
          </div>
          {creditsError ? (
            <p className="field-error" role="alert">
              {t(creditsError)}
            </p>
          ) : null}
        </div>
      ) : null}
      <dl className="balance-sum">
        <dt>{t("panel.subtotal")}</dt>
        <dd>{money(panel.subtotal)}</dd>
        {panel.applied.credits > 0 ? (
          <>
            <dt>{t("panel.creditsApplied")}</dt>
            <dd>{`−${money(panel.applied.credits)}`}</dd>
          </>
        ) : null}
        {panel.applied.prepayment > 0 ? (
          <>
            <dt>{t("panel.prepaymentApplied")}</dt>
            <dd>{`−${money(panel.applied.prepayment)}`}</dd>
          </>
        ) : null}
        <dt>{t("panel.payable")}</dt>
        <dd id="balance-payable">
          <strong>{money(panel.payable)}</strong>
        </dd>
      </dl>
      <p>
        <button type="submit" name="intent" value={BALANCES_INTENT} className="button balance-apply" formNoValidate>
          {t("panel.apply")}
        </button>
      </p>
    </fieldset>
  );
}
