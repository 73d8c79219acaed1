// The payment options panel's voucher entry (spec 2 §4, §5; issue 12 §7): its own small form posting to the
// voucher route, so it works without JavaScript; the outcome comes back as `?voucher=<code>` on the payment step.
// Shown only to accounts that may use vouchers (spec 2 §6 "voucher requires voucherAvailable").
import { Form, useSearchParams } from "@remix-run/react";
import { Trans, useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import { voucherOutcome } from "#common/vouchers/outcomes";

export function VoucherPanel({
  formId,
  appliedCode,
  voucherAvailable = false,
}: {
  formId: string;
  appliedCode: string | null;
  /** The user's voucherAvailable: without it the panel renders nothing. */
  voucherAvailable?: boolean;
}) {
  const { t } = useTranslation("staffpay");
  const lang = useLang();
  const [params] = useSearchParams();
  if (!voucherAvailable) return null;
  const outcome = voucherOutcome(params.get("voucher"));
  const success = outcome === "voucher-applied" || outcome === "voucher-removed";
  // "Applied" names the code on the form itself (never one from the URL): none on the form, no message.
  const message =
    outcome === "voucher-applied" ? (
      appliedCode ? (
        <Trans t={t} i18nKey="voucher.applied" values={{ code: appliedCode }} components={{ b: <strong /> }} />
      ) : null
    ) : outcome === "voucher-removed" ? (
      t("voucher.removed")
    ) : outcome ? (
      t(`voucher.errors.${outcome}`)
    ) : null;
  return (
    <section className="card stack voucher-panel" aria-labelledby="voucher-heading">
      <h2 id="voucher-heading">{t("voucher.heading")}</h2>
      {message ? (
        <p className={`alert ${success ? "alert-success" : "alert-danger"}`} role={success ? "status" : "alert"} id="voucher-message">
          {message}
        </p>
      ) : null}
      <Form method="post" action={paths.submit(lang, "voucher")} className="field-row" replace>
        <input type="hidden" name="formId" value={formId} />
        {appliedCode ? (
          <>
            <p>
              <Trans t={t} i18nKey="voucher.current" values={{ code: appliedCode }} components={{ b: <strong /> }} />
            </p>
            <button type="submit" name="intent" value="remove" className="button">
              {t("voucher.remove")}
            </button>
          </>
        ) : (
          <>
            <div className="field">
              <label htmlFor="voucher-code">{t("voucher.code")}</label>
              <input
                id="voucher-code"
                name="code"
                autoComplete="off"
                maxLength={40}
                required
                aria-invalid={outcome && !success ? true : undefined}
                aria-describedby={message ? "voucher-message" : undefined}
              />
            </div>
            <button type="submit" name="intent" value="apply" className="button">
              {t("voucher.apply")}
            </button>
          </>
        )}
      </Form>
    </section>
  );
}
