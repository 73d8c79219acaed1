import { useEffect, useState } from "react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSubmit } from "@remix-run/react";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { readFormData } from "#app/lib/forms.server";
import { pageIdempotencyKey, paymentFields, paymentResponse, type PaymentActionData } from "#app/lib/payment.server";
import { TRANSLATION_LANGUAGES, type TranslationLanguage } from "#common/digital/constants";
import { formatMoney, type CurrencyFormat } from "#common/format";
import { paths } from "#common/paths";
import type { PaymentFormData } from "#common/payments/schemas";
import type { AvailablePurchase } from "#server/digital/types";
import { digitalPaymentForm, loadDigitalOrders, purchaseByReceipt, submitDigitalPayment } from "#server/digital";
import { digitalPage } from "#app/components/digital/access.server";
import { PurchasePoller } from "#app/components/digital/polling";
import { Checkout } from "#app/components/digital/Checkout";

export const meta = titleMeta;
export const handle = { i18n: ["digital", "payment"] };

/** The choice (?package=…&language=…): a GET form, so choosing changes nothing and works without JavaScript. */
function choice(q: URLSearchParams, offers: AvailablePurchase[], languages: TranslationLanguage[]) {
  const offer = offers.find((o) => o.identity === q.get("package")) ?? offers[0] ?? null;
  const asked = q.get("language");
  const language =
    (TRANSLATION_LANGUAGES as readonly string[]).includes(asked ?? "") && languages.includes(asked as TranslationLanguage)
      ? (asked as TranslationLanguage)
      : (languages[0] ?? null);
  return { offer, language };
}

// /{lang}/researcher/digital-translations/purchase/{receiptCode?}/{success?} (spec 3 §2, §4; ADR 074): the language
// selector and the package radio choice (name, uses, price, the full price struck through when lower), then the
// shared payment form for that choice. Back from the payment the page waits for the purchase like the subscription
// (purchaseByReceipt every PURCHASE_POLL_SECONDS) and goes to the list once it is active.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { scope } = await digitalPage(request, context, "translations");
  const t = await getFixedT(request, "digital");
  const headers = { "Cache-Control": "private, no-store" };
  if (params.receiptCode) {
    const r = await purchaseByReceipt(scope, params.receiptCode);
    if (!r.ok || r.value.type !== "translation") throw redirect(paths.digitalTranslationsPurchase(scope.lang));
    if (r.value.active) throw redirect(paths.digitalTranslations(scope.lang, undefined, { notice: "purchased" }));
    return Response.json({ title: t("purchase.title"), waiting: true }, { headers });
  }
  const load = await loadDigitalOrders(scope);
  if (!load.ok) throw new Response("Bad Request", { status: 400 });
  const offers = load.value.availableDigitalPurchases.filter((o) => o.type === "translation");
  const { offer, language } = choice(new URL(request.url).searchParams, offers, load.value.languages);
  if (!offer || !language)
    return Response.json({ title: t("purchase.title"), waiting: false, offers, languages: [], selected: null }, { headers });
  const form = await digitalPaymentForm(scope, { availablePurchaseIdentity: offer.identity, language });
  if (!form.ok) throw new Response("Not Found", { status: 404 });
  return Response.json(
    { title: t("purchase.title"), waiting: false, offers, languages: load.value.languages, selected: { language, ...form.value } },
    { headers },
  );
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { scope } = await digitalPage(request, context, "translations");
  if (params.receiptCode) throw redirect(paths.digitalTranslationsPurchase(scope.lang, params.receiptCode, true), { status: 303 });
  const flat = paymentFields(await readFormData(request));
  const language = (TRANSLATION_LANGUAGES as readonly string[]).includes(flat.language ?? "")
    ? (flat.language as TranslationLanguage)
    : undefined;
  const target = { availablePurchaseIdentity: flat.package ?? "", language };
  const key = pageIdempotencyKey(flat, `digital:${target.availablePurchaseIdentity}:${language ?? ""}`);
  return paymentResponse(flat, await submitDigitalPayment(scope, target, flat, key), async () => null);
}

interface LoaderData {
  waiting: boolean;
  offers?: AvailablePurchase[];
  languages?: TranslationLanguage[];
  selected?: {
    language: TranslationLanguage;
    offer: AvailablePurchase;
    amount: number;
    currency: CurrencyFormat;
    data: PaymentFormData;
  } | null;
}

export default function DigitalPurchase() {
  const data = useLoaderData() as LoaderData;
  const actionData = useActionData<PaymentActionData>();
  const { t } = useTranslation("digital");
  const lang = useLang();
  const submit = useSubmit();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const selected = data.selected ?? null;
  return (
    <div className="gc-page digital-page">
      <p>
        <a href={paths.digitalTranslations(lang)}>‹ {t("translations.back")}</a>
      </p>
      <h1>{t("purchase.title")}</h1>
      {data.waiting ? (
        <section className="card stack digital-waiting" aria-live="polite">
          <PurchasePoller active />
          <p className="digital-status digital-status-processing" role="status">
            <span className="spinner" aria-hidden="true" /> {t("subscribe.waiting")}
          </p>
          <p className="field-hint">{t("subscribe.waitingHint")}</p>
        </section>
      ) : selected ? (
        <div className="digital-checkout stack">
          <Form
            method="get"
            className="card stack digital-choice"
            onChange={(event) => submit(event.currentTarget, { preventScrollReset: true, replace: true })}
          >
            <div className="field">
              <label htmlFor="digital-purchase-language">{t("purchase.language")}</label>
              <select id="digital-purchase-language" name="language" defaultValue={selected.language}>
                {(data.languages ?? []).map((l) => (
                  <option key={l} value={l}>
                    {t(`languages.${l}`)}
                  </option>
                ))}
              </select>
            </div>
            <fieldset className="field digital-packages">
              <legend>{t("purchase.package")}</legend>
              {(data.offers ?? []).map((o) => (
                <div key={o.identity} className="radio digital-package">
                  <input
                    id={`digital-package-${o.identity}`}
                    type="radio"
                    name="package"
                    value={o.identity}
                    defaultChecked={o.identity === selected.offer.identity}
                  />
                  <label htmlFor={`digital-package-${o.identity}`}>
                    <strong>{t(o.name)}</strong> · {t("purchase.uses", { count: o.numberOfUsesAvailable ?? 0 })} ·{" "}
                    {o.fullPrice > o.price ? (
                      <s aria-label={t("purchase.fullPrice")}>{formatMoney(o.fullPrice, selected.currency)}</s>
                    ) : null}{" "}
                    <strong>{formatMoney(o.price, selected.currency)}</strong>
                  </label>
                </div>
              ))}
            </fieldset>
            {/* Until the page's script runs (and always without JavaScript) the choice is sent by this button;
                once hydrated, every change sends it. */}
            {hydrated ? null : (
              <div>
                <button type="submit" className="button">
                  {t("purchase.choose")}
                </button>
              </div>
            )}
          </Form>
          <section className="card stack">
            <h2>
              {t(selected.offer.name)} — {t(`languages.${selected.language}`)}: {formatMoney(selected.amount, selected.currency)}
            </h2>
            <p className="field-hint">{t("translations.disclaimer")}</p>
            <Checkout
              data={selected.data}
              actionData={actionData}
              submitLabel={t("purchase.pay")}
              hidden={{ package: selected.offer.identity, language: selected.language }}
            />
          </section>
        </div>
      ) : (
        <p className="alert alert-info">{t("purchase.none")}</p>
      )}
    </div>
  );
}
