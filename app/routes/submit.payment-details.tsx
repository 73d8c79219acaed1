import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { titleMeta } from "#app/lib/meta";
import { useEffect, useState } from "react";
import { useLang } from "#app/lib/use-lang";
import { formatMoney } from "#common/format";
import { loadDraft, loadStep, parseStep, readStepForm, wizardScope, stepAction } from "#app/lib/wizard.server";
import { readFormData } from "#app/lib/forms.server";
import { paymentForm, referralEmailsBody } from "#common/order-form/schemas";
import { formFiles, priceForm, saveReferralEmails } from "#server/order-form";
import { placedOrderOfForm, placeOrder } from "#server/orders/place";
import { errorStatus } from "#common/result";
import { paths } from "#common/paths";
import { availablePaymentMethods } from "#server/payments";
import { referralCredit } from "#server/accounts/account";
import { PAYMENT_METHOD } from "#common/order-form/constants";
import { OrderPeek } from "#app/components/OrderSummary";

export const meta = titleMeta;
export const handle = { i18n: ["order", "catalogue"] };

// Payment: bank transfer (an unpaid invoice) or free when nothing is due; the other methods come later.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { w, form, t, catalogue } = await loadStep(request, context, "payment-details");
  // Paying needs an account: anonymous drafts are claimed on sign-in and come back here.
  if (!w.scope.userId) throw redirect(paths.login(w.lang, { redirect: paths.submit(w.lang, "payment-details") }));
  const [price, files] = await Promise.all([priceForm(w.scope, form, catalogue).catch(() => null), formFiles(w.scope, form)]);
  const total = price?.total ?? 0;
  return {
    title: t("steps.payment-details"),
    methods: price ? availablePaymentMethods(form, total, w.scope.impersonatorId !== null) : [],
    total,
    currency: price?.currency ?? null,
    noServices: !price,
    noFiles: !files.some((f) => f.kind === "main" || f.kind === "figure"),
    blocked: Boolean(price && (price.noServiceOption || price.veryLongWordCount || price.quoteOnly)),
    formId: form.id,
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
  // placing it again answers that order (placeOrder is idempotent per form), where a fresh read would
  // find no draft and send this submit to a new form.
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
  const r = await placeOrder(w.scope, form, parseStep(fields, paymentForm));
  if (!r.ok) return Response.json({ error: r.error }, { status: errorStatus(r.error) });
  return redirect(paths.orderThankYou(w.lang, r.value.externalId), { status: 303 });
}

export default function PaymentDetails() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation("order");
  const lang = useLang();
  const error = actionData && "error" in actionData ? actionData.error : null;
  // The field a refusal is about is marked invalid and described by the message (issue 9 §4).
  const aria = (code: string) => (error === code ? { "aria-invalid": true as const, "aria-describedby": "payment-error" } : {});
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
  return (
    <section className="stack">
      <h1>{t("steps.payment-details")}</h1>
      {data.currency ? (
        <p className="amount-due">
          <span>{t("payment.amountDueLabel")}</span>
          <strong>{formatMoney(data.total, data.currency)}</strong>
        </p>
      ) : null}
      {data.blocked ? <p className="alert alert-warning">{t("payment.contactSupport")}</p> : null}
      {data.methods.length === 0 ? <p className="alert alert-info">{t("payment.noMethods")}</p> : null}
      <Form method="post" className="stack" replace>
        <input type="hidden" name="orderFormId" value={data.formId} />
        <fieldset>
          <legend>{t("payment.method")}</legend>
          {data.methods.map((m, i) => (
            <label key={m} className="checkbox">
              <input type="radio" name="paymentMethodId" value={m} defaultChecked={i === 0} {...aria("payment-method-required")} />
              <span>{t(`payment.methods.${m}`)}</span>
            </label>
          ))}
        </fieldset>
        {data.methods.includes(PAYMENT_METHOD.bankTransfer) ? (
          <>
            <p className="alert alert-info">{t("payment.bankTransferInfo")}</p>
            <div className="field">
              <label htmlFor="purchaseOrder">{t("payment.purchaseOrder")}</label>
              <input id="purchaseOrder" name="purchaseOrder" maxLength={60} />
            </div>
          </>
        ) : null}
        <label className="checkbox">
          <input type="checkbox" name="acceptTerms" {...aria("accept-terms")} />
          <span>{t("payment.acceptTerms")}</span>
        </label>
        {actionData && "error" in actionData && actionData.error ? (
          <p className="field-error" id="payment-error" role="alert">
            {t(`payment.errors.${actionData.error}`)}
          </p>
        ) : null}
        <OrderPeek />
        <div className="wizard-actions">
          <Link to={paths.submit(lang, "details")}>← {t("back")}</Link>
          <button
            type="submit"
            className="button button-primary button-large"
            disabled={navigation.state !== "idle" || data.methods.length === 0 || data.blocked}
          >
            {t("payment.placeOrder")}
          </button>
        </div>
      </Form>
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
