import { useEffect, useState } from "react";
import { Form, Link, useRevalidator } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { formatMoney } from "#common/format";
import { paths } from "#common/paths";
import { useLang } from "#app/lib/use-lang";
import type { OrderDetailsData } from "./types";
import { OrderCertificate } from "../OrderCertificate";

/** The order fapiao the researcher asked for while paying (spec 2 §2 "thank-you"), as it stands. */
export interface RequestedFapiao {
  type: "general" | "special";
  title: string;
  taxpayerNumber: string | null;
  serviceType: string | null;
  status: "requested" | "issued" | "cancelled";
}

/** Spec 2 §9: the certificate is looked for every 10 s, at most 5 times, until it exists. */
export const CERTIFICATE_POLL_SECONDS = 10;
export const CERTIFICATE_POLL_TRIES = 5;

function CertificatePoller() {
  const revalidator = useRevalidator();
  const [tries, setTries] = useState(0);
  useEffect(() => {
    if (tries >= CERTIFICATE_POLL_TRIES) return;
    const timer = setTimeout(() => {
      revalidator.revalidate();
      setTries((n) => n + 1);
    }, CERTIFICATE_POLL_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [tries, revalidator]);
  return null;
}

/**
 * The thank-you view's certificate (spec 2 §2 "certificate form"): the title and authors form once the order's
 * certificate exists; before that, what the researcher will get and when (ADR 065).
 */
function ThankYouCertificate({ data }: { data: OrderDetailsData }) {
  const { t } = useTranslation("details");
  const { order } = data;
  // The services a certificate certifies (server/certificates/issue.ts CERTIFIED_TYPES).
  const certified = order.lineItems.some((l) => l.type === "editing" || l.type === "translation" || l.type === "formatting");
  if (!certified) return null;
  if (order.certificate) return <OrderCertificate certificate={order.certificate} editable />;
  return (
    <section className="card stack" aria-labelledby="certificate-heading" data-certificate="pending">
      <h2 id="certificate-heading">{t("certificate.title")}</h2>
      <p>{t("thankYou.certificatePending")}</p>
      <CertificatePoller />
    </section>
  );
}

/** The fapiao just requested with the payment (China): what was asked for and that it is on its way. */
function ThankYouFapiao({ fapiao }: { fapiao: RequestedFapiao }) {
  const { t } = useTranslation("fapiao");
  return (
    <section className="card stack" aria-labelledby="fapiao-heading" data-fapiao={fapiao.status}>
      <h2 id="fapiao-heading">{t("title")}</h2>
      <p className="alert alert-success" role="status">
        {t(`fapiao-creation-success-type-${fapiao.type}`)}
      </p>
      <dl className="details-list">
        <dt>{t("form.type")}</dt>
        <dd>{t(`types.${fapiao.type}`)}</dd>
        {fapiao.serviceType ? (
          <>
            <dt>{t("form.serviceType")}</dt>
            <dd>{t(`serviceTypes.${fapiao.serviceType}`)}</dd>
          </>
        ) : null}
        <dt>{t("form.organizationName")}</dt>
        <dd>{fapiao.title}</dd>
        {fapiao.taxpayerNumber ? (
          <>
            <dt>{t("form.taxpayerNumber")}</dt>
            <dd>{fapiao.taxpayerNumber}</dd>
          </>
        ) : null}
        <dt>{t("list.status")}</dt>
        <dd>{t(`statuses.${fapiao.status}`)}</dd>
      </dl>
    </section>
  );
}

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
  fapiao,
  pollCount,
  emailsSaved,
  emailsError,
  emailsValue,
}: {
  data: OrderDetailsData;
  fapiao?: RequestedFapiao | null;
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
      {fapiao ? <ThankYouFapiao fapiao={fapiao} /> : null}
      <ThankYouCertificate data={data} />
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
