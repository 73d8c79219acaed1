import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { fapiaoNoticeKey } from "#common/fapiao/notice";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { getFixedT } from "#app/i18n.server";
import { readFormData } from "#app/lib/forms.server";
import { pageIdempotencyKey, paymentFields, paymentResponse, type PaymentActionData } from "#app/lib/payment.server";
import { formatMoney, type CurrencyFormat } from "#common/format";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { PAYMENT_METHOD } from "#common/payments/methods";
import type { PaymentFormData, PaymentReply } from "#common/payments/schemas";
import { PREPAY_AMOUNT_MAX_LENGTH } from "#common/prepay/limits";
import { loadPrepayData, prepayBankDetails, prepayForm, submitPrepayment } from "#server/prepay";
import { PaymentForm } from "#app/components/payment/PaymentForm";
import { RedirectForm } from "#app/components/payment/RedirectForm";
import { ErrorSummary } from "#app/components/form";
import { PrepayLists } from "#app/components/prepay/PrepayLists";

export const meta = titleMeta;
export const handle = { i18n: ["prepay", "payment", "order", "invoices", "fapiao"] };

/** The amount step's answer: the amount locked with its payment form, or the amount refused. */
type Locked = { amountText: string; amount: number; currency: CurrencyFormat; data: PaymentFormData };
type ActionData =
  | { step: "amount"; amountText: string; error: string; price: string | null }
  | { step: "pay"; locked: Locked; reply?: PaymentReply }
  | PaymentActionData;

async function pageData(request: Request, context: LoaderFunctionArgs["context"]) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const data = await loadPrepayData(scope);
  if (!data) throw new Response("Not Found", { status: 404 });
  return { scope, data };
}

// /researcher/prepay and /researcher/prepay/{retainerInvoiceNumber} (spec 2 §2 "Prepay", issue 13 §1).
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { scope, data } = await pageData(request, context);
  const url = new URL(request.url);
  const usable = data.enabled && !data.account.hideInvoices;
  // An account whose currency was never chosen picks it first, then comes back here.
  if (usable && !data.account.currencyChosen) throw redirect(paths.chooseCurrency(scope.lang, `${url.pathname}${url.search}`));
  const number = params.retainerInvoiceNumber;
  let existing = null;
  if (number && usable) {
    const form = await prepayForm(scope, { retainerInvoiceNumber: number });
    if (!form.ok) throw new Response("Not Found", { status: 404 });
    const view = data.prepayments.find((p) => p.retainerInvoiceNumber === number);
    const bank = view?.methodId === PAYMENT_METHOD.bankTransfer ? await prepayBankDetails(scope, form.value.currency.isoCode) : null;
    existing = { number, ...form.value, bank, issued: url.searchParams.get("issued") === "1" };
  } else if (number) throw new Response("Not Found", { status: 404 });
  const t = await getFixedT(request, "prepay");
  const outcome = url.searchParams.get("payment");
  return {
    title: t("title"),
    enabled: data.enabled,
    hidden: data.account.hideInvoices,
    currency: data.account.currency,
    minimum: formatMoney(data.minimum, data.account.currency),
    totalBalance: data.totalBalance,
    prepayments: data.prepayments,
    credits: data.credits,
    all: url.searchParams.get("all"),
    message: outcome === "success" || outcome === "error" ? outcome : null,
    // Back from the prepayment's fapiao page (issue 13 §4): 'fapiao-creation-success-type-{type}' or the cancellation's.
    fapiaoNotice: fapiaoNoticeKey(url.searchParams.get("fapiao")),
    existing,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { scope } = await pageData(request, context);
  const flat = paymentFields(await readFormData(request));
  const number = params.retainerInvoiceNumber;
  const back = paths.prepayComplete(scope.lang, "success");
  if (number) {
    const key = pageIdempotencyKey(flat, `prepay:${number}`);
    const r = await submitPrepayment(scope, { retainerInvoiceNumber: number }, flat, key);
    if (!r.ok && r.error === "not-found") throw new Response("Not Found", { status: 404 });
    return paymentResponse(flat, r, async () => back);
  }
  const amountText = (flat.amount ?? "").trim().slice(0, PREPAY_AMOUNT_MAX_LENGTH + 8);
  if (flat.intent === "start-over") return redirect(paths.prepay(scope.lang), 303);
  const form = await prepayForm(scope, { amount: amountText });
  if (!form.ok) {
    const error = form.fieldErrors.amount ?? `prepay:errors.${form.error}`;
    const price = typeof form.details?.price === "string" ? form.details.price : null;
    return Response.json({ step: "amount", amountText, error, price } satisfies ActionData, {
      status: form.fieldErrors.amount ? 400 : errorStatus(form.error),
    });
  }
  const locked: Locked = { amountText, ...form.value };
  // Next: the amount is locked and the payment form shows.
  if (flat.intent === "amount") return Response.json({ step: "pay", locked } satisfies ActionData);
  const key = pageIdempotencyKey(flat, `prepay:new:${amountText}`);
  const answer = await paymentResponse(flat, await submitPrepayment(scope, { amount: amountText }, flat, key), async () => back);
  if (answer.status !== 400) return answer;
  // A refused payment: the form again with its values, the amount still locked.
  const body = (await answer.json()) as { reply: PaymentReply };
  return Response.json({ step: "pay", locked, reply: body.reply } satisfies ActionData, { status: 400 });
}

export default function Prepay() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("prepay");
  const lang = useLang();
  if (actionData && "redirectForm" in actionData) return <RedirectForm form={actionData.redirectForm} />;
  const money = (n: number) => formatMoney(n, data.currency);
  const usable = data.enabled && !data.hidden;
  const locked = actionData && "step" in actionData && actionData.step === "pay" ? actionData : null;
  const refused = actionData && "step" in actionData && actionData.step === "amount" ? actionData : null;
  const existingReply = data.existing && actionData && "reply" in actionData && !("step" in actionData) ? actionData.reply : null;
  return (
    <section className="stack prepay-page">
      <h1>{t("title")}</h1>
      {data.message ? (
        <p className={`alert ${data.message === "success" ? "alert-success" : "alert-danger"}`} role="status">
          {t(`landing.${data.message}`)}
        </p>
      ) : null}
      {data.fapiaoNotice ? (
        <p className="alert alert-success" role="status">
          {t(data.fapiaoNotice)}
        </p>
      ) : null}
      {!data.enabled ? <p className="alert alert-info">{t("disabled")}</p> : null}
      {data.hidden ? <p className="alert alert-info">{t("hidden")}</p> : null}
      {usable ? (
        <p className="prepay-banner card" aria-live="polite">
          <span>{t("banner")}</span> <strong className="prepay-banner-amount">{money(data.totalBalance)}</strong>
        </p>
      ) : null}

      {usable && data.existing ? (
        <section className="card stack" aria-labelledby="prepay-existing">
          <h2 id="prepay-existing">{t("existing.title")}</h2>
          {data.existing.issued ? (
            <p className="alert alert-success" role="status">
              {t("issued.title", { number: data.existing.number })}
            </p>
          ) : null}
          <dl className="facts">
            <dt>{t("existing.number")}</dt>
            <dd>
              <a href={paths.api.retainerInvoicePdf(data.existing.number)}>{data.existing.number}</a>
            </dd>
            <dt>{t("existing.balance")}</dt>
            <dd>
              <strong>{formatMoney(data.existing.amount, data.existing.currency)}</strong>
            </dd>
          </dl>
          {data.existing.bank ? (
            <div className="alert alert-info stack prepay-bank">
              <p>{t("issued.text", { amount: formatMoney(data.existing.amount, data.existing.currency), number: data.existing.number })}</p>
              <dl className="facts">
                <dt>{t("bank.beneficiaryLabel")}</dt>
                <dd>{data.existing.bank.beneficiary}</dd>
                <dt>{t("bank.bankNameLabel")}</dt>
                <dd>{data.existing.bank.bankName}</dd>
                <dt>{t("bank.accountLabel")}</dt>
                <dd className="break">{data.existing.bank.account}</dd>
                <dt>{t("bank.swiftLabel")}</dt>
                <dd>{data.existing.bank.swift}</dd>
              </dl>
              <p>{t("issued.orPay")}</p>
            </div>
          ) : null}
          <PaymentForm key={data.existing.number} data={data.existing.data} reply={existingReply} submitLabel={t("make.pay")} />
          <p>
            <Link to={paths.prepay(lang)}>{t("existing.new")}</Link>
          </p>
        </section>
      ) : null}

      {usable && !data.existing ? (
        <section className="card stack" aria-labelledby="prepay-make">
          <h2 id="prepay-make">{t("make.title")}</h2>
          {locked ? (
            <>
              <div className="prepay-locked">
                <span>{t("make.locked")}</span> <strong>{formatMoney(locked.locked.amount, locked.locked.currency)}</strong>
                <Form method="post" replace className="prepay-start-over">
                  <button type="submit" name="intent" value="start-over" className="button button-link">
                    {t("make.startOver")}
                  </button>
                </Form>
              </div>
              <PaymentForm
                key={locked.locked.data.idempotencyKey}
                data={locked.locked.data}
                reply={locked.reply ?? null}
                submitLabel={t("make.pay")}
                hidden={{ amount: locked.locked.amountText }}
              />
            </>
          ) : (
            <Form method="post" replace className="stack prepay-amount-form" noValidate>
              {/* The refused amount at the top, linking to its field, as every long form does (issue 22 item 6). */}
              <ErrorSummary
                id="prepay-error-summary"
                entries={
                  refused
                    ? [
                        {
                          id: "prepay-amount",
                          label: t("make.amount", { currency: data.currency.isoCode }),
                          message: t(refused.error, { price: refused.price ?? data.minimum, defaultValue: t("errors.failed") }),
                        },
                      ]
                    : []
                }
              />
              <div className={`field${refused ? " field-invalid" : ""}`}>
                <label htmlFor="prepay-amount">{t("make.amount", { currency: data.currency.isoCode })}</label>
                <input
                  id="prepay-amount"
                  name="amount"
                  type="text"
                  inputMode="decimal"
                  autoComplete="off"
                  required
                  maxLength={PREPAY_AMOUNT_MAX_LENGTH}
                  defaultValue={refused?.amountText ?? ""}
                  aria-invalid={refused ? true : undefined}
                  aria-describedby={refused ? "prepay-amount-error" : "prepay-amount-hint"}
                />
                <p className="field-hint" id="prepay-amount-hint">
                  {t("make.hint", { price: data.minimum })}
                </p>
                {refused ? (
                  <p className="field-error" id="prepay-amount-error" role="alert">
                    {t(refused.error, { price: refused.price ?? data.minimum, defaultValue: t("errors.failed") })}
                  </p>
                ) : null}
              </div>
              <div className="actions">
                <button type="submit" name="intent" value="amount" className="button button-primary">
                  {t("make.next")}
                </button>
              </div>
            </Form>
          )}
        </section>
      ) : null}

      {data.hidden ? null : (
        <PrepayLists
          prepayments={data.prepayments}
          credits={data.credits}
          all={data.all}
          current={data.existing?.number ?? null}
          payable={usable}
        />
      )}
    </section>
  );
}
