import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { titleMeta } from "#app/lib/meta";
import { useEffect, useState } from "react";
import { useLang } from "#app/lib/use-lang";
import { formatMoney } from "#common/format";
import { loadDraft, loadStep, parseStep, readStepForm, wizardScope, stepAction } from "#app/lib/wizard.server";
import { readFormData } from "#app/lib/forms.server";
import { pageIdempotencyKey, paymentFields, paymentResponse, refusedPayment, type PaymentActionData } from "#app/lib/payment.server";
import { referralEmailsBody } from "#common/order-form/schemas";
import { formFiles, saveReferralEmails } from "#server/order-form";
import { placedOrderOfForm } from "#server/orders/place";
import { paths } from "#common/paths";
import { orderPaymentForm, payOrderForm } from "#server/orders/pay";
import { referralCredit } from "#server/accounts/account";
import { OrderPeek } from "#app/components/OrderSummary";
import { PaymentForm } from "#app/components/payment/PaymentForm";
import { RedirectForm } from "#app/components/payment/RedirectForm";
import { balancesAnswer, withPaymentForm, type BalanceActionData } from "#app/lib/balances.server";
import { parsePaymentForm, readBalanceChoice } from "#common/payments/form-schema";

export const meta = titleMeta;
export const handle = { i18n: ["order", "catalogue", "payment", "staffpay", "credits", "fapiao"] };

// Payment (issue 12 §1): the shared payment form; the methods the order's rules allow, free when nothing is due.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { w, form, t } = await loadStep(request, context, "payment-details");
  // Paying needs an account: anonymous drafts are claimed on sign-in and come back here.
  if (!w.scope.userId) throw redirect(paths.login(w.lang, { redirect: paths.submit(w.lang, "payment-details") }));
  const [{ price, data }, files] = await Promise.all([orderPaymentForm(w.scope, form), formFiles(w.scope, form)]);
  return {
    title: t("steps.payment-details"),
    payment: data,
    total: price?.total ?? 0,
    currency: price?.currency ?? null,
    noServices: !price,
    noFiles: !files.some((f) => f.kind === "main" || f.kind === "figure"),
    blocked: Boolean(price && (price.noServiceOption || price.veryLongWordCount || price.quoteOnly)),
    formId: form.id,
    voucherCode: form.voucher_code ?? null,
    referralEmails: form.referral_emails ?? [],
    referralCredit: await referralCredit(w.scope, form.currency_iso),
  };
}

async function handleStep({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const draft = await loadDraft(w);
  // The page posts the id of the form it showed: a repeated submit (a double click, a resent request, a
  // second tab) after that form was placed shows its order again instead of a new form (issue 10 §13).
  const fields = draft ? (await readStepForm(w, request, draft, context.ip)).fields : await readFormData(request);
  const shown = fields.get("orderFormId");
  if (typeof shown === "string" && shown !== draft?.id) {
    const externalId = await placedOrderOfForm(w.scope, shown);
    if (externalId) return redirect(paths.orderThankYou(w.lang, externalId), { status: 303 });
  }
  // The draft read at the start, not a second read: a concurrent submit may have placed it since, and
  // paying it again answers that order (payment is idempotent per form and key).
  const form = draft;
  if (!form || !(fields instanceof URLSearchParams)) return redirect(paths.submit(w.lang, "new"), { status: 303 });
  // Referrals and payment: the same schemas and functions as PUT .../referral-emails and POST .../payments.
  if (fields.get("intent") === "referrals") {
    const r = await saveReferralEmails(w.scope, form, parseStep(fields, referralEmailsBody).referralEmails);
    return Response.json(
      { referral: r.ok ? "referral-email-save-success" : r.error, referralEmails: r.ok ? r.value.referral_emails : form.referral_emails },
      { status: r.ok ? 200 : 400 },
    );
  }
  const flat = paymentFields(fields);
  // The form for the posted balance choice (issue 13): "Update total" stops here, paying goes on with it.
  const balance = readBalanceChoice(flat);
  const { data, balanceErrors } = await orderPaymentForm(w.scope, form, balance.choice);
  const early = balancesAnswer(flat, data, balance.errors ?? balanceErrors);
  if (early) return early;
  const submission = parsePaymentForm(flat, data);
  if (!submission.ok) return withPaymentForm(refusedPayment(flat, submission.fieldErrors, submission.error), data);
  const r = await payOrderForm(w.scope, form, submission.value, pageIdempotencyKey(flat, `order-form:${form.id}`));
  return withPaymentForm(
    await paymentResponse(flat, r, async () => {
      const externalId = await placedOrderOfForm(w.scope, form.id);
      return externalId ? paths.orderThankYou(w.lang, externalId) : null;
    }),
    data,
  );
}

type ActionData = PaymentActionData | BalanceActionData | { referral: string; referralEmails: string[] | null };

export default function PaymentDetails() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("order");
  const lang = useLang();
  if (data.noServices || data.noFiles) {
    return (
      <section className="alert alert-danger" role="alert">
        <p>{t(data.noServices ? "errors.no-services" : "errors.no-files")}</p>
        {/* No files yet ("upload files later"): the link leads to the details step's uploads (ADR 020). */}
        <Link to={data.noServices ? paths.submit(lang, "manuscript-services") : `${paths.submit(lang, "details")}#files`}>
          {t(data.noServices ? "goBack" : "payment.uploadFiles")}
        </Link>
      </section>
    );
  }
  if (actionData && "redirectForm" in actionData) return <RedirectForm form={actionData.redirectForm} />;
  // After "Update total" (or a refusal) the form computed for the posted balance choice.
  const payment = actionData && "payment" in actionData ? actionData.payment : data.payment;
  return (
    <section className="stack">
      <h1>{t("steps.payment-details")}</h1>
      {data.currency ? (
        <p className="amount-due">
          <span>{t("payment.amountDueLabel")}</span>
          <strong>{formatMoney(payment.balances ? payment.total : data.total, data.currency)}</strong>
        </p>
      ) : null}
      {data.blocked ? <p className="alert alert-warning">{t("payment.contactSupport")}</p> : null}
      {payment.methods.length === 0 ? <p className="alert alert-info">{t("payment.noMethods")}</p> : null}
      <PaymentForm
        // A new set of methods (free once balances cover the total) starts the choice afresh.
        key={payment.methods.map((m) => m.id).join(",")}
        data={payment}
        reply={actionData && "reply" in actionData ? actionData.reply : null}
        submitLabel={t("payment.placeOrder")}
        hidden={{ orderFormId: data.formId }}
        preselect
        blocked={data.blocked}
        voucher={{ formId: data.formId, appliedCode: data.voucherCode }}
      >
        <OrderPeek />
        <p>
          <Link to={paths.submit(lang, "details")}>← {t("back")}</Link>
        </p>
      </PaymentForm>
      <ReferralForm
        emails={(actionData && "referralEmails" in actionData ? actionData.referralEmails : data.referralEmails) ?? []}
        message={actionData && "referral" in actionData ? actionData.referral : null}
        amount={formatMoney(data.referralCredit.amount, data.referralCredit.currency)}
      />
    </section>
  );
}

/** Invite colleagues (spec 1 §5 referral e-mails): comma-separated, at most 10 in all. */
function ReferralForm({ emails, message, amount }: { emails: string[]; message: string | null; amount: string }) {
  const { t } = useTranslation("order");
  const [value, setValue] = useState("");
  // Without JavaScript the button stays enabled (the server validates); with it, blank input disables it.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "referrals";
  const failed = Boolean(message) && message !== "referral-email-save-success";
  return (
    // Secondary to paying: a closed <details> below the order button (open again after a reply).
    <details className="referral-box" open={Boolean(message) || undefined}>
      <summary>{t("referrals.title")}</summary>
      <Form method="post" className="stack referral-form">
        <p>{t("referrals.body", { amount })}</p>
        {emails.length ? <p>{t("referrals.invited", { emails: emails.join(", ") })}</p> : null}
        <input type="hidden" name="intent" value="referrals" />
        <label htmlFor="referralEmails">{t("referrals.label")}</label>
        <input
          id="referralEmails"
          name="referralEmails"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder="name@example.org, name2@example.org"
          aria-invalid={failed || undefined}
          aria-describedby={failed ? "referralEmails-error" : undefined}
        />
        {message ? (
          <p className={failed ? "field-error" : "alert alert-success"} id={failed ? "referralEmails-error" : undefined} role="status">
            {t(`referrals.${message}`)}
          </p>
        ) : null}
        {/* The invite button is disabled while the input is blank or busy (with JavaScript). */}
        <button type="submit" className="button" disabled={busy || (hydrated && value.trim() === "")}>
          {t("referrals.invite")}
        </button>
      </Form>
    </details>
  );
}

// A save racing the form's placing goes to the placed order, not a 500 (stepAction).
export const action = stepAction(handleStep);
