import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { PlainField } from "#app/components/form";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { dispatchIntent, onIntent, readFormData } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { formatDate, formatMoney } from "#common/format";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { staffPayErrorKey } from "#common/staff/payments";
import { staffVoucherForm, type StaffVoucherInput } from "#common/vouchers/schemas";
import { createVoucher, deactivateVoucher, listVouchers, voucherCurrencies } from "#server/staff/vouchers";
import { ActionAlerts } from "#app/components/staff/ActionAlerts";

export const handle = { i18n: ["staffpay", "staffops"] };
export const meta = titleMeta;

// /staff/vouchers: the vouchers, a new one, deactivation (issue 12 §8). POST → 303 → GET.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const r = await listVouchers(scope);
  if (!r.ok) throw new Response("Forbidden", { status: 403 });
  const t = await getFixedT(request, "staffpay");
  const params = new URL(request.url).searchParams;
  return {
    title: t("vouchers.title"),
    vouchers: r.value,
    currencies: await voucherCurrencies(scope),
    created: params.get("created"),
    deactivated: params.get("deactivated"),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  return dispatchIntent(
    await readFormData(request),
    {
      create: onIntent(staffVoucherForm, async (input) => {
        const r = await createVoucher(scope, input);
        if (r.ok) return redirect(paths.staffVouchers(scope.lang, { created: r.value.code }), 303);
        const fields = Object.keys(r.fieldErrors).length > 0;
        return Response.json(
          { error: fields ? null : staffPayErrorKey(r.error), fieldErrors: r.fieldErrors, values: input },
          { status: errorStatus(r.error) },
        );
      }),
      deactivate: onIntent(staffVoucherForm, async (input) => {
        const r = await deactivateVoucher(scope, Number(input.id));
        if (!r.ok) return Response.json({ error: staffPayErrorKey(r.error), fieldErrors: {} }, { status: errorStatus(r.error) });
        return redirect(paths.staffVouchers(scope.lang, { deactivated: r.value.code }), 303);
      }),
    },
    () => Response.json({ error: "staffpay:errors.bad-form", fieldErrors: {} }, { status: 400 }),
  );
}

export default function StaffVouchers() {
  const { vouchers, currencies, created, deactivated } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as
    { error: string | null; fieldErrors: Record<string, string>; values?: StaffVoucherInput } | undefined;
  const { t } = useTranslation("staffpay");
  const lang = useLang();
  const fe = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  const field = (name: keyof StaffVoucherInput & string, label: string, props: Record<string, unknown> = {}) => (
    <PlainField name={name} idPrefix="sv" label={label} error={fe[name] ? t(fe[name]) : null}>
      {(control) => <input {...control} defaultValue={values[name] ?? ""} {...props} />}
    </PlainField>
  );

  return (
    <div className="stack">
      <h1>{t("vouchers.title")}</h1>
      <ActionAlerts
        done={[created && t("vouchers.created", { code: created }), deactivated && t("vouchers.deactivated", { code: deactivated })]}
        error={actionData?.error && t(actionData.error)}
      />
      <section className="card stack" aria-labelledby="sv-new">
        <h2 id="sv-new">{t("vouchers.new")}</h2>
        <Form method="post" className="stack">
          <input type="hidden" name="intent" value="create" />
          <div className="field-row">
            {field("code", t("vouchers.code"), { maxLength: 40, autoComplete: "off" })}
            {field("description", t("vouchers.description"), { maxLength: 200 })}
          </div>
          <p className="field-hint">{t("vouchers.codeHint")}</p>
          <fieldset className={fe.kind ? "field-invalid" : undefined}>
            <legend>{t("vouchers.kind")}</legend>
            <label className="checkbox">
              <input type="radio" name="kind" value="amount" defaultChecked={values.kind !== "percent"} />
              <span>{t("vouchers.kindAmount")}</span>
            </label>
            <label className="checkbox">
              <input type="radio" name="kind" value="percent" defaultChecked={values.kind === "percent"} />
              <span>{t("vouchers.kindPercent")}</span>
            </label>
            {fe.kind ? <p className="field-error">{t(fe.kind)}</p> : null}
          </fieldset>
          <div className="field-row">
            {field("amount", t("vouchers.amount"), { inputMode: "decimal" })}
            <div className={`field${fe.currencyIso ? " field-invalid" : ""}`}>
              <label htmlFor="sv-currencyIso">{t("vouchers.currency")}</label>
              <select id="sv-currencyIso" name="currencyIso" defaultValue={values.currencyIso ?? "USD"}>
                {currencies.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
              {fe.currencyIso ? <p className="field-error">{t(fe.currencyIso)}</p> : null}
            </div>
            {field("percent", t("vouchers.percent"), { inputMode: "numeric" })}
          </div>
          <div className="field-row">
            {field("maxUses", t("vouchers.maxUses"), { inputMode: "numeric" })}
            {field("validUntil", t("vouchers.validUntil"), { type: "date" })}
          </div>
          <div className="actions">
            <button type="submit" className="button button-primary">
              {t("vouchers.create")}
            </button>
          </div>
        </Form>
      </section>
      {vouchers.length ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t("vouchers.title")}>
          <table>
            <thead>
              <tr>
                <th>{t("vouchers.code")}</th>
                <th>{t("vouchers.value")}</th>
                <th>{t("vouchers.uses")}</th>
                <th>{t("vouchers.validUntil")}</th>
                <th>{t("vouchers.state")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {vouchers.map((v) => (
                <tr key={v.id}>
                  <td className="break">
                    <code>{v.code}</code>
                    {v.description ? (
                      <>
                        <br />
                        <span className="field-hint">{v.description}</span>
                      </>
                    ) : null}
                  </td>
                  <td>
                    {v.percent !== null ? `${v.percent}%` : v.currency && v.amount !== null ? formatMoney(v.amount, v.currency) : "—"}
                  </td>
                  <td>{v.maxUses !== null ? `${v.timesUsed} / ${v.maxUses}` : String(v.timesUsed)}</td>
                  <td>{v.validUntil ? formatDate(v.validUntil, lang) : "—"}</td>
                  <td>
                    <span className="badge">{v.active ? t("vouchers.active") : t("vouchers.inactive")}</span>
                  </td>
                  <td>
                    {v.active ? (
                      <Form method="post">
                        <input type="hidden" name="intent" value="deactivate" />
                        <input type="hidden" name="id" value={v.id} />
                        <button type="submit" className="button button-small" aria-label={t("vouchers.deactivateNamed", { code: v.code })}>
                          {t("vouchers.deactivate")}
                        </button>
                      </Form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>{t("vouchers.none")}</p>
      )}
    </div>
  );
}
