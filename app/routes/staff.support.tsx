import { Form, Link, useLoaderData } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { formatDateTime } from "#common/format";
import { useLang } from "#app/lib/use-lang";
import { pageScope } from "#app/lib/scope.server";
import { dispatchIntent, onIntent, readFormData } from "#app/lib/forms.server";
import { paths } from "#common/paths";
import { closeSupportForm } from "#common/support/schemas";
import { closeSupportRequest, readSupportRequests, type SupportRequestView } from "#server/support";

export const meta = titleMeta;
export const handle = { i18n: ["support"] };

// Support requests (issue 11 §4): the list (open first by default, ?status=closed|all), one request with its
// message and proof-of-payment file (…/file downloads it, audited), and Close.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const session = await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const s = new URL(request.url).searchParams.get("status");
  const status = s === "closed" || s === "all" ? s : "open";
  const t = await getFixedT(request, "support");
  const { requests, selected } = await readSupportRequests(scope.app, { userId: session.user.id }, { status, id: params.id });
  if (params.id && !selected) throw new Response("Not Found", { status: 404 });
  return { title: t("staff.title"), requests, selected, status };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const session = await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const id = params.id;
  if (!id) throw new Response("Bad Request", { status: 400 });
  return dispatchIntent(
    await readFormData(request),
    {
      close: onIntent(closeSupportForm, async () => {
        const r = await closeSupportRequest(scope.app, { userId: session.user.id }, id);
        if (!r.ok) throw new Response("Not Found", { status: 404 });
        return redirect(paths.staffSupport(scope.lang, id), { status: 303 });
      }),
    },
    // The page's one form has nothing to get wrong: the error page says the request could not be read.
    () => {
      throw new Response("Bad Request", { status: 400 });
    },
  );
}

export default function StaffSupport() {
  const { requests, selected, status } = useLoaderData<typeof loader>() as unknown as {
    requests: SupportRequestView[];
    selected: SupportRequestView | null;
    status: "open" | "closed" | "all";
  };
  const { t } = useTranslation("support");
  const lang = useLang();
  return (
    <div className="stack">
      <h1>{t("staff.title")}</h1>
      {selected ? (
        <article className="card stack" aria-label={t("staff.request", { id: selected.id })}>
          <h2>{selected.subject || t(`staff.types.${selected.type}`)}</h2>
          <dl className="details-list">
            <dt>{t("staff.type")}</dt>
            <dd>{t(`staff.types.${selected.type}`)}</dd>
            <dt>{t("staff.from")}</dt>
            <dd>
              {selected.name ? `${selected.name} · ` : ""}
              {selected.email}
              {selected.user ? ` (${t("staff.account")}: ${selected.user.email})` : ""}
            </dd>
            <dt>{t("staff.order")}</dt>
            <dd>{selected.order ? `${selected.order.externalId} — ${selected.order.title}` : "—"}</dd>
            <dt>{t("staff.date")}</dt>
            <dd>{formatDateTime(selected.createdAt, lang)}</dd>
            <dt>{t("staff.status")}</dt>
            <dd data-support-status>{t(`staff.statuses.${selected.status}`)}</dd>
          </dl>
          <pre className="mail-body">{selected.message}</pre>
          {selected.file ? (
            <p>
              <a href={`${paths.staffSupport(lang, selected.id)}/file`} download>
                {t("staff.file", { name: selected.file.name })}
              </a>
            </p>
          ) : null}
          {selected.status === "open" ? (
            <Form method="post">
              <input type="hidden" name="intent" value="close" />
              <button type="submit" className="button">
                {t("staff.close")}
              </button>
            </Form>
          ) : (
            <p>
              {t("staff.closedBy", {
                who: selected.closedBy ?? "—",
                date: selected.closedAt ? formatDateTime(selected.closedAt, lang) : "—",
              })}
            </p>
          )}
        </article>
      ) : null}
      <nav className="actions" aria-label={t("staff.filter")}>
        {(["open", "closed", "all"] as const).map((s) =>
          s === status ? (
            <strong key={s}>{t(`staff.show.${s}`)}</strong>
          ) : (
            <Link key={s} to={`${paths.staffSupport(lang)}?status=${s}`}>
              {t(`staff.show.${s}`)}
            </Link>
          ),
        )}
      </nav>
      {requests.length === 0 ? <p>{t("staff.empty")}</p> : null}
      {requests.length ? (
        <table>
          <thead>
            <tr>
              <th>{t("staff.date")}</th>
              <th>{t("staff.type")}</th>
              <th>{t("staff.from")}</th>
              <th>{t("staff.order")}</th>
              <th>{t("staff.status")}</th>
            </tr>
          </thead>
          <tbody>
            {requests.map((r) => (
              <tr key={r.id}>
                <td>
                  <Link to={paths.staffSupport(lang, r.id)}>{formatDateTime(r.createdAt, lang)}</Link>
                </td>
                <td>{t(`staff.types.${r.type}`)}</td>
                <td>{r.email}</td>
                <td>{r.order?.externalId ?? "—"}</td>
                <td>{t(`staff.statuses.${r.status}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
