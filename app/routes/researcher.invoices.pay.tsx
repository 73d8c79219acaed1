import { Link, useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { getFixedT } from "#app/i18n.server";
import { readFormData } from "#app/lib/forms.server";
import { pageIdempotencyKey, paymentFields, paymentResponse, refusedPayment, type PaymentActionData } from "#app/lib/payment.server";
import { formatMoney } from "#common/format";
import { paths } from "#common/paths";
import { invoiceNumbersOf, loadPayoff } from "#server/payments/form";
import { replayedInvoicesPayment } from "#server/payments";
import { ownPendingAttempt } from "#server/payments/attempts";
import { payInvoices } from "#server/payments";
import { PAYMENT_FORM_ID, PaymentForm } from "#app/components/payment/PaymentForm";
import { RedirectForm } from "#app/components/payment/RedirectForm";
import { balancesAnswer, withPaymentForm, type BalanceActionData } from "#app/lib/balances.server";
import { balancesFor } from "#server/payments/balances";
import { UsdBase } from "#app/components/invoices/UsdBase";
import { parsePaymentForm, readBalanceChoice } from "#common/payments/form-schema";

export const meta = titleMeta;
export const handle = { i18n: ["payment", "order", "credits", "fapiao", "invoices"] };

/** The invoices of the path, the user's own and unpaid; anything else is the 404 page. */
async function payoffOf(request: Request, context: LoaderFunctionArgs["context"], param: string | undefined) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const numbers = invoiceNumbersOf(param ?? "");
  const payoff = await loadPayoff(scope, numbers);
  if (!payoff.ok) throw new Response("Not Found", { status: 404 });
  return { scope, numbers, payoff: payoff.value };
}

/**
 * With JavaScript, an answer that is the provider's form (UnionPay) is shown and submitted as it is: the page's data
 * is not loaded again after it, which would find the attempt just started and leave for its pending page instead.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  actionResult && typeof actionResult === "object" && "redirectForm" in actionResult ? false : defaultShouldRevalidate;

// Pay one or more invoices (spec 2 §2 "Pay screen", issue 12 §4).
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { scope, payoff, numbers } = await payoffOf(request, context, params.invoiceNumbers);
  // One open attempt per invoice (ADR 051): while one waits (a boleto, a PayPal order), it is what the page offers.
  // Not when this page renders its own action's answer without JavaScript (the request still carries the form's
  // Content-Type): that answer may be the very attempt just started (UnionPay's form on to the gateway).
  const pending = request.headers.has("content-type") ? null : await ownPendingAttempt(scope, numbers);
  if (pending) throw redirect(paths.paymentPending(scope.lang, pending), { status: 303 });
  const t = await getFixedT(request, "payment");
  // 'You have X bank credits available.': the usable credits in the amount's currency (none when hidden).
  const balances = await balancesFor(scope, payoff.currency.isoCode);
  return {
    title: t("payoff.title"),
    ...payoff,
    creditBalance: balances?.credits ?? 0,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const numbers = invoiceNumbersOf(params.invoiceNumbers ?? "");
  const flat = paymentFields(await readFormData(request));
  const key = pageIdempotencyKey(flat, `invoices:${numbers.join(",")}`);
  const balance = readBalanceChoice(flat);
  const payoff = await loadPayoff(scope, numbers, balance.choice);
  if (!payoff.ok) {
    // The same page sent again after it paid these invoices (a double click without JavaScript): its first answer.
    const replay = await replayedInvoicesPayment(scope, numbers, key, flat);
    if (replay) return paymentResponse(flat, replay, async () => paths.invoicesUnpaidLanding(scope.lang, "success"));
    throw new Response("Not Found", { status: 404 });
  }
  const form = payoff.value.data;
  const early = balancesAnswer(flat, form, balance.errors ?? payoff.value.balanceErrors);
  if (early) return early;
  const submission = parsePaymentForm(flat, form);
  if (!submission.ok) return withPaymentForm(refusedPayment(flat, submission.fieldErrors, submission.error), form);
  const r = await payInvoices(scope, numbers, submission.value, key, flat);
  return withPaymentForm(await paymentResponse(flat, r, async () => paths.invoicesUnpaidLanding(scope.lang, "success")), form);
}

export default function PayInvoices() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<PaymentActionData | BalanceActionData>();
  const { t } = useTranslation("payment");
  const lang = useLang();
  if (actionData && "redirectForm" in actionData) return <RedirectForm form={actionData.redirectForm} />;
  const money = (amount: number) => formatMoney(amount, data.currency);
  // After "Update total" (or a refusal) the form computed for the posted balance choice.
  const payment = actionData && "payment" in actionData ? actionData.payment : data.data;
  return (
    <section className="stack payoff-page">
      <p>
        <Link to={paths.invoicesUnpaid(lang)}>← {t("payoff.back")}</Link>
      </p>
      <h1>{t("payoff.title")}</h1>
      {/* What is being paid, before how (issue 22 item 6): the count and the total; each invoice in the summary. */}
      <p className="payoff-lead">{t("payoff.lead", { count: data.invoices.length, total: money(data.total) })}</p>
      {payment.methods.length === 0 ? <p className="alert alert-info">{t("payoff.noMethods")}</p> : null}
      {data.creditBalance > 0 ? <p className="alert alert-info">{t("payoff.credits", { amount: money(data.creditBalance) })}</p> : null}
      <PaymentForm
        key={payment.methods.map((m) => m.id).join(",")}
        data={payment}
        reply={actionData && "reply" in actionData ? actionData.reply : null}
        submitLabel={t("payoff.payNow")}
        aside={({ busy, canSubmit }) => (
          <div className="payoff-summary card">
            <h2>{t("payoff.summary")}</h2>
            <table className="payoff-table">
              <thead>
                <tr>
                  <th scope="col">{t("payoff.invoice")}</th>
                  <th scope="col" className="num">
                    {t("payoff.balance")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.invoices.map((i) => (
                  <tr key={i.invoiceNumber}>
                    <td>{i.invoiceNumber}</td>
                    <td className="num">
                      {money(data.shown[i.invoiceNumber])}
                      {/* A converted invoice's USD base and rate at issue (ADR 052), as the invoice list shows them. */}
                      {i.usdBase ? <UsdBase {...i.usdBase} /> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">{t("payoff.total")}</th>
                  <td className="num">
                    <strong>{money(data.total)}</strong>
                  </td>
                </tr>
                {payment.balances ? (
                  <tr>
                    <th scope="row">{t("credits:panel.payable")}</th>
                    <td className="num">
                      <strong>{money(payment.total)}</strong>
                    </td>
                  </tr>
                ) : null}
              </tfoot>
            </table>
            {/* The fapiao choice (issue 13) is offered only when exactly one invoice is paid. */}
            <button
              type="submit"
              form={PAYMENT_FORM_ID}
              className="button button-primary button-large"
              disabled={!canSubmit}
              aria-busy={busy}
            >
              {busy ? t("submit.busy") : t("payoff.payNow")}
            </button>
          </div>
        )}
      />
    </section>
  );
}
