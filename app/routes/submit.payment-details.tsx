import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { useLang } from "~/lib/use-lang";
import { formatMoney } from "~/lib/format";
import { guardStep, readStepForm, requireDraft, wizardEnv } from "~/lib/wizard.server";
import { getFixedT } from "~/i18n.server";
import { formFiles, priceForm } from "../../server/order-form/service";
import { availablePaymentMethods, placeOrder } from "../../server/orders/place";
import { PAYMENT_METHOD } from "~/lib/order-constants";

export const handle = { i18n: ["order", "catalogue"] };

// Payment: bank transfer (an unpaid invoice) or free when nothing is due; the other methods come later.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const w = await wizardEnv(request, context);
  const form = await requireDraft(w);
  await guardStep(w, form, "payment-details");
  // Paying needs an account: anonymous drafts are claimed on sign-in and come back here.
  if (!w.env.owner.userId) throw redirect(`/${w.lang}/login?redirect=${encodeURIComponent(`/${w.lang}/researcher/submit/payment-details`)}`);
  const [t, price, files] = await Promise.all([getFixedT(request, "order"), priceForm(w.env, form).catch(() => null), formFiles(w.env, form)]);
  const total = price?.total ?? 0;
  return {
    title: t("steps.payment-details"),
    methods: price ? availablePaymentMethods(form, total, w.env.impersonating) : [],
    total,
    currency: price?.currency ?? null,
    noServices: !price,
    noFiles: !files.some((f) => f.kind === "main" || f.kind === "figure"),
    blocked: Boolean(price && (price.noServiceOption || price.veryLongWordCount || price.quoteOnly)),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const w = await wizardEnv(request, context);
  const form = await requireDraft(w);
  const { fields } = await readStepForm(w, request, form, context.ip);
  const r = await placeOrder(w.env, form, {
    paymentMethodId: Number(fields.paymentMethodId),
    purchaseOrder: fields.purchaseOrder,
    acceptTerms: fields.acceptTerms === "on",
  });
  if (!r.ok) return Response.json({ error: r.error }, { status: r.error === "sign-in-required" ? 401 : 400 });
  return redirect(`/${w.lang}/researcher/index/details/${r.order.externalId}/thank-you`, { status: 303 });
}

export default function PaymentDetails() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation("order");
  const lang = useLang();
  if (data.noServices || data.noFiles) {
    return (
      <section className="alert alert-danger" role="alert">
        <p>{t(data.noServices ? "errors.no-services" : "errors.no-files")}</p>
        <Link to={`/${lang}/researcher/submit/${data.noServices ? "manuscript-services" : "details"}`}>{t("goBack")}</Link>
      </section>
    );
  }
  return (
    <section className="stack">
      <h1>{t("steps.payment-details")}</h1>
      {data.currency ? <p className="lead">{t("payment.amountDue", { amount: formatMoney(data.total, data.currency) })}</p> : null}
      {data.blocked ? <p className="alert alert-warning">{t("payment.contactSupport")}</p> : null}
      {data.methods.length === 0 ? <p className="alert alert-info">{t("payment.noMethods")}</p> : null}
      <Form method="post" className="stack" replace>
        <fieldset>
          <legend>{t("payment.method")}</legend>
          {data.methods.map((m, i) => (
            <label key={m} className="checkbox">
              <input type="radio" name="paymentMethodId" value={m} defaultChecked={i === 0} />
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
          <input type="checkbox" name="acceptTerms" />
          <span>{t("payment.acceptTerms")}</span>
        </label>
        {actionData?.error ? (
          <p className="field-error" role="alert">
            {t(`payment.errors.${actionData.error}`)}
          </p>
        ) : null}
        <p className="wizard-actions">
          <Link to={`/${lang}/researcher/submit/details`}>← {t("back")}</Link>
          <button type="submit" className="button button-primary" disabled={navigation.state !== "idle" || data.methods.length === 0 || data.blocked}>
            {t("payment.placeOrder")}
          </button>
        </p>
      </Form>
    </section>
  );
}
