import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { readFormData } from "#app/lib/forms.server";
import { pageIdempotencyKey, paymentFields, paymentResponse, type PaymentActionData } from "#app/lib/payment.server";
import { formatDate, formatMoney, type CurrencyFormat } from "#common/format";
import { paths } from "#common/paths";
import { SUBSCRIPTION_DISCOUNT_PERCENT } from "#common/digital/constants";
import type { PaymentFormData } from "#common/payments/schemas";
import type { AvailablePurchase } from "#server/digital/types";
import { digitalPaymentForm, purchaseByReceipt, submitDigitalPayment } from "#server/digital";
import { digitalPage } from "#app/components/digital/access.server";
import { PurchasePoller } from "#app/components/digital/polling";
import { Checkout } from "#app/components/digital/Checkout";

export const meta = titleMeta;
export const handle = { i18n: ["digital", "payment"] };

const OFFER = "editing-annual";

// /{lang}/researcher/digital-editing/subscribe/{receiptCode?}/{success?} (spec 3 §2, §4, §9; ADR 074): the annual
// subscription at 30 % off (list price struck through, valid one year from today) and the shared payment form.
// Back from the payment ({receiptCode}/success) the page waits for the purchase: purchaseByReceipt every
// PURCHASE_POLL_SECONDS (a loader revalidation with JavaScript, <noscript> meta refresh without), and once it is
// active the loader redirects to the list. An unknown or another's receipt code goes back to the offer.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { scope } = await digitalPage(request, context, "editing");
  const t = await getFixedT(request, "digital");
  const headers = { "Cache-Control": "private, no-store" };
  if (params.receiptCode) {
    const r = await purchaseByReceipt(scope, params.receiptCode);
    if (!r.ok || r.value.type !== "editing") throw redirect(paths.digitalEditingSubscribe(scope.lang));
    if (r.value.active) throw redirect(paths.digitalEditing(scope.lang, undefined, { notice: "subscribed" }));
    return Response.json({ title: t("subscribe.title"), waiting: true, offer: null }, { headers });
  }
  const form = await digitalPaymentForm(scope, { availablePurchaseIdentity: OFFER });
  if (!form.ok) throw new Response("Not Found", { status: 404 });
  return Response.json({ title: t("subscribe.title"), waiting: false, offer: form.value, today: new Date().toISOString() }, { headers });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { scope } = await digitalPage(request, context, "editing");
  if (params.receiptCode) throw redirect(paths.digitalEditingSubscribe(scope.lang, params.receiptCode, true), { status: 303 });
  const flat = paymentFields(await readFormData(request));
  const key = pageIdempotencyKey(flat, `digital:${OFFER}`);
  const r = await submitDigitalPayment(scope, { availablePurchaseIdentity: OFFER }, flat, key);
  return paymentResponse(flat, r, async () => null);
}

interface LoaderData {
  waiting: boolean;
  offer: { offer: AvailablePurchase; amount: number; currency: CurrencyFormat; data: PaymentFormData } | null;
  today?: string;
}

export default function DigitalSubscribe() {
  const data = useLoaderData() as LoaderData;
  const actionData = useActionData<PaymentActionData>();
  const { t } = useTranslation("digital");
  const lang = useLang();
  return (
    <div className="gc-page digital-page">
      <p>
        <a href={paths.digitalEditing(lang)}>‹ {t("details.back")}</a>
      </p>
      <h1>{t("subscribe.title")}</h1>
      {data.waiting ? (
        <section className="card stack digital-waiting" aria-live="polite">
          <PurchasePoller active />
          <p className="digital-status digital-status-processing" role="status">
            <span className="spinner" aria-hidden="true" /> {t("subscribe.waiting")}
          </p>
          <p className="field-hint">{t("subscribe.waitingHint")}</p>
        </section>
      ) : data.offer ? (
        <div className="digital-checkout stack">
          <section className="card stack digital-offer">
            <h2>{t("offers.editing-annual")}</h2>
            <p className="digital-price">
              {data.offer.offer.fullPrice > data.offer.offer.price ? (
                <s className="digital-list-price" aria-label={t("subscribe.listPrice")}>
                  {formatMoney(data.offer.offer.fullPrice, data.offer.currency)}
                </s>
              ) : null}{" "}
              <strong>{formatMoney(data.offer.offer.price, data.offer.currency)}</strong>{" "}
              <span className="badge digital-discount">{t("subscribe.discount", { percent: SUBSCRIPTION_DISCOUNT_PERCENT })}</span>
            </p>
            <p>{t("subscribe.valid", { date: formatDate(data.today ?? new Date().toISOString(), lang) })}</p>
            <p className="field-hint">{t("editing.disclaimer")}</p>
          </section>
          <section className="card stack">
            <Checkout data={data.offer.data} actionData={actionData} submitLabel={t("subscribe.pay")} />
          </section>
        </div>
      ) : null}
    </div>
  );
}
