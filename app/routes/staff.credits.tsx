import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { PlainField } from "#app/components/form";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { readFormData } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { formatDate, formatMoney } from "#common/format";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { creditsOfUser, findCreditUser, grantCourtesyCredit, grantOptions, recentGrants, type GrantInput } from "#server/staff/credits";
import { ActionAlerts } from "#app/components/staff/ActionAlerts";

export const handle = { i18n: ["credits", "staffpay", "staffops"] };
export const meta = titleMeta;

// /staff/credits (issue 13): find a researcher by e-mail (a GET search), their credits, a courtesy grant
// (POST → 303 → GET). Staff only: anyone else is refused by requireStaff and the domain's own check.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const recent = await recentGrants(scope);
  if (!recent.ok) throw new Response("Forbidden", { status: 403 });
  const t = await getFixedT(request, "credits");
  const params = new URL(request.url).searchParams;
  const email = (params.get("email") ?? "").slice(0, 320);
  const found = email ? await findCreditUser(scope, email) : null;
  const user = found?.ok ? found.value : null;
  const credits = user ? await creditsOfUser(scope, user.id) : null;
  const options = await grantOptions(scope);
  return {
    title: t("staff.title"),
    email,
    searchError: found && !found.ok ? (found.fieldErrors.email ?? "credits:errors.user-not-found") : null,
    user,
    credits: credits?.ok ? credits.value : [],
    recent: recent.value,
    currencies: options.currencies,
    defaultDays: options.defaultDays,
    granted: params.get("granted"),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const form = await readFormData(request);
  const text = (k: string) => {
    const v = form.get(k);
    return typeof v === "string" ? v.slice(0, 400) : "";
  };
  const input: GrantInput = {
    email: text("email"),
    amount: text("amount"),
    currencyIso: text("currencyIso"),
    validityDays: text("validityDays"),
    note: text("note"),
  };
  const r = await grantCourtesyCredit(scope, input);
  if (!r.ok) {
    const fields = Object.keys(r.fieldErrors).length > 0;
    return Response.json(
      { error: fields ? null : `credits:errors.${r.error}`, fieldErrors: r.fieldErrors, values: input },
      { status: fields && r.error !== "not-allowed" ? 400 : errorStatus(r.error) },
    );
  }
  return redirect(paths.staffCredits(scope.lang, { email: r.value.user.email, granted: r.value.referenceNumber }), 303);
}

type ActionData = { error: string | null; fieldErrors: Record<string, string>; values: GrantInput } | undefined;

export default function StaffCredits() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData;
  const { t } = useTranslation("credits");
  const lang = useLang();
  const fe = actionData?.fieldErrors ?? {};
  const values: Partial<GrantInput> = actionData?.values ?? {};
  const field = (name: keyof GrantInput, label: string, props: Record<string, unknown> = {}) => (
    <PlainField name={name} idPrefix="sc" label={label} error={fe[name] ? t(fe[name]) : null}>
      {(control) => <input {...control} defaultValue={values[name] ?? ""} {...props} />}
    </PlainField>
  );

  const available = d.credits.filter((c) => c.available > 0);
  return (
    <div className="stack">
      <h1>{t("staff.title")}</h1>
      <ActionAlerts done={[d.granted && t("staff.granted", { number: d.granted })]} error={actionData?.error && t(actionData.error)} />
      <Form method="get" className="field-row staff-credits-search" role="search">
        <div className={`field${d.searchError ? " field-invalid" : ""}`}>
          <label htmlFor="sc-search">{t("staff.email")}</label>
          <input
            id="sc-search"
            name="email"
            type="email"
            defaultValue={d.email}
            required
            aria-invalid={d.searchError ? true : undefined}
            aria-describedby={d.searchError ? "sc-search-error" : undefined}
          />
          {d.searchError ? (
            <p className="field-error" id="sc-search-error">
              {t(d.searchError)}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button">
          {t("staff.find")}
        </button>
      </Form>

      {d.user ? (
        <section className="card stack" aria-labelledby="sc-user">
          <h2 id="sc-user">{t("staff.creditsOf", { name: d.user.name || d.user.email })}</h2>
          <p className="field-hint">
            {d.user.email} · {d.user.currencyIso}
            {d.user.hideInvoices ? ` · ${t("staff.hiddenInvoices")}` : ""}
          </p>
          {available.length ? (
            <p>
              {t("staff.availableTotal")}{" "}
              {[...new Set(available.map((c) => c.currency.isoCode))]
                .map((iso) => {
                  const list = available.filter((c) => c.currency.isoCode === iso);
                  return formatMoney(
                    list.reduce((a, c) => a + c.available, 0),
                    list[0].currency,
                  );
                })
                .join(" + ")}
            </p>
          ) : null}
          {d.credits.length ? (
            <div className="table-scroll" tabIndex={0} role="region" aria-label={t("staff.creditsOf", { name: d.user.email })}>
              <table className="staff-credits-table">
                <thead>
                  <tr>
                    <th scope="col">{t("staff.reference")}</th>
                    <th scope="col" className="num">
                      {t("staff.total")}
                    </th>
                    <th scope="col" className="num">
                      {t("staff.available")}
                    </th>
                    <th scope="col">{t("staff.expires")}</th>
                    <th scope="col">{t("staff.note")}</th>
                  </tr>
                </thead>
                <tbody>
                  {d.credits.map((c) => (
                    <tr key={c.referenceNumber}>
                      <td>
                        <code>{c.referenceNumber}</code>
                        <br />
                        <span className="field-hint">
                          {t(`kinds.${c.kind}`)} · {formatDate(c.createdAt, lang)}
                        </span>
                      </td>
                      <td className="num">{formatMoney(c.total, c.currency)}</td>
                      <td className="num">{formatMoney(c.available, c.currency)}</td>
                      <td>{c.expiresAt ? formatDate(c.expiresAt, lang) : "—"}</td>
                      <td className="break">{c.note ?? ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p>{t("staff.none")}</p>
          )}

          <Form method="post" className="stack">
            <h3>{t("staff.grant")}</h3>
            <input type="hidden" name="email" value={d.user.email} />
            <div className="field-row">
              {field("amount", t("staff.amount"), { inputMode: "decimal", required: true, maxLength: 16 })}
              <div className={`field${fe.currencyIso ? " field-invalid" : ""}`}>
                <label htmlFor="sc-currencyIso">{t("staff.currency")}</label>
                <select id="sc-currencyIso" name="currencyIso" defaultValue={values.currencyIso || d.user.currencyIso}>
                  {d.currencies.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </select>
                {fe.currencyIso ? <p className="field-error">{t(fe.currencyIso)}</p> : null}
              </div>
              {field("validityDays", t("staff.validityDays"), { inputMode: "numeric", placeholder: String(d.defaultDays), maxLength: 4 })}
            </div>
            {field("note", t("staff.noteLabel"), { maxLength: 200 })}
            {fe.email ? <p className="field-error">{t(fe.email)}</p> : null}
            <div className="actions">
              <button type="submit" className="button button-primary">
                {t("staff.grantButton")}
              </button>
            </div>
          </Form>
        </section>
      ) : null}

      <section className="stack" aria-labelledby="sc-recent">
        <h2 id="sc-recent">{t("staff.recent")}</h2>
        {d.recent.length ? (
          <ul className="staff-credits-recent">
            {d.recent.map((c) => (
              <li key={c.referenceNumber}>
                <code>{c.referenceNumber}</code> · {c.email} · {formatMoney(c.total, c.currency)} · {formatDate(c.createdAt, lang)}
                {c.grantedBy ? ` · ${c.grantedBy}` : ""}
              </li>
            ))}
          </ul>
        ) : (
          <p>{t("staff.noneRecent")}</p>
        )}
      </section>
    </div>
  );
}
