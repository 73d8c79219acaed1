import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { dispatchIntent, onIntent, readFormData } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { formatDateTime, formatMoney } from "#common/format";
import { majorInputText, USD } from "#common/money";
import { rateText } from "#common/invoices/text";
import { LANG_TAG } from "#common/i18n";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { refundSchema, staffPayErrorKey } from "#common/staff/payments";
import { staffPaymentPage, staffRefund } from "#server/staff/payments";
import { refundPayment } from "#server/payments/refund";

export const handle = { i18n: ["staffpay", "staffops"] };
export const meta = titleMeta;

// /staff/payments/{id}: one payment, the provider events it received, and its refund (issue 12 §8). POST → 303 → GET.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const page = await staffPaymentPage(scope, params.id ?? "");
  if (!page) throw new Response("Not Found", { status: 404 });
  const t = await getFixedT(request, "staffpay");
  return {
    title: t("payment.title"),
    ...page,
    // In the currency's own decimal mark ("840,00" for reais): staff edit it, parseMajor reads either.
    refundableMajor: majorInputText(page.refundable, page.payment.currency),
    done: new URL(request.url).searchParams.get("done") === "refund",
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const id = params.id ?? "";
  return dispatchIntent(
    await readFormData(request),
    {
      refund: onIntent(refundSchema, async (value) => {
        const r = await staffRefund(scope, id, value, refundPayment);
        if (r.ok) return redirect(`${paths.staffPayment(scope.lang, id)}?done=refund`, 303);
        const fields = Object.keys(r.fieldErrors).length > 0;
        return Response.json(
          { error: fields ? null : staffPayErrorKey(r.error), fieldErrors: r.fieldErrors },
          { status: errorStatus(r.error) },
        );
      }),
    },
    () => Response.json({ error: "staffpay:errors.bad-form", fieldErrors: {} }, { status: 400 }),
  );
}

export default function StaffPayment() {
  const { payment, events, refundable, refundableMajor, refundByTransfer, done, overpayments } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as { error: string | null; fieldErrors: Record<string, string> } | undefined;
  const { t } = useTranslation("staffpay");
  const lang = useLang();
  const fe = actionData?.fieldErrors ?? {};
  const money = (n: number) => formatMoney(n, payment.currency);
  return (
    <div className="stack">
      <p>
        <Link to={paths.staffPayments(lang)}>← {t("payments.title")}</Link>
      </p>
      <h1>{t("payment.title")}</h1>
      {done ? (
        <p className="alert alert-success" role="status">
          {t("payment.refunded")}
        </p>
      ) : null}
      <section className="card stack" aria-labelledby="sp-summary">
        <h2 id="sp-summary">{t("payment.summary")}</h2>
        <dl className="facts">
          <dt>{t("payment.id")}</dt>
          <dd className="break">{payment.id}</dd>
          <dt>{t("payments.researcher")}</dt>
          <dd className="break">
            {payment.researcher.name} &lt;{payment.researcher.email}&gt;
          </dd>
          <dt>{t("payments.method")}</dt>
          <dd>
            {t(`methods.${payment.methodId}`, { defaultValue: String(payment.methodId) })}
            {payment.sandbox ? <span className="badge">{t("payments.sandbox")}</span> : null}
          </dd>
          <dt>{t("payments.status")}</dt>
          <dd>
            <span className="badge">{t(`statuses.${payment.status}`)}</span>
            {payment.error ? <span className="field-hint"> {payment.error}</span> : null}
          </dd>
          <dt>{t("payments.amount")}</dt>
          <dd>{money(payment.amount)}</dd>
          {/* A payment in reais, yuan or yen: what it was in dollars and at which rate (ADR 052). */}
          {payment.usdBase ? (
            <>
              <dt>{t("payment.usdBase")}</dt>
              <dd className="staff-payment-usd-base">{formatMoney(payment.usdBase.usdTotal, USD)}</dd>
              <dt>{t("payment.rate")}</dt>
              <dd className="staff-payment-rate">
                {`1 USD = ${rateText(payment.usdBase.exchangeRate, LANG_TAG[lang])} ${payment.currency.isoCode}`}
              </dd>
            </>
          ) : null}
          <dt>{t("payment.refundedAmount")}</dt>
          <dd>{money(payment.refundedAmount)}</dd>
          <dt>{t("payment.surplus")}</dt>
          <dd>
            {overpayments.length
              ? overpayments.map((o) => (
                  <span key={o.creditNumber} className="staffpay-inline">
                    {t("payment.surplusWhere", {
                      amount: formatMoney(o.amount, o.currency),
                      credit: o.creditNumber,
                      left: formatMoney(o.unspent, o.currency),
                    })}
                  </span>
                ))
              : t("payment.noSurplus")}
          </dd>
          <dt>{t("payments.created")}</dt>
          <dd>{formatDateTime(payment.createdAt, lang)}</dd>
          <dt>{t("payment.paidAt")}</dt>
          <dd>{payment.paidAt ? formatDateTime(payment.paidAt, lang) : "—"}</dd>
          <dt>{t("payment.providerRef")}</dt>
          <dd className="break">{payment.providerRef ?? "—"}</dd>
          <dt>{t("payments.order")}</dt>
          <dd>
            {payment.orderNumbers.length
              ? payment.orderNumbers.map((n) => (
                  <Link key={n} className="staffpay-inline" to={paths.staffOrder(lang, n)}>
                    {n}
                  </Link>
                ))
              : "—"}
          </dd>
          <dt>{t("payments.invoice")}</dt>
          <dd>
            {payment.invoiceNumbers.length
              ? payment.invoiceNumbers.map((n) => (
                  <Link key={n} className="staffpay-inline" to={paths.staffInvoice(lang, n)}>
                    {n}
                  </Link>
                ))
              : "—"}
          </dd>
        </dl>
      </section>
      <section className="card stack" aria-labelledby="sp-events">
        <h2 id="sp-events">{t("payment.events")}</h2>
        {events.length ? (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="sp-events">
            <table>
              <thead>
                <tr>
                  <th>{t("payment.eventTime")}</th>
                  <th>{t("payment.eventKind")}</th>
                  <th>{t("payment.eventOutcome")}</th>
                  <th>{t("payment.eventVerified")}</th>
                  <th>{t("payment.eventData")}</th>
                </tr>
              </thead>
              <tbody>
                {events.map((e) => (
                  <tr key={e.id}>
                    <td>{formatDateTime(e.createdAt, lang)}</td>
                    <td>{t(`payment.eventKinds.${e.kind}`, { defaultValue: e.kind })}</td>
                    <td>{e.outcome ? t(`statuses.${e.outcome}`, { defaultValue: e.outcome }) : "—"}</td>
                    <td>{e.verified ? t("payment.yes") : t("payment.no")}</td>
                    <td className="break">
                      <code>{e.summary}</code>
                      {e.actor ? <span className="field-hint"> {e.actor}</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{t("payment.noEvents")}</p>
        )}
      </section>
      <section className="card stack" aria-labelledby="sp-refund">
        <h2 id="sp-refund">{t("payment.refund")}</h2>
        {actionData?.error ? (
          <p className="alert alert-danger" role="alert">
            {t(actionData.error)}
          </p>
        ) : null}
        {refundable > 0 ? (
          <Form method="post" className="stack">
            <input type="hidden" name="intent" value="refund" />
            <p>{t("payment.refundable", { amount: money(refundable) })}</p>
            <div className="field-row">
              <div className={`field${fe.amount ? " field-invalid" : ""}`}>
                <label htmlFor="refund-amount">{t("payment.refundAmount", { currency: payment.currency.isoCode })}</label>
                <input
                  id="refund-amount"
                  name="amount"
                  inputMode="decimal"
                  required
                  defaultValue={refundableMajor}
                  aria-invalid={fe.amount ? true : undefined}
                  aria-describedby={fe.amount ? "refund-amount-error" : undefined}
                />
                {fe.amount ? (
                  <p className="field-error" id="refund-amount-error">
                    {t(fe.amount)}
                  </p>
                ) : null}
              </div>
              <div className={`field${fe.reason ? " field-invalid" : ""}`}>
                <label htmlFor="refund-reason">{t("payment.refundReason")}</label>
                <input
                  id="refund-reason"
                  name="reason"
                  maxLength={500}
                  required
                  aria-invalid={fe.reason ? true : undefined}
                  aria-describedby={fe.reason ? "refund-reason-error" : undefined}
                />
                {fe.reason ? (
                  <p className="field-error" id="refund-reason-error">
                    {t(fe.reason)}
                  </p>
                ) : null}
              </div>
            </div>
            {/* ADR 051: off by default, so refunding a duplicate never re-opens a settled invoice. */}
            <label className="checkbox">
              <input type="checkbox" name="reopen" value="on" aria-describedby="refund-reopen-hint" /> {t("payment.reopen")}
            </label>
            <p className="field-hint" id="refund-reopen-hint">
              {t("payment.reopenHint")}
            </p>
            <div className="actions">
              <button type="submit" className="button button-primary">
                {t("payment.refundSubmit")}
              </button>
            </div>
          </Form>
        ) : (
          <p>{t(refundByTransfer && payment.status === "succeeded" ? "payment.refundByTransfer" : "payment.notRefundable")}</p>
        )}
      </section>
    </div>
  );
}
