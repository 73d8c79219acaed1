import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { formatMoney } from "#common/format";
import { useStepErrors } from "#app/components/WizardStep";
import {
  loadStep,
  parseFlatStep,
  parseStep,
  readStepForm,
  requireDraft,
  toCurrentStep,
  wizardScope,
  stepAction,
} from "#app/lib/wizard.server";
import { bundleChoiceForm, bundleQuestionsForm } from "#common/order-form/schemas";
import { conformErrors } from "#common/result";
import type { BundleAnswers } from "#server/catalogue";
import { answersOf, bundleOffers, chooseBundle, saveBundleAnswers } from "#server/order-form";
import { paths } from "#common/paths";
import { OrderPeek } from "#app/components/OrderSummary";

export const meta = titleMeta;
export const handle = { i18n: ["order", "catalogue"] };

// Service bundles (spec 1 §4 "Bundle flow"): questions, then bundle cards with a delivery of none, rush or express.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { w, form, t, catalogue } = await loadStep(request, context, "service-bundles");
  const answers = answersOf(form);
  const answered = Object.keys(answers).length > 0 && new URL(request.url).searchParams.get("edit") !== "1";
  const currencyIso = form.currency_iso.trim();
  return {
    title: t("steps.service-bundles"),
    answered,
    answers,
    chosen: form.bundle_id,
    delivery: form.delivery_tier,
    currency: {
      isoCode: currencyIso,
      sign: catalogue.currencies[currencyIso]?.sign ?? "$",
      numDecimals: catalogue.currencies[currencyIso]?.numDecimals ?? 2,
    },
    questions: catalogue.bundleQuestions.map((q) => ({ slug: q.slug, type: q.type, choices: q.choices.map((c) => c.choice) })),
    bundles: answered ? await bundleOffers(w.scope, form, catalogue) : [],
  };
}

async function handleStep({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  const { fields } = await readStepForm(w, request, form, context.ip);
  if (fields.get("intent") === "questions") {
    const r = await saveBundleAnswers(w.scope, form, parseFlatStep(fields, bundleQuestionsForm));
    if (!r.ok) return Response.json({ fieldErrors: conformErrors(r.fieldErrors), noBundles: false }, { status: 400 });
    if (r.value.bundles === 0) return Response.json({ fieldErrors: {}, noBundles: true }, { status: 200 });
    return redirect(new URL(request.url).pathname, { status: 303 });
  }
  const r = await chooseBundle(w.scope, form, parseStep(fields, bundleChoiceForm));
  if (!r.ok) return Response.json({ fieldErrors: conformErrors(r.fieldErrors), noBundles: false }, { status: 400 });
  return toCurrentStep(w, r.value);
}

export default function ServiceBundles() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation("order");
  const lang = useLang();
  const { err, invalid } = useStepErrors(actionData?.fieldErrors);
  const a = data.answers as BundleAnswers;
  return (
    <section className="stack">
      <h1>{t("steps.service-bundles")}</h1>
      {actionData?.noBundles ? <p className="alert alert-warning">{t("bundles.service-bundle-no-bundles-error")}</p> : null}
      {!data.answered ? (
        <Form method="post" className="stack">
          <input type="hidden" name="intent" value="questions" />
          <fieldset>
            <legend>{t("catalogue:bundleQuestions.goals.term")}</legend>
            {data.questions
              .find((q) => q.slug === "goals")
              ?.choices.map((c) => (
                <label key={c} className="checkbox">
                  <input type="checkbox" name="goals" value={c} defaultChecked={a.goals?.choices?.includes(c)} {...invalid("goals")} />
                  <span>{t(`catalogue:bundleQuestions.goals.choices.${c}`)}</span>
                </label>
              ))}
            {err("goals")}
          </fieldset>
          {(["figures", "tables"] as const).map((q) => (
            <fieldset key={q}>
              <legend>{t(`catalogue:bundleQuestions.${q}.term`)}</legend>
              <label className="checkbox">
                <input type="checkbox" name={q} defaultChecked={a[q]?.on} {...invalid(q)} />
                <span>{t("bundles.yes")}</span>
              </label>
              <div className="field">
                <label htmlFor={`bundle-${q}-count`}>{t("quantity")}</label>
                <input
                  id={`bundle-${q}-count`}
                  type="number"
                  name={`${q}.count`}
                  min={1}
                  max={25}
                  defaultValue={a[q]?.count ?? ""}
                  {...invalid(q)}
                />
              </div>
              {err(q)}
            </fieldset>
          ))}
          <div className="field">
            <label htmlFor="bundle-journal">{t("catalogue:bundleQuestions.journal.term")}</label>
            <input id="bundle-journal" name="journal" defaultValue={a.journal?.journal ?? ""} {...invalid("journal")} />
            {err("journal")}
          </div>
          <button type="submit" className="button button-primary">
            {t("bundles.find")}
          </button>
        </Form>
      ) : (
        <>
          <p>
            <Link to="?edit=1">{t("bundles.changeAnswers")}</Link>
          </p>
          <ul className="cards bundle-cards">
            {data.bundles.map((b) => (
              <li key={b.id} className={`card bundle-card${data.chosen === b.id ? " selected" : ""}`}>
                <Form method="post" className="stack">
                  <input type="hidden" name="bundleId" value={b.id} />
                  <h2>{t(b.nameKey)}</h2>
                  {b.descriptionKey ? <p>{t(b.descriptionKey)}</p> : null}
                  {b.total !== null ? <p className="price">{formatMoney(b.total, data.currency)}</p> : null}
                  {b.discount ? <p className="badge">{t("bundles.saving", { amount: formatMoney(b.discount, data.currency) })}</p> : null}
                  <fieldset>
                    <legend>{t("delivery.title")}</legend>
                    <label className="checkbox">
                      <input
                        type="radio"
                        name={`delivery.${b.id}`}
                        value="standard"
                        defaultChecked={data.chosen !== b.id || data.delivery === "standard"}
                      />
                      <span>{t("bundles.deliveryNone")}</span>
                    </label>
                    {b.rush !== null ? (
                      <label className="checkbox">
                        <input
                          type="radio"
                          name={`delivery.${b.id}`}
                          value="rush"
                          defaultChecked={data.chosen === b.id && data.delivery === "rush"}
                        />
                        <span>{t("bundles.deliveryRush", { price: formatMoney(b.rush, data.currency) })}</span>
                      </label>
                    ) : null}
                    {b.express !== null ? (
                      <label className="checkbox">
                        <input
                          type="radio"
                          name={`delivery.${b.id}`}
                          value="express"
                          defaultChecked={data.chosen === b.id && data.delivery === "express"}
                        />
                        <span>{t("bundles.deliveryExpress", { price: formatMoney(b.express, data.currency) })}</span>
                      </label>
                    ) : null}
                  </fieldset>
                  {/* Learn-more terms expand only on the selected card (spec 1 §2). */}
                  {data.chosen === b.id && b.terms.length ? (
                    <details>
                      <summary>{t("learnMore")}</summary>
                      <ul>
                        {b.terms.map((k) => (
                          <li key={k}>{t(k)}</li>
                        ))}
                      </ul>
                    </details>
                  ) : null}
                  <button
                    type="submit"
                    name="intent"
                    value="choose"
                    className="button button-primary"
                    disabled={navigation.state === "submitting"}
                  >
                    {t("bundles.choose")}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </>
      )}
      {err("bundleId")}
      <Form method="post" className="stack">
        <OrderPeek />
        <div className="wizard-actions">
          <Link to={paths.submit(lang, "additional-services")}>← {t("back")}</Link>
          <button type="submit" name="intent" value="skip" className="button">
            {t("bundles.skip")}
          </button>
        </div>
      </Form>
    </section>
  );
}

// A save racing the form's placing goes to the placed order, not a 500 (stepAction).
export const action = stepAction(handleStep);
