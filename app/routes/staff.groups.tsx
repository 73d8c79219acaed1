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
import { formatMoney, majorText } from "#common/money";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { staffGroupForm, type StaffGroupInput } from "#common/groups/schemas";
import { createGroup, listGroups, updateGroup, type StaffGroupRow } from "#server/groups";
import { ActionAlerts } from "#app/components/staff/ActionAlerts";

export const handle = { i18n: ["home", "staffops"] };
export const meta = titleMeta;

const USD = { isoCode: "USD", sign: "$", numDecimals: 2 };

// /staff/groups (issue 25 item 5): the preferred groups, a new one; /staff/groups/{id}: edit one. Audited; the
// catalogue (which prices the discount) is invalidated after each change. POST → 303 → GET.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const r = await listGroups(scope);
  if (!r.ok) throw new Response("Forbidden", { status: errorStatus(r.error) });
  const editing = params.id === undefined ? null : (r.value.find((g) => String(g.id) === params.id) ?? null);
  if (params.id !== undefined && !editing) throw new Response("Not Found", { status: errorStatus("not-found") });
  const t = await getFixedT(request, "home");
  const q = new URL(request.url).searchParams;
  return { title: t("staff.title"), groups: r.value, editing, created: q.get("created"), saved: q.get("saved") };
}

type ActionData = { error: string | null; fieldErrors: Record<string, string>; values?: StaffGroupInput };

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const refused = (r: { error: string; fieldErrors: Record<string, string> }, values: StaffGroupInput) =>
    Response.json(
      {
        error: Object.keys(r.fieldErrors).length ? null : "home:staff.errors.failed",
        fieldErrors: r.fieldErrors,
        values,
      } satisfies ActionData,
      { status: errorStatus(r.error) },
    );
  return dispatchIntent(
    await readFormData(request),
    {
      create: onIntent(staffGroupForm, async (input) => {
        const r = await createGroup(scope, input);
        return r.ok ? redirect(paths.staffGroups(scope.lang, undefined, { created: r.value.code }), 303) : refused(r, input);
      }),
      update: onIntent(staffGroupForm, async (input) => {
        const r = await updateGroup(scope, Number(params.id ?? input.id), input);
        return r.ok ? redirect(paths.staffGroups(scope.lang, undefined, { saved: r.value.code }), 303) : refused(r, input);
      }),
    },
    () => Response.json({ error: "home:staff.errors.bad-form", fieldErrors: {} } satisfies ActionData, { status: 400 }),
  );
}

function discountText(g: Pick<StaffGroupRow, "discount" | "percentageDiscount">) {
  return g.percentageDiscount ? `${g.discount}%` : formatMoney(Math.round(g.discount), USD);
}

/** The form's values from a row: the discount as typed (a percent, or US dollars). */
function valuesOf(g: StaffGroupRow): StaffGroupInput {
  return {
    code: g.code,
    name: g.name,
    kind: g.percentageDiscount ? "percent" : "amount",
    discount: g.percentageDiscount ? String(g.discount) : majorText(Math.round(g.discount), 2),
    greetingText: g.greetingText ?? "",
    active: g.active ? "on" : undefined,
    membershipDisplayed: g.membershipDisplayed ? "on" : undefined,
    shareable: g.shareable ? "on" : undefined,
  };
}

function GroupForm({ editing, action }: { editing: StaffGroupRow | null; action: ActionData | undefined }) {
  const { t } = useTranslation("home");
  const fe = action?.fieldErrors ?? {};
  const values: StaffGroupInput =
    action?.values ?? (editing ? valuesOf(editing) : { kind: "percent", active: "on", membershipDisplayed: "on" });
  const field = (name: keyof StaffGroupInput & string, label: string, props: Record<string, unknown> = {}) => (
    <PlainField name={name} idPrefix="sg" label={label} error={fe[name] ? t(fe[name]) : null}>
      {(control) => <input {...control} defaultValue={values[name] ?? ""} {...props} />}
    </PlainField>
  );
  const box = (name: "active" | "membershipDisplayed" | "shareable", label: string) => (
    <label className="checkbox">
      <input type="checkbox" name={name} defaultChecked={values[name] === "on" || values[name] === "true"} />
      <span>{label}</span>
    </label>
  );
  return (
    <Form method="post" className="stack">
      <input type="hidden" name="intent" value={editing ? "update" : "create"} />
      <div className="field-row">
        {editing ? (
          <p>
            {t("staff.code")}: <code>{editing.code}</code>
          </p>
        ) : (
          field("code", t("staff.code"), { maxLength: 64, autoComplete: "off", required: true })
        )}
        {field("name", t("staff.name"), { maxLength: 200, required: true })}
      </div>
      <fieldset>
        <legend>{t("staff.kind")}</legend>
        <label className="checkbox">
          <input type="radio" name="kind" value="percent" defaultChecked={values.kind !== "amount"} />
          <span>{t("staff.kindPercent")}</span>
        </label>
        <label className="checkbox">
          <input type="radio" name="kind" value="amount" defaultChecked={values.kind === "amount"} />
          <span>{t("staff.kindAmount")}</span>
        </label>
      </fieldset>
      {field("discount", t("staff.discount"), { inputMode: "decimal", required: true })}
      <PlainField name="greetingText" idPrefix="sg" label={t("staff.greeting")} error={fe.greetingText ? t(fe.greetingText) : null}>
        {(control) => <textarea {...control} rows={3} maxLength={500} defaultValue={values.greetingText ?? ""} />}
      </PlainField>
      <div className="stack">
        {box("active", t("staff.active"))}
        {box("membershipDisplayed", t("staff.membershipDisplayed"))}
        {box("shareable", t("staff.shareable"))}
      </div>
      <div className="actions">
        <button type="submit" className="button button-primary">
          {editing ? t("staff.save") : t("staff.create")}
        </button>
      </div>
    </Form>
  );
}

export default function StaffGroups() {
  const { groups, editing, created, saved } = useLoaderData<typeof loader>();
  const action = useActionData<typeof action>() as ActionData | undefined;
  const { t } = useTranslation("home");
  const lang = useLang();
  return (
    <div className="stack">
      <h1>{editing ? t("staff.editTitle", { code: editing.code }) : t("staff.title")}</h1>
      <ActionAlerts
        done={[created && t("staff.created", { code: created }), saved && t("staff.saved", { code: saved })]}
        error={action?.error && t(action.error)}
      />
      <section className="card stack" aria-labelledby="sg-form">
        <h2 id="sg-form">{editing ? t("staff.edit") : t("staff.new")}</h2>
        <GroupForm key={editing?.id ?? "new"} editing={editing} action={action} />
        {editing ? (
          <p>
            <Link to={paths.staffGroups(lang)}>{t("staff.back")}</Link>
          </p>
        ) : null}
      </section>
      {groups.length ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t("staff.title")}>
          <table>
            <thead>
              <tr>
                <th>{t("staff.code")}</th>
                <th>{t("staff.discount")}</th>
                <th>{t("staff.members")}</th>
                <th>{t("staff.state")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {groups.map((g) => (
                <tr key={g.id}>
                  <td className="break">
                    <code>{g.code}</code>
                    <br />
                    <span className="field-hint">{g.name}</span>
                  </td>
                  <td>{discountText(g)}</td>
                  <td>{g.members}</td>
                  <td>
                    <span className="badge">{g.active ? t("staff.activeBadge") : t("staff.inactiveBadge")}</span>{" "}
                    {g.membershipDisplayed ? null : <span className="badge">{t("staff.membershipHidden")}</span>}
                  </td>
                  <td>
                    <Link to={paths.staffGroups(lang, g.id)} aria-label={t("staff.editNamed", { code: g.code })}>
                      {t("staff.edit")}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>{t("staff.none")}</p>
      )}
    </div>
  );
}
