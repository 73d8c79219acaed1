import { useEffect, useState } from "react";
import { Form, Link, useRevalidator } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { formatMoney } from "#common/format";
import { paths } from "#common/paths";
import { useLang } from "#app/lib/use-lang";
import type { OrderDetailsData } from "./types";

/** Spec 2 §4, §9: the order is polled every 3 s, at most 80 times; then 'load-order-failure'. */
export const POLL_SECONDS = 3;
export const POLL_TRIES = 80;

/**
 * While the payment of a just-placed order is being confirmed: with JavaScript the page's data are reloaded
 * every 3 s (80 tries, then the failure message); without it the page refreshes itself, counting in ?poll=.
 */
function PaymentPoller({ pollCount }: { pollCount: number }) {
  const { t } = useTranslation("details");
  const revalidator = useRevalidator();
  const [tries, setTries] = useState(pollCount);
  useEffect(() => {
    if (tries >= POLL_TRIES) return;
    const timer = setTimeout(() => {
      revalidator.revalidate();
      setTries((n) => n + 1);
    }, POLL_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [tries, revalidator]);
  if (tries >= POLL_TRIES)
    return (
      <p className="alert alert-danger" role="alert" data-load-order-failure>
        {t("thankYou.loadOrderFailure")}
      </p>
    );
  return (
    <>
      <p className="alert alert-info" role="status">
        {t("thankYou.confirmingPayment")}
      </p>
      <noscript>
        <meta httpEquiv="refresh" content={`${POLL_SECONDS};url=?poll=${pollCount + 1}`} />
      </noscript>
    </>
  );
}

/** The thank-you view (spec 2 §2): submitted message, payment confirmation, extra notification e-mails. */
export function ThankYou({
  data,
  pollCount,
  emailsSaved,
  emailsError,
  emailsValue,
}: {
  data: OrderDetailsData;
  pollCount: number;
  emailsSaved: boolean;
  emailsError?: string;
  emailsValue?: string;
}) {
  const { t } = useTranslation("details");
  const lang = useLang();
  const { order } = data;
  return (
    <div className="stack">
      <div className="alert alert-success" role="status">
        <h1>{t("thankYou.title")}</h1>
        <p>{t("thankYou.submitted", { externalId: order.externalId })}</p>
        {/* Only what is true about the confirmation e-mail (ADR 062): sent, on its way, or not delivered yet. */}
        {data.confirmationMail ? (
          <p data-confirmation-mail={data.confirmationMail.state}>
            {t(`thankYou.mail.${data.confirmationMail.state}`, { email: data.confirmationMail.email })}
          </p>
        ) : null}
      </div>
      <section className="card stack" aria-labelledby="payment-heading">
        <h2 id="payment-heading">{t("thankYou.payment")}</h2>
        {order.paid ? (
          <p data-payment="paid">{t("thankYou.paid", { amount: formatMoney(order.total, order.currency) })}</p>
        ) : data.paymentPending ? (
          <>
            <PaymentPoller pollCount={pollCount} />
            {/* The QR code to scan or the boleto to pay, while the provider has not confirmed (ADR 034). */}
            <p>
              <Link to={paths.paymentPending(lang, order.pendingPayments[0].id)} data-pending-payment>
                {t("thankYou.pendingPaymentLink")}
              </Link>
            </p>
          </>
        ) : order.invoice ? (
          <p data-payment="invoice">
            {t("thankYou.invoice", { number: order.invoice.number, amount: formatMoney(order.invoice.balance, order.currency) })}
          </p>
        ) : (
          <p className="alert alert-danger" role="alert" data-load-order-failure>
            {t("thankYou.loadOrderFailure")}
          </p>
        )}
      </section>
      <section className="card stack" aria-labelledby="emails-heading">
        <h2 id="emails-heading">{t("thankYou.emailsTitle")}</h2>
        {emailsSaved ? (
          <p className="alert alert-success" role="status">
            {t("thankYou.emailsSaved")}
          </p>
        ) : null}
        <Form method="post" className="stack">
          <input type="hidden" name="intent" value="notification-emails" />
          <div className={`field${emailsError ? " field-invalid" : ""}`}>
            <label htmlFor="notificationEmails">{t("thankYou.emailsLabel")}</label>
            <input
              id="notificationEmails"
              name="notificationEmails"
              defaultValue={emailsValue ?? order.notificationEmails.join(", ")}
              aria-describedby={emailsError ? "notificationEmails-error" : "notificationEmails-hint"}
              aria-invalid={emailsError ? true : undefined}
            />
            <p className="field-hint" id="notificationEmails-hint">
              {t("thankYou.emailsHint")}
            </p>
            {emailsError ? (
              <p className="field-error" id="notificationEmails-error" role="alert">
                {t(emailsError)}
              </p>
            ) : null}
          </div>
          <p className="actions">
            <button type="submit" className="button">
              {t("thankYou.emailsSave")}
            </button>
          </p>
        </Form>
      </section>
    </div>
  );
}
