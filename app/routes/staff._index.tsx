import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { parseForm } from "#app/lib/forms.server";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { impersonationSchema, type ImpersonationInput } from "#common/staff/schemas";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { signedInRedirect } from "#app/lib/sign-in.server";
import { countryName, formatDate } from "#common/format";
import { useLang } from "#app/lib/use-lang";
import { searchResearchers, startImpersonation } from "#server/staff/impersonation";

export const meta = titleMeta;
export const handle = { i18n: ["account"] };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const q = new URL(request.url).searchParams.get("q") ?? "";
  const t = await getFixedT(request);
  const results = await searchResearchers(scope, q);
  return { title: t("staff.title"), q, results: results.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })) };
}

// "View as" a researcher (spec 1 §2 "Staff").
export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const submission = await parseForm<ImpersonationInput>(request, impersonationSchema);
  const r = await startImpersonation(scope, submission.status === "success" ? submission.value : { identity: "" });
  if (!r.ok) return Response.json({ error: r.error }, { status: errorStatus(r.error) });
  return signedInRedirect(context, { token: r.value.token, lang: scope.lang, target: paths.researcher(scope.lang) });
}

export default function StaffSearch() {
  const { q, results } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <div className="stack">
      <h1>{t("staff.researchers")}</h1>
      {actionData?.error ? (
        <p className="alert alert-danger" role="alert">
          {t(`staff.errors.${actionData.error}`)}
        </p>
      ) : null}
      <Form method="get" className="field-row">
        <div className="field">
          <label htmlFor="staff-q">{t("staff.searchLabel")}</label>
          <input id="staff-q" name="q" type="search" defaultValue={q} minLength={2} />
        </div>
        <button type="submit" className="button">
          {t("staff.search")}
        </button>
      </Form>
      {params.get("q") && results.length === 0 ? <p>{t("staff.noResults")}</p> : null}
      {results.length ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t("staff.researchers")}>
          <table>
            <thead>
              <tr>
                <th>{t("staff.name")}</th>
                <th>{t("staff.email")}</th>
                <th>{t("staff.country")}</th>
                <th>{t("staff.since")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {results.map((r) => (
                <tr key={r.identity}>
                  <td>
                    {r.first_name} {r.last_name}
                  </td>
                  <td>{r.email}</td>
                  <td>{r.countryIso ? countryName(r.countryIso, lang, r.country ?? r.countryIso) : "—"}</td>
                  <td>{formatDate(r.created_at, lang)}</td>
                  <td className="actions">
                    <Link to={paths.staffResearcher(lang, r.identity)}>{t("account:staffControls.open")}</Link>
                    <Form method="post">
                      <input type="hidden" name="identity" value={r.identity} />
                      <button type="submit" className="button button-small" disabled={!r.active}>
                        {t("staff.viewAs")}
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
