import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { titleMeta } from "#app/lib/meta";
import { formatMoney } from "#common/format";
import { loadStep, parseStep, readStepForm, refused, requireDraft, toCurrentStep, wizardScope, stepAction } from "#app/lib/wizard.server";
import { additionalServicesForm } from "#common/order-form/schemas";
import { QuantityField, StepActions, ToggleServiceButton, useStepErrors } from "#app/components/WizardStep";
import { saveAdditional, saveGoingBack, servicePrice, stepBefore, stepContext, upsellSlugs } from "#server/order-form";
import { paths } from "#common/paths";

export const meta = titleMeta;
export const handle = { i18n: ["order", "catalogue"] };

// Additional services: the add-ons of the config's upsells, and interest in a service bundle.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { w, form, t, catalogue } = await loadStep(request, context, "additional-services");
  const [offered, sctx] = await Promise.all([upsellSlugs(w.scope), stepContext(w.scope, form)]);
  const selected = new Map((form.selections ?? []).map((s) => [s.serviceSlug, s.quantity ?? 1]));
  const currencyIso = form.currency_iso.trim();
  const currency = catalogue.currencies[currencyIso];
  const now = new Date();
  return {
    title: t("steps.additional-services"),
    bundlesEnabled: sctx.bundlesEnabled,
    bundleInterest: form.bundle_interest,
    currency: { isoCode: currencyIso, sign: currency?.sign ?? "$", numDecimals: currency?.numDecimals ?? 2 },
    previous: form.customer_goal === "multimedia" ? "multimedia-services" : "manuscript-services",
    addOns: offered
      .map((slug) => catalogue.services.find((s) => s.slug === slug && s.active))
      .filter((s) => s !== undefined)
      .map((s) => ({
        slug: s.slug,
        nameKey: s.nameKey,
        counted: Boolean(s.price.unit),
        selected: selected.has(s.slug),
        quantity: selected.get(s.slug) ?? 1,
        price: servicePrice(w.scope, form, catalogue, s, now),
      })),
  };
}

async function handleStep({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  const { fields } = await readStepForm(w, request, form, context.ip);
  const input = parseStep(fields, additionalServicesForm);
  // Back saves the step too, then goes to the step before (spec 1 §4).
  if (fields.get("intent") === "back") {
    await saveGoingBack(form, () => saveAdditional(w.scope, form, input), w.scope);
    return redirect(paths.submit(w.lang, await stepBefore(w.scope, form, "additional-services")), { status: 303 });
  }
  const r = await saveAdditional(w.scope, form, input);
  if (!r.ok) return refused(r);
  return input.toggle ? redirect(new URL(request.url).pathname, { status: 303 }) : toCurrentStep(w, r.value);
}

export default function AdditionalServices() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation("order");
  const { err, invalid } = useStepErrors(actionData?.fieldErrors);
  return (
    <section className="stack">
      <h1>{t("steps.additional-services")}</h1>
      <p>{t("additional.intro")}</p>
      <Form method="post" className="stack" replace preventScrollReset>
        <button type="submit" name="intent" value="next" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
        <ul className="service-cards">
          {data.addOns.map((a) => (
            <li key={a.slug} className={`service-card${a.selected ? " selected" : ""}`}>
              <h2>{t(a.nameKey)}</h2>
              {a.selected ? (
                <span className="badge badge-brand badge-selected" aria-hidden="true">
                  {t("selected")}
                </span>
              ) : null}
              {a.price !== null ? <p className="price">{formatMoney(a.price, data.currency)}</p> : null}
              {a.selected ? <input type="hidden" name="addOns" value={a.slug} /> : null}
              {a.counted && a.selected ? (
                <QuantityField slug={a.slug} defaultValue={a.quantity} aria={invalid(`quantity.${a.slug}`)} />
              ) : null}
              {err(`quantity.${a.slug}`)}
              <ToggleServiceButton slug={a.slug} selected={a.selected} label={t("add")} serviceName={t(a.nameKey)} />
            </li>
          ))}
        </ul>
        {data.bundlesEnabled ? (
          <label className="checkbox">
            <input type="checkbox" name="bundleInterest" defaultChecked={data.bundleInterest} />
            <span>{t("additional.bundleInterest")}</span>
          </label>
        ) : null}
        {err("addOnSlugs")}
        <StepActions back={data.previous} disabled={navigation.state === "submitting"} />
      </Form>
    </section>
  );
}

// A save racing the form's placing goes to the placed order, not a 500 (stepAction).
export const action = stepAction(handleStep);
