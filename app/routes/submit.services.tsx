import { Form, Link, useActionData, useFetcher, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { titleMeta } from "#app/lib/meta";
import { formatMoney } from "#common/format";
import { loadStep, parseStep, readStepForm, refused, requireDraft, toCurrentStep, wizardScope, stepAction } from "#app/lib/wizard.server";
import { deliveryTierForm, manuscriptDetailsBody, serviceToggleForm, servicesForm } from "#common/order-form/schemas";
import { QuantityField, StepActions, TierButton, ToggleServiceButton, stepErrorId } from "#app/components/WizardStep";
import {
  priceForm,
  type SaveResult,
  saveDeliveryTier,
  saveManuscriptDetails,
  saveServices,
  selectionsOf,
  serviceCards,
  toggleService,
  saveGoingBack,
  stepBefore,
  wordBinMismatch,
} from "#server/order-form";
import { paths } from "#common/paths";

export const meta = titleMeta;
export const handle = { i18n: ["order", "catalogue"] };

/**
 * Descriptions that belong to no service card but to something beside it (spec 1 §3 "description modals"): the
 * editing certificate on editing cards, digital translation on translation cards, how words are counted beside
 * the word count, faster delivery beside the delivery tiers. They open like a card's "learn more" (?about=).
 */
const SIDE_DESCRIPTIONS = ["editing-certificate", "digital-translation", "word-count", "rush-delivery"] as const;
const CARD_SIDE_DESCRIPTION: Record<string, (typeof SIDE_DESCRIPTIONS)[number]> = {
  editing: "editing-certificate",
  translation: "digital-translation",
};

function stepOf(url: string) {
  return url.includes("/multimedia-services") ? ("multimedia-services" as const) : ("manuscript-services" as const);
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const step = stepOf(new URL(request.url).pathname);
  const { w, form, t, catalogue } = await loadStep(request, context, step);
  const snapshot = await context.app.config.snapshot();
  // The cards as GET /api/order-form/{id}/load lists them (server/order-form/service-cards.ts); a rework form
  // offers the rework services of its original order instead of the manuscript services.
  const groups = await serviceCards(w.scope, form, catalogue, step);
  const price = await priceForm(w.scope, form, catalogue).catch(() => null);
  const currencyIso = form.currency_iso.trim();
  const about = new URL(request.url).searchParams.get("about");
  // The closable word-bin notice (spec 1 §4 "Word count"): closing is a link (?binNotice=closed), not a write.
  const binNotice =
    step === "manuscript-services" && new URL(request.url).searchParams.get("binNotice") !== "closed"
      ? await wordBinMismatch(w.scope, form)
      : null;
  return {
    title: t(`steps.${step}`),
    step,
    columns: snapshot.flags.featured_editing_service_component,
    groups: groups.map((g) => ({
      slug: g.slug,
      nameKey: g.nameKey,
      columns: g.columns,
      services: g.services.map((s) => ({
        slug: s.slug,
        nameKey: s.nameKey,
        descriptionKey: s.descriptionKey,
        featured: s.featured,
        recommended: s.recommended,
        counted: s.counted,
        fromPrice: s.fromPrice,
        selected: s.selected,
      })),
    })),
    currency: price?.currency ?? {
      isoCode: currencyIso,
      sign: catalogue.currencies[currencyIso]?.sign ?? "$",
      numDecimals: catalogue.currencies[currencyIso]?.numDecimals ?? 2,
    },
    quantities: Object.fromEntries((form.selections ?? []).map((s) => [s.serviceSlug, s.quantity ?? 1])),
    declineEditing: form.decline_editing,
    deliveryTier: form.delivery_tier,
    rushAvailable: price?.rushAvailable ?? false,
    expressAvailable: price?.expressAvailable ?? false,
    rushPriceDifference: price?.rushPriceDifference ?? 0,
    expressPriceDifference: price?.expressPriceDifference ?? 0,
    scientificSelected: (form.selections ?? []).some((s) => s.serviceSlug === "scientific-editing"),
    wordCount: form.word_count,
    notices: price?.notices ?? [],
    blocked: Boolean(price && (price.noServiceOption || price.veryLongWordCount)),
    binNotice,
    about:
      about &&
      ((SIDE_DESCRIPTIONS as readonly string[]).includes(about) ||
        catalogue.services.some((s) => s.descriptionKey === `catalogue:descriptions.${about}`))
        ? about
        : null,
  };
}

async function handleStep({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  const here = new URL(request.url).pathname;
  const { fields } = await readStepForm(w, request, form, context.ip);
  const stay = (r: SaveResult) => (r.ok ? redirect(here, { status: 303 }) : refused(r));
  // A toggle button selects or deselects one service and stays on the page (spec 1 §2).
  if (fields.get("toggle")) {
    const { toggle, quantity } = parseStep(fields, serviceToggleForm);
    return stay(await toggleService(w.scope, form, toggle, quantity));
  }
  // The word count, as PUT /api/order-form/{id}/manuscript-details.
  if (fields.get("intent") === "word-count")
    return stay(await saveManuscriptDetails(w.scope, form, parseStep(fields, manuscriptDetailsBody), { languageRequired: false }));
  if (fields.get("tier")) {
    // The tier buttons show only the tiers offered; one that is no longer offered falls back to what the engine priced.
    await saveDeliveryTier(w.scope, form, parseStep(fields, deliveryTierForm).tier);
    return redirect(here, { status: 303 });
  }
  const { services, declineEditing, quantity } = parseStep(fields, servicesForm);
  const input = {
    serviceSlugs: services.length ? services : selectionsOf(form).map((s) => s.serviceSlug!),
    declineEditing,
    rush: form.delivery_tier === "rush",
    express: form.delivery_tier === "express",
    quantities: quantity,
  };
  // Back saves the step too, then goes to the step before (spec 1 §4).
  if (fields.get("intent") === "back") {
    await saveGoingBack(form, () => saveServices(w.scope, form, input, stepOf(here)), w.scope);
    return redirect(paths.submit(w.lang, await stepBefore(w.scope, form, stepOf(here))), { status: 303 });
  }
  const r = await saveServices(w.scope, form, input, stepOf(here));
  return r.ok ? toCurrentStep(w, r.value) : refused(r);
}

export default function Services() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const { t } = useTranslation("order");
  const errors = (actionData?.fieldErrors ?? {}) as Record<string, string[]>;
  const anySelected = data.groups.some((g) => g.services.some((s) => s.selected));
  const busy = navigation.state === "submitting";
  // Spec 1 §4: Next is enabled only with a service chosen, or decline ticked, and not while saving.
  // Without JavaScript the button stays enabled and the server gives the same answer.
  const [declined, setDeclined] = useState(data.declineEditing);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const nextDisabled = busy || (hydrated && !anySelected && !declined);
  return (
    <section className="stack">
      <h1>{t(`steps.${data.step}`)}</h1>
      {/* One word-count form at a time: the bin notice carries its own (prefilled with the counted words), and two
          of them filled a 360 px screen before the first service (issue 22 §6). */}
      {data.step === "manuscript-services" && !data.binNotice ? (
        <WordCountForm wordCount={data.wordCount} error={errors.wordCount?.[0]} />
      ) : null}
      {data.binNotice ? <WordBinNotice notice={data.binNotice} currency={data.currency} error={errors.wordCount?.[0]} /> : null}
      {data.blocked ? <p className="alert alert-warning">{t("catalogue:notices.word-count-differs-no-service-option")}</p> : null}
      <Form method="post" className="stack" replace preventScrollReset>
        <button type="submit" name="intent" value="next" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
        {data.groups.map((g) => (
          <fieldset key={g.slug} className={`service-group columns-${data.columns ? g.columns : 1}`}>
            <legend>
              <h2>{t(g.nameKey)}</h2>
            </legend>
            <ul className="service-cards">
              {g.services.map((s) => (
                <li key={s.slug} className={`service-card${s.selected ? " selected" : ""}${s.featured ? " featured" : ""}`}>
                  <h3>{t(s.nameKey)}</h3>
                  {s.selected ? (
                    <span className="badge badge-brand badge-selected" aria-hidden="true">
                      {t("selected")}
                    </span>
                  ) : null}
                  {s.fromPrice !== null ? (
                    <p className="price">{t("fromPrice", { price: formatMoney(s.fromPrice, data.currency) })}</p>
                  ) : null}
                  {s.descriptionKey ? (
                    <p className="about">
                      <Link to={`${location.pathname}?about=${s.descriptionKey.split(".").pop()}`} preventScrollReset>
                        {t("learnMore")}
                        <span className="visually-hidden">{` ${t(s.nameKey)}`}</span>
                      </Link>
                    </p>
                  ) : null}
                  {CARD_SIDE_DESCRIPTION[g.slug] ? <AboutLink about={CARD_SIDE_DESCRIPTION[g.slug]} className="about about-side" /> : null}
                  {s.counted && s.selected ? <QuantityField slug={s.slug} defaultValue={1} /> : null}
                  {s.selected ? <input type="hidden" name="services" value={s.slug} /> : null}
                  <ToggleServiceButton slug={s.slug} selected={s.selected} label={t("select")} serviceName={t(s.nameKey)} />
                </li>
              ))}
            </ul>
          </fieldset>
        ))}
        {data.scientificSelected ? <p className="alert alert-warning">{t("catalogue:notices.scientific-editing-aos-notice")}</p> : null}
        {data.step === "manuscript-services" ? (
          <label className="checkbox">
            <input
              type="checkbox"
              name="declineEditing"
              defaultChecked={data.declineEditing}
              onChange={(e) => setDeclined(e.target.checked)}
            />
            <span>{t("declineEditing")}</span>
          </label>
        ) : null}
        {anySelected && (data.rushAvailable || data.expressAvailable) ? (
          <fieldset className="delivery">
            <legend>{t("delivery.title")}</legend>
            <AboutLink about="rush-delivery" className="about about-side" />
            <div className="tiers">
              <button type="submit" name="tier" value="standard" className="button" aria-pressed={data.deliveryTier === "standard"}>
                {t("delivery.standard")}
              </button>
              {data.rushAvailable ? (
                <TierButton tier="rush" current={data.deliveryTier}>
                  {t("delivery.rush", { price: formatMoney(data.rushPriceDifference, data.currency) })}
                </TierButton>
              ) : null}
              {data.expressAvailable ? (
                <TierButton tier="express" current={data.deliveryTier}>
                  {t("delivery.express", { price: formatMoney(data.expressPriceDifference, data.currency) })}
                </TierButton>
              ) : null}
            </div>
          </fieldset>
        ) : null}
        {errors.serviceSlugs ? (
          <p className="field-error" id={stepErrorId("serviceSlugs")} role="alert">
            {t(errors.serviceSlugs[0])}
          </p>
        ) : null}
        <StepActions back="get-started" disabled={nextDisabled} />
      </Form>
      {data.about ? (
        <div className="modal" role="dialog" aria-modal="true" aria-labelledby="about-title">
          <div className="modal-content">
            <h2 id="about-title">{t(`catalogue:descriptions.${data.about}.title`)}</h2>
            <p>{t(`catalogue:descriptions.${data.about}.body`)}</p>
            <Link to={location.pathname} className="button" preventScrollReset>
              {t("close")}
            </Link>
          </div>
        </div>
      ) : null}
    </section>
  );
}

/** Opens one of the descriptions beside the cards (the same ?about= modal as a card's "learn more"). */
function AboutLink({ about, className }: { about: string; className: string }) {
  const { t } = useTranslation("order");
  const location = useLocation();
  return (
    <p className={className}>
      <Link to={`${location.pathname}?about=${about}`} preventScrollReset data-about={about}>
        {t(`catalogue:descriptions.${about}.title`)}
      </Link>
    </p>
  );
}

/** The manuscript's word count, editable here; with JavaScript it saves 400 ms after typing stops (spec 1 §4). */
function WordCountForm({ wordCount, error }: { wordCount: number | null; error?: string }) {
  const { t } = useTranslation("order");
  const fetcher = useFetcher();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  return (
    <fetcher.Form method="post" className="word-count-form" preventScrollReset>
      <input type="hidden" name="intent" value="word-count" />
      <div className={`field${error ? " field-invalid" : ""}`}>
        <label htmlFor="wc-edit">{t("getStarted.wordCount")}</label>
        <input
          id="wc-edit"
          name="wordCount"
          type="number"
          min={1}
          max={999999}
          defaultValue={wordCount ?? ""}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "wc-edit-error" : undefined}
          onChange={(e) => {
            const form = e.currentTarget.form;
            if (timer.current) clearTimeout(timer.current);
            // Non-numeric input is not sent; the server validates the rest.
            if (!/^\d+$/.test(e.currentTarget.value)) return;
            timer.current = setTimeout(() => form && fetcher.submit(form), 400);
          }}
        />
        {error ? (
          <p className="field-error" id="wc-edit-error" role="alert">
            {t(error)}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button button-small">
        {t("updateWordCount")}
      </button>
      <AboutLink about="word-count" className="about about-side" />
    </fetcher.Form>
  );
}

/**
 * The analysis counted words in another word bin than the order's count (spec 1 §4 "Word count"): what
 * the counted words cost, a form that changes the count (prefilled with them), and a link that closes it.
 */
function WordBinNotice({
  notice,
  currency,
  error,
}: {
  notice: { counted: number; entered: number; bin: string | null; price: number };
  currency: { isoCode: string; sign: string; numDecimals: number };
  error?: string;
}) {
  const { t } = useTranslation("order");
  const location = useLocation();
  return (
    <section className="alert alert-info word-bin-notice" role="status" aria-labelledby="word-bin-notice-text">
      <p id="word-bin-notice-text">
        {t("wordBin.notice", { counted: notice.counted, entered: notice.entered, price: formatMoney(notice.price, currency) })}
      </p>
      <Form method="post" className="word-count-form" replace preventScrollReset>
        <input type="hidden" name="intent" value="word-count" />
        <div className={`field${error ? " field-invalid" : ""}`}>
          <label htmlFor="wc-bin">{t("wordBin.label")}</label>
          <input
            id="wc-bin"
            name="wordCount"
            type="number"
            min={1}
            max={999999}
            defaultValue={notice.counted}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "wc-bin-error" : undefined}
          />
          {error ? (
            <p className="field-error" id="wc-bin-error" role="alert">
              {t(error)}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button button-small">
          {t("updateWordCount")}
        </button>
      </Form>
      <AboutLink about="word-count" className="about about-side" />
      <Link to={`${location.pathname}?binNotice=closed`} preventScrollReset replace>
        {t("close")}
      </Link>
    </section>
  );
}

// A save racing the form's placing goes to the placed order, not a 500 (stepAction).
export const action = stepAction(handleStep);
