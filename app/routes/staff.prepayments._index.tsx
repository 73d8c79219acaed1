import { Form, Link, useLoaderData } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { formatDate, formatMoney } from "#common/format";
import { paths } from "#common/paths";
import { unpaidRetainers } from "#server/prepay";

export const handle = { i18n: ["prepay", "staffpay"] };
export const meta = titleMeta;

// /staff/prepayments: unpaid retainer invoices, newest first, by researcher e-mail: where staff find the one a
// bank transfer pays (issue 13 §1).
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const email = (new URL(request.url).searchParams.get("email") ?? "").slice(0, 254);
  const t = await getFixedT(request, "prepay");
  return { title: t("staff.listTitle"), email, retainers: await unpaidRetainers(scope.app, email) };
}

export default function StaffPrepayments() {
  const { email, retainers } = useLoaderData<typeof loader>();
  const { t } = useTranslation("prepay");
  const lang = useLang();
  return (
    <div className="stack">
      <h1>{t("staff.listTitle")}</h1>
      <Form method="get" className="field-row">
        <div className="field">
          <label htmlFor="sp-email">{t("staff.email")}</label>
          <input id="sp-email" name="email" type="search" defaultValue={email} maxLength={254} />
        </div>
        <div className="actions">
          <button type="submit" className="button">
            {t("staff.search")}
          </button>
        </div>
      </Form>
      {retainers.length ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t("staff.listTitle")}>
          <table>
            <thead>
              <tr>
                <th>{t("prepayments.number")}</th>
                <th>{t("staff.researcher")}</th>
                <th>{t("prepayments.date")}</th>
                <th className="amount">{t("staff.balance")}</th>
              </tr>
            </thead>
            <tbody>
              {retainers.map((r) => (
                <tr key={r.number}>
                  <td>
                    <Link to={paths.staffRetainerInvoice(lang, r.number)}>{r.number}</Link>
                  </td>
                  <td className="break">{r.email}</td>
                  <td>{formatDate(r.createdAt, lang)}</td>
                  <td className="amount">{formatMoney(r.balance, r.currency)}</td>
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
