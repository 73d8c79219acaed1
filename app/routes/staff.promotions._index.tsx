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
import { formatDate } from "#common/format";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { staffCampaignForm, type StaffCampaignInput } from "#common/rewards/schemas";
import { createCampaign, listCampaigns } from "#server/staff/promotions";
import { ActionAlerts } from "#app/components/staff/ActionAlerts";

export const handle = { i18n: ["rewards", "staffops"] };
export const meta = titleMeta;

const errorKey = (error: string) =>
  error === "not-allowed" || error === "not-found" ? `rewards:errors.${error}` : "rewards:errors.bad-form";

// /staff/promotions: the campaigns and a new one (issue 25 item 2). POST → 303 → GET; every change audited.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const r = await listCampaigns(scope);
  if (!r.ok) throw new Response(null, { status: errorStatus(r.error) });
  const t = await getFixedT(request, "rewards");
  return { title: t("staff.title"), campaigns: r.value, created: new URL(request.url).searchParams.get("created") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  return dispatchIntent(
    await readFormData(request),
    {
      create: onIntent(staffCampaignForm, async (input) => {
        const r = await createCampaign(scope, input);
        if (r.ok) return redirect(`${paths.staffPromotions(scope.lang, r.value.id)}?created=1`, 303);
        const fields = Object.keys(r.fieldErrors).length > 0;
        return Response.json(
          { error: fields ? null : errorKey(r.error), fieldErrors: r.fieldErrors, values: input },
          { status: errorStatus(r.error) },
        );
      }),
    },
    () => Response.json({ error: "rewards:errors.bad-form", fieldErrors: {} }, { status: 400 }),
  );
}

export default function StaffPromotions() {
  const { campaigns } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as
    { error: string | null; fieldErrors: Record<string, string>; values?: StaffCampaignInput } | undefined;
  const { t } = useTranslation("rewards");
  const lang = useLang();
  const dates = (from: string | null, to: string | null) =>
    !from && !to ? t("promotions.noEnd") : `${from ? formatDate(from, lang) : "—"} – ${to ? formatDate(to, lang) : t("promotions.noEnd")}`;
  const fe = actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  const field = (name: keyof StaffCampaignInput & string, label: string, props: Record<string, unknown> = {}) => (
    <PlainField name={name} idPrefix="pc" label={label} error={fe[name] ? t(fe[name]) : null}>
      {(control) => <input {...control} defaultValue={values[name] ?? ""} {...props} />}
    </PlainField>
  );
  return (
    <div className="stack">
      <h1>{t("staff.title")}</h1>
      <p>{t("staff.intro")}</p>
      <ActionAlerts error={actionData?.error && t(actionData.error)} />
      <section className="card stack" aria-labelledby="pc-new">
        <h2 id="pc-new">{t("staff.newCampaign")}</h2>
        <Form method="post" className="stack">
          <input type="hidden" name="intent" value="create" />
          {field("name", t("staff.name"), { maxLength: 120, required: true })}
          {field("description", t("staff.description"), { maxLength: 2000 })}
          <div className="field-row">
            {field("startsOn", t("staff.startsOn"), { type: "date" })}
            {field("endsOn", t("staff.endsOn"), { type: "date" })}
          </div>
          <label className="checkbox">
            <input type="checkbox" name="highlighted" defaultChecked={values.highlighted === "on"} />
            <span>{t("staff.highlighted")}</span>
          </label>
          <div className="actions">
            <button type="submit" className="button button-primary">
              {t("staff.create")}
            </button>
          </div>
        </Form>
      </section>
      <section className="stack" aria-labelledby="pc-list">
        <h2 id="pc-list">{t("staff.campaigns")}</h2>
        {campaigns.length ? (
          <div className="table-scroll" tabIndex={0} role="region" aria-label={t("staff.campaigns")}>
            <table>
              <thead>
                <tr>
                  <th>{t("staff.name")}</th>
                  <th>{t("staff.dates")}</th>
                  <th>{t("staff.codes")}</th>
                  <th>{t("staff.featured")}</th>
                </tr>
              </thead>
              <tbody>
                {campaigns.map((c) => (
                  <tr key={c.id}>
                    <td className="break">
                      <Link to={paths.staffPromotions(lang, c.id)}>{c.name}</Link>
                      {c.description ? (
                        <>
                          <br />
                          <span className="field-hint">{c.description}</span>
                        </>
                      ) : null}
                    </td>
                    <td>{dates(c.startsAt, c.endsAt)}</td>
                    <td>{c.codes}</td>
                    <td>{c.highlighted ? "✓" : ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{t("staff.none")}</p>
        )}
      </section>
    </div>
  );
}
