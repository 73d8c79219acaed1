import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { titleMeta } from "#app/lib/meta";
import { requireUser, safeRedirect } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { getFixedT } from "#app/i18n.server";
import { parseForm } from "#app/lib/forms.server";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { chooseCurrencySchema, type ChooseCurrencyForm } from "#common/prepay/schemas";
import { chooseCurrency, currencyChoices } from "#server/prepay";

export const meta = titleMeta;
export const handle = { i18n: ["prepay"] };

type ActionData = { confirm: string | null; selected: string; error: string | null };

// /researcher/currency?redirect=… (spec 2 §2 "Choose-currency", issue 13 §2): a radio list of currencies (no
// Chinese yuan), 'Choose Currency', then a confirmation step (a second state of this page: it works without
// JavaScript), then the account's currency saved once and the researcher sent back.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const back = safeRedirect(new URL(request.url).searchParams.get("redirect") ?? "", paths.prepay(scope.lang));
  const r = await currencyChoices(scope, back);
  if (!r.ok) throw new Response("Not Found", { status: 404 });
  if (r.value.chosen) throw redirect(back);
  const t = await getFixedT(request, "prepay");
  return { title: t("currency.title"), back, ...r.value };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const submission = await parseForm<ChooseCurrencyForm>(request, chooseCurrencySchema);
  if (submission.status !== "success")
    return Response.json({ confirm: null, selected: "USD", error: "prepay:errors.currency-invalid" } satisfies ActionData, { status: 400 });
  const { intent, currencyIso, redirect: to } = submission.value;
  const back = safeRedirect(to, paths.prepay(scope.lang));
  const choices = await currencyChoices(scope, back);
  if (!choices.ok) throw new Response("Not Found", { status: 404 });
  // Chosen already (another tab): the choice is final, the researcher goes on.
  if (choices.value.chosen) return redirect(back, 303);
  const listed = choices.value.currencies.some((c) => c.isoCode === currencyIso);
  if (intent === "back")
    return { confirm: null, selected: listed ? currencyIso : choices.value.preselected, error: null } satisfies ActionData;
  if (!listed)
    return Response.json(
      { confirm: null, selected: choices.value.preselected, error: "prepay:errors.currency-invalid" } satisfies ActionData,
      {
        status: 400,
      },
    );
  if (intent === "choose") return { confirm: currencyIso, selected: currencyIso, error: null } satisfies ActionData;
  const r = await chooseCurrency(scope, currencyIso);
  if (!r.ok) {
    const error = r.fieldErrors.currencyIso ?? `prepay:errors.${r.error}`;
    return Response.json({ confirm: null, selected: currencyIso, error } satisfies ActionData, { status: errorStatus(r.error) });
  }
  return redirect(back, 303);
}

export default function ChooseCurrency() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("prepay");
  const selected = actionData?.selected ?? data.preselected;
  const confirm = actionData?.confirm ?? null;
  const name = (iso: string) => data.currencies.find((c) => c.isoCode === iso)?.shortName ?? iso;
  return (
    <section className="stack currency-page">
      <h1>{t("currency.title")}</h1>
      {confirm ? (
        <section
          className="card stack currency-confirm"
          role="alertdialog"
          aria-labelledby="currency-confirm-title"
          aria-describedby="currency-confirm-text"
        >
          <h2 id="currency-confirm-title">{t("currency.confirmTitle")}</h2>
          <p id="currency-confirm-text">{t("currency.confirmText", { currency: `${name(confirm)} (${confirm})` })}</p>
          <Form method="post" replace className="actions">
            <input type="hidden" name="currencyIso" value={confirm} />
            <input type="hidden" name="redirect" value={data.back} />
            <button type="submit" name="intent" value="confirm" className="button button-primary">
              {t("currency.confirm")}
            </button>
            <button type="submit" name="intent" value="back" className="button">
              {t("currency.back")}
            </button>
          </Form>
        </section>
      ) : (
        <Form method="post" replace className="card stack">
          <p>{t("currency.intro")}</p>
          {actionData?.error ? (
            <p className="alert alert-danger" role="alert">
              {t(actionData.error)}
            </p>
          ) : null}
          <fieldset className="currency-choices">
            <legend>{t("currency.legend")}</legend>
            {data.currencies.map((c) => (
              <label key={c.isoCode} className="checkbox">
                <input type="radio" name="currencyIso" value={c.isoCode} defaultChecked={c.isoCode === selected} />
                <span>
                  {c.shortName} ({c.isoCode})
                </span>
              </label>
            ))}
          </fieldset>
          <input type="hidden" name="redirect" value={data.back} />
          <div className="actions">
            <button type="submit" name="intent" value="choose" className="button button-primary">
              {t("currency.choose")}
            </button>
          </div>
        </Form>
      )}
    </section>
  );
}
