import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { dispatchIntent, onIntent, readFormData } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { countryName } from "#common/format";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { askCountrySchema, hideInvoicesSchema, wfoeGroupSchema, wfoeMigratedSchema, type AccountControl } from "#common/staff/schemas";
import { researcherAccountStates, setAccountControl } from "#server/staff/account-controls";
import { ActionAlerts } from "#app/components/staff/ActionAlerts";

export const handle = { i18n: ["account"] };
export const meta = titleMeta;

// /staff/researchers/{identity} (issue 22 item 5, ADR 066): a researcher's account states that only staff set —
// the country question, hidden invoices, the local-entity migration — each a form (POST → 303 → GET), audited.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const r = await researcherAccountStates(scope, params.identity ?? "");
  if (!r.ok) throw new Response(r.error === "not-found" ? "Not Found" : "Forbidden", { status: errorStatus(r.error) });
  const t = await getFixedT(request, "account");
  return { title: t("staffControls.title"), researcher: r.value, done: new URL(request.url).searchParams.get("done") };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const identity = params.identity ?? "";
  const run = async (control: AccountControl) => {
    const r = await setAccountControl(scope, identity, control);
    if (!r.ok) throw new Response(r.error === "not-found" ? "Not Found" : "Forbidden", { status: errorStatus(r.error) });
    return redirect(paths.staffResearcher(scope.lang, identity, { done: control.intent }), 303);
  };
  return dispatchIntent(
    await readFormData(request),
    {
      "ask-country": onIntent(askCountrySchema, run),
      "hide-invoices": onIntent(hideInvoicesSchema, run),
      "wfoe-group": onIntent(wfoeGroupSchema, run),
      "wfoe-migrated": onIntent(wfoeMigratedSchema, run),
    },
    () => Response.json({ error: "account:staffControls.badForm" }, { status: 400 }),
  );
}

export default function StaffResearcher() {
  const { researcher: r, done } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as { error?: string } | undefined;
  const { t } = useTranslation("account");
  const lang = useLang();
  const yesNo = (v: boolean) => t(v ? "staffControls.yes" : "staffControls.no");
  const control = (intent: string, label: string, value?: string, primary = false) => (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      {value ? <input type="hidden" name="value" value={value} /> : null}
      <button type="submit" className={`button button-small${primary ? " button-primary" : ""}`}>
        {label}
      </button>
    </Form>
  );
  const wfoeState = !r.wfoe.inMigratingGroup
    ? "notInGroup"
    : r.wfoe.acceptedTermsOfService && r.wfoe.migrated
      ? "migrated"
      : r.wfoe.acceptedTermsOfService
        ? "checkBackLater"
        : "terms";
  return (
    <div className="stack">
      <p>
        <Link to={paths.staff(lang, { q: r.email })}>← {t("staffControls.back")}</Link>
      </p>
      <h1>{t("staffControls.title")}</h1>
      <p>
        <strong>
          {r.firstName} {r.lastName}
        </strong>{" "}
        · {r.email}
      </p>
      <ActionAlerts done={[done && t("staffControls.saved")]} error={actionData?.error && t(actionData.error)} />
      <section className="card stack" aria-labelledby="sc-country">
        <h2 id="sc-country">{t("staffControls.country.title")}</h2>
        <p>
          {r.country
            ? t("staffControls.country.current", { country: countryName(r.country, lang, r.country) })
            : t("staffControls.country.asked")}
        </p>
        {r.country ? control("ask-country", t("staffControls.country.ask")) : null}
      </section>
      <section className="card stack" aria-labelledby="sc-invoices">
        <h2 id="sc-invoices">{t("staffControls.invoices.title")}</h2>
        <p>
          {t("staffControls.invoices.hidden")}: <strong data-state="hide-invoices">{yesNo(r.hideInvoices)}</strong>
        </p>
        <p className="hint">{t("staffControls.invoices.hint")}</p>
        {r.hideInvoices
          ? control("hide-invoices", t("staffControls.invoices.show"), "off")
          : control("hide-invoices", t("staffControls.invoices.hide"), "on")}
      </section>
      <section className="card stack" aria-labelledby="sc-wfoe">
        <h2 id="sc-wfoe">{t("staffControls.wfoe.title")}</h2>
        <p>
          <strong data-state="wfoe">{t(`staffControls.wfoe.states.${wfoeState}`)}</strong>
        </p>
        <div className="actions">
          {r.wfoe.inMigratingGroup
            ? control("wfoe-group", t("staffControls.wfoe.leave"), "off")
            : control("wfoe-group", t("staffControls.wfoe.join"), "on")}
          {wfoeState === "checkBackLater" ? control("wfoe-migrated", t("staffControls.wfoe.markMigrated"), undefined, true) : null}
        </div>
      </section>
    </div>
  );
}
