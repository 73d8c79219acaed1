import { Form, Link, Outlet, isRouteErrorResponse, useLoaderData, useLocation, useNavigation, useRouteError } from "@remix-run/react";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { errorKind } from "#app/components/ErrorPanel";
import { useLang } from "#app/lib/use-lang";
import { SummaryFigures, type SummaryContext } from "#app/components/OrderSummary";
import { loadDraft, wizardScope } from "#app/lib/wizard.server";
import { getFixedT } from "#app/i18n.server";
import { priceForm, STEP_ALIASES, type StepName, stepsFor, summarize, wizardLayout } from "#server/order-form";
import { paths } from "#common/paths";
import { cookies } from "#server/http/cookies";

export const handle = { i18n: ["order", "catalogue"] };

// The wizard's parent layout: the step bar and the "My Order" summary around every step (spec 1 §2).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await loadDraft(w);
  const t = await getFixedT(request, "order");
  const segment = new URL(request.url).pathname.split("/")[4] ?? "";
  const viewing = (STEP_ALIASES[segment] ?? segment) as StepName;
  const params = new URL(request.url).searchParams;
  // Notices of the whole wizard, on whichever step they land: /new resuming an earlier submission
  // (?continue=1, spec 1 §2, §8) and a currency the picker could not save (?currency=error, spec 1 §8).
  const notices = { continuing: params.get("continue") === "1", currencyError: params.get("currency") === "error" };
  // The <title> of the wizard's error page (its ErrorBoundary), in the page's language (issue 22 §6).
  const errorTitle = t("errorPageTitle");
  if (!form)
    return {
      errorTitle,
      steps: null,
      summary: null,
      currencies: null,
      currencyIso: null,
      timeZone: "UTC",
      banner: null,
      promoCode: null,
      promoMessage: null,
      notices,
    };
  const [steps, price, layout] = await Promise.all([
    stepsFor(w.scope, form, t, viewing),
    priceForm(w.scope, form).catch(() => null),
    wizardLayout(w.scope, form, {
      viewing,
      promoParam: params.get("promo"),
      revenueShare: w.scope.cookies[cookies.revenueShare.name] ?? null,
    }),
  ]);
  return {
    errorTitle,
    steps,
    summary: summarize(price),
    currencyIso: form.currency_iso.trim(),
    promoCode: form.promo_code,
    ...layout,
    notices,
  };
}

/** A step's own meta gives its title; when a step fails, this layout's error page is titled in the page's language. */
export const meta: MetaFunction<typeof loader> = (args) =>
  args.error && args.data?.errorTitle
    ? titleMeta({ ...args, error: undefined, data: { title: args.data.errorTitle } } as never)
    : titleMeta(args as never);

export default function SubmitLayout() {
  const { steps, summary, currencies, currencyIso, timeZone, banner, promoCode, promoMessage, notices } = useLoaderData<typeof loader>();
  const { t } = useTranslation("order");
  const lang = useLang();
  const location = useLocation();
  const navigation = useNavigation();
  return (
    <div className="wizard">
      <header className="wizard-header">
        <a className="skip-link" href="#main">
          {t("common:nav.skipToContent")}
        </a>
        <Link to={paths.home(lang)} className="brand">
          {t("common:site.name")}
        </Link>
        <Link to={paths.researcher(lang)}>{t("saveAndExit")}</Link>
      </header>
      {steps ? (
        <nav className="step-bar" aria-label={t("stepsLabel")}>
          <ol>
            {steps.list.map((s) => (
              <li key={s.name} className={`step step-${s.state}`} aria-current={s.state === "current" ? "step" : undefined}>
                {/* A step is a link only at or before the current step (spec 1 §2). */}
                {s.state === "todo" ? <span>{s.text}</span> : <Link to={s.url}>{s.text}</Link>}
              </li>
            ))}
          </ol>
          <progress max={100} value={steps.progress} aria-label={t("progress")}>
            {steps.progress}%
          </progress>
        </nav>
      ) : null}
      {navigation.state === "loading" && navigation.location?.pathname.includes("/submit/") ? (
        <p className="wizard-loading" role="status">
          {t("common:loading.order")}
        </p>
      ) : null}
      {banner ? (
        <p className="banner marketing-banner" role="status">
          {banner === "revenue-share" ? t("banners.cambridge1") : t("banners.promo", { code: promoCode })}
        </p>
      ) : null}
      {notices.continuing ? (
        <p className="alert alert-warning wizard-notice" role="status">
          {t("continueWarning")} <Link to={paths.submit(lang, "reset")}>{t("startOver")}</Link>
        </p>
      ) : null}
      {notices.currencyError ? (
        <p className="alert alert-danger wizard-notice" role="alert">
          {t("errors.generic-touchup-error")}
        </p>
      ) : null}
      <div className="wizard-body">
        <main id="main" className="wizard-main">
          <Outlet context={{ summary, timeZone } satisfies SummaryContext} />
        </main>
        <aside className="my-order" aria-labelledby="my-order-title">
          <h2 id="my-order-title">{t("myOrder")}</h2>
          {summary ? (
            <div className="summary-core">
              <SummaryFigures summary={summary} timeZone={timeZone} />
            </div>
          ) : (
            <p>{t("emptySummary")}</p>
          )}
          {summary ? (
            <Form method="post" action={paths.submit(lang, "quote")} className="quote-form">
              <button type="submit" className="button button-small">
                {t("quote.get")}
              </button>
            </Form>
          ) : null}
          {summary ? (
            <Form method="post" action={paths.submit(lang, "promo")} className="promo-form">
              <input type="hidden" name="redirect" value={location.pathname} />
              {promoMessage ? (
                <p
                  className={`alert ${promoMessage === "coupon-applied-message" || promoMessage === "coupon-removed-message" ? "alert-success" : promoMessage === "best-discount-applied" ? "alert-warning" : "alert-danger"}`}
                  role="status"
                >
                  {t(`promo.${promoMessage}`)}
                </p>
              ) : null}
              {promoCode ? (
                <p>
                  {t("promo.current", { code: promoCode })}{" "}
                  <button type="submit" name="intent" value="remove" className="link-button">
                    {t("promo.remove")}
                  </button>
                </p>
              ) : (
                <>
                  <label htmlFor="promo-code">{t("promo.label")}</label>
                  <input id="promo-code" name="code" autoComplete="off" maxLength={40} />
                  <button type="submit" name="intent" value="apply" className="button button-small">
                    {t("promo.apply")}
                  </button>
                </>
              )}
            </Form>
          ) : null}
          {currencies && currencyIso ? (
            <Form method="post" action={paths.submit(lang, "currency")} className="currency-picker">
              <input type="hidden" name="redirect" value={location.pathname} />
              <label htmlFor="currency-picker">{t("currency")}</label>
              <select id="currency-picker" name="currencyIso" defaultValue={currencyIso}>
                {currencies.map((c) => (
                  <option key={c.isoCode} value={c.isoCode}>
                    {c.isoCode} — {c.name}
                  </option>
                ))}
              </select>
              <button type="submit" className="button button-small">
                {t("changeCurrency")}
              </button>
            </Form>
          ) : null}
        </aside>
      </div>
    </div>
  );
}

/** A step that fails to load or save: the message of spec 1 §8 and a way back (no dead end). */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation("order");
  const lang = useLang();
  // The status in the page's language, never the response's English body ("Not Found"; issue 9 §3.13).
  const detail = isRouteErrorResponse(error) && error.status < 500 ? t(`common:error.${errorKind(error.status)}Title`) : null;
  return (
    <div className="wizard">
      <header className="wizard-header">
        <Link to={paths.home(lang)} className="brand">
          {t("common:site.name")}
        </Link>
      </header>
      <main id="main" className="wizard-main">
        <section className="alert alert-danger" role="alert">
          <p>{detail ? t("saveError", { error: detail }) : t("general-submission-step-error")}</p>
          <p>
            <Link className="button" to={paths.submit(lang, "resume")}>
              {t("goBack")}
            </Link>
          </p>
        </section>
      </main>
    </div>
  );
}
