import { Form, Link, useLoaderData } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { parseFields } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { formatDate } from "#common/format";
import { paths } from "#common/paths";
import { FAPIAO_STATUSES, staffFapiaoListQuery } from "#common/fapiao/schemas";
import { staffListFapiaos } from "#server/fapiao";

export const handle = { i18n: ["fapiao", "staffops", "staffpay"] };
export const meta = titleMeta;

type Status = (typeof FAPIAO_STATUSES)[number];

// /staff/fapiaos (issue 13 §4): every researcher's fapiaos, the requested ones first by default; each opens its page.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const t = await getFixedT(request, "fapiao");
  const params = new URL(request.url).searchParams;
  // No status given: the requested ones (the desk's work); "all" lists every status.
  const raw = params.get("status") ?? "requested";
  const parsed = parseFields<{ status?: Status }>({ status: raw === "all" ? "" : raw }, staffFapiaoListQuery);
  const status = parsed.status === "success" ? parsed.value.status : undefined;
  const r = await staffListFapiaos(scope, { status });
  if (!r.ok) throw new Response("Forbidden", { status: 403 });
  return { title: t("staff.title"), status: status ?? "all", fapiaos: r.value };
}

export default function StaffFapiaos() {
  const { status, fapiaos } = useLoaderData<typeof loader>();
  const { t } = useTranslation("fapiao");
  const lang = useLang();
  return (
    <div className="stack">
      <h1>{t("staff.title")}</h1>
      <Form method="get" className="card field-row" aria-label={t("staff.filter")}>
        <div className="field">
          <label htmlFor="sf-status">{t("list.status")}</label>
          <select id="sf-status" name="status" defaultValue={status}>
            <option value="all">{t("staff.all")}</option>
            {FAPIAO_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`statuses.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="actions">
          <button type="submit" className="button">
            {t("staff.show")}
          </button>
        </div>
      </Form>
      <p role="status">{t("staff.count", { count: fapiaos.length })}</p>
      {fapiaos.length ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t("staff.title")}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t("list.requestedOn")}</th>
                <th scope="col">{t("staff.researcher")}</th>
                <th scope="col">{t("staff.document")}</th>
                <th scope="col">{t("form.type")}</th>
                <th scope="col">{t("form.title")}</th>
                <th scope="col">{t("list.status")}</th>
              </tr>
            </thead>
            <tbody>
              {fapiaos.map((f) => (
                <tr key={f.id}>
                  <td>{formatDate(f.createdAt, lang)}</td>
                  <td>{f.researcher.email}</td>
                  <td>
                    <Link to={paths.staffFapiao(lang, f.id)}>{f.invoiceNumber ?? f.retainerInvoiceNumber}</Link>
                  </td>
                  <td>
                    {t(`types.${f.type}`)} · {t(`origins.${f.origin}`)}
                  </td>
                  <td>{f.title}</td>
                  <td>
                    <span className={`fapiao-status fapiao-status-${f.status}`}>{t(`statuses.${f.status}`)}</span>
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
