import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
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
import { USD } from "#common/money";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { staffPromoCodeForm, type StaffPromoCodeInput } from "#common/rewards/schemas";
import { campaignOf, createCampaignCode, deactivateCampaignCode } from "#server/staff/promotions";
import { ActionAlerts } from "#app/components/staff/ActionAlerts";

export const handle = { i18n: ["rewards", "staffops"] };
export const meta = titleMeta;

const idOf = (v: string | undefined) => (v && /^\d{1,9}$/.test(v) ? Number(v) : null);
const errorKey = (error: string) =>
  error === "not-allowed" || error === "not-found" ? `rewards:errors.${error}` : "rewards:errors.bad-form";

// /staff/promotions/{id}: a campaign, its public codes, a new code, deactivation (issue 25 item 2). POST → 303 → GET.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const id = idOf(params.id);
  const r = id === null ? null : await campaignOf(scope, id);
  if (!r) throw new Response("Not Found", { status: 404 });
  if (!r.ok) throw new Response(null, { status: errorStatus(r.error) });
  const t = await getFixedT(request, "rewards");
  const q = new URL(request.url).searchParams;
  return {
    title: t("staff.campaignTitle", { name: r.value.campaign.name }),
    ...r.value,
    created: q.get("created") === "1",
    codeCreated: q.get("code"),
    deactivated: q.get("deactivated"),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const id = idOf(params.id);
  if (id === null) throw new Response("Not Found", { status: 404 });
  const here = paths.staffPromotions(scope.lang, id);
  return dispatchIntent(
    await readFormData(request),
    {
      "add-code": onIntent(staffPromoCodeForm, async (input) => {
        const r = await createCampaignCode(scope, id, input);
        if (r.ok) return redirect(`${here}?code=${encodeURIComponent(r.value.code)}`, 303);
        const fields = Object.keys(r.fieldErrors).length > 0;
        return Response.json(
          { error: fields ? null : errorKey(r.error), fieldErrors: r.fieldErrors, values: input },
          { status: errorStatus(r.error) },
        );
      }),
      deactivate: onIntent(staffPromoCodeForm, async (input) => {
        const r = await deactivateCampaignCode(scope, id, Number(input.codeId));
        if (!r.ok) return Response.json({ error: errorKey(r.error), fieldErrors: {} }, { status: errorStatus(r.error) });
        return redirect(`${here}?deactivated=${encodeURIComponent(r.value.code)}`, 303);
      }),
    },
    () => Response.json({ error: "rewards:errors.bad-form", fieldErrors: {} }, { status: 400 }),
  );
}

export default function StaffPromotionCampaign() {
  const { campaign, codes, created, codeCreated, deactivated } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as
    { error: string | null; fieldErrors: Record<string, string>; values?: StaffPromoCodeInput } | undefined;
  const { t } = useTranslation("rewards");
  const lang = useLang();
  const dates = (from: string | null, to: string | null) =>
    !from && !to ? t("promotions.noEnd") : `${from ? formatDate(from, lang) : "—"} – ${to ? formatDate(to, lang) : t("promotions.noEnd")}`;
  const fe = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  const field = (name: keyof StaffPromoCodeInput & string, label: string, props: Record<string, unknown> = {}) => (
    <PlainField name={name} idPrefix="pcc" label={label} error={fe[name] ? t(fe[name]) : null}>
      {(control) => <input {...control} defaultValue={values[name] ?? ""} {...props} />}
    </PlainField>
  );
  return (
    <div className="stack">
      <p>
        <Link to={paths.staffPromotions(lang)}>← {t("staff.back")}</Link>
      </p>
      <h1>{t("staff.campaignTitle", { name: campaign.name })}</h1>
      {campaign.description ? <p>{campaign.description}</p> : null}
      <p className="field-hint">
        {t("staff.dates")}: {dates(campaign.startsAt, campaign.endsAt)}
        {campaign.highlighted ? ` · ${t("staff.featured")}` : ""}
      </p>
      <ActionAlerts
        done={[
          created && t("staff.created", { name: campaign.name }),
          codeCreated && t("staff.codeCreated", { code: codeCreated }),
          deactivated && t("staff.deactivated", { code: deactivated }),
        ]}
        error={actionData?.error && t(actionData.error)}
      />
      <section className="card stack" aria-labelledby="pcc-new">
        <h2 id="pcc-new">{t("staff.newCode")}</h2>
        <Form method="post" className="stack">
          <input type="hidden" name="intent" value="add-code" />
          <div className="field-row">
            {field("code", t("staff.code"), { maxLength: 40, autoComplete: "off" })}
            {field("name", t("staff.codeName"), { maxLength: 120 })}
          </div>
          <p className="field-hint">{t("staff.codeHint")}</p>
          <fieldset className={fe.kind ? "field-invalid" : undefined}>
            <legend>{t("staff.kind")}</legend>
            <label className="checkbox">
              <input type="radio" name="kind" value="percent" defaultChecked={values.kind !== "amount"} />
              <span>{t("staff.kindPercent")}</span>
            </label>
            <label className="checkbox">
              <input type="radio" name="kind" value="amount" defaultChecked={values.kind === "amount"} />
              <span>{t("staff.kindAmount")}</span>
            </label>
            {fe.kind ? <p className="field-error">{t(fe.kind)}</p> : null}
          </fieldset>
          <div className="field-row">
            {field("percent", t("staff.percent"), { inputMode: "numeric" })}
            {field("amount", t("staff.amount"), { inputMode: "decimal" })}
          </div>
          <div className="field-row">
            {field("startsOn", t("staff.startsOn"), { type: "date" })}
            {field("endsOn", t("staff.endsOn"), { type: "date" })}
            {field("maxUses", t("staff.maxUses"), { inputMode: "numeric" })}
          </div>
          <label className="checkbox">
            <input type="checkbox" name="highlighted" defaultChecked={values.highlighted === "on"} />
            <span>{t("staff.highlighted")}</span>
          </label>
          <div className="actions">
            <button type="submit" className="button button-primary">
              {t("staff.addCode")}
            </button>
          </div>
        </Form>
      </section>
      {codes.length ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t("staff.codes")}>
          <table>
            <thead>
              <tr>
                <th>{t("staff.code")}</th>
                <th>{t("staff.kind")}</th>
                <th>{t("staff.uses")}</th>
                <th>{t("staff.dates")}</th>
                <th>{t("staff.state")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {codes.map((c) => (
                <tr key={c.id}>
                  <td className="break">
                    <code>{c.code}</code>
                    {c.name ? (
                      <>
                        <br />
                        <span className="field-hint">{c.name}</span>
                      </>
                    ) : null}
                    {c.highlighted ? <span className="badge">{t("staff.featured")}</span> : null}
                  </td>
                  <td>{c.percent !== null ? `${c.percent}%` : formatMoney(c.amountUsdCents ?? 0, USD)}</td>
                  <td>{c.maxUses !== null ? `${c.timesUsed} / ${c.maxUses}` : String(c.timesUsed)}</td>
                  <td>{dates(c.startsAt, c.endsAt)}</td>
                  <td>
                    <span className="badge">{c.active ? t("staff.active") : t("staff.inactive")}</span>
                  </td>
                  <td>
                    {c.active ? (
                      <Form method="post">
                        <input type="hidden" name="intent" value="deactivate" />
                        <input type="hidden" name="codeId" value={c.id} />
                        <button type="submit" className="button button-small" aria-label={t("staff.deactivateNamed", { code: c.code })}>
                          {t("staff.deactivate")}
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
        <p>{t("staff.noCodes")}</p>
      )}
    </div>
  );
}
