import { Link, useLoaderData } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { formatDateTime } from "#common/format";
import { useLang } from "#app/lib/use-lang";
import { pageScope } from "#app/lib/scope.server";
import { paths } from "#common/paths";
import { outboxPage } from "#server/staff/outbox";

export const meta = titleMeta;

// The e-mail outbox: every message the portal sent or, without SMTP, kept.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const t = await getFixedT(request);
  const to = new URL(request.url).searchParams.get("to") ?? undefined;
  const messages = await outboxPage(scope, { to, selectedId: params.id });
  if (params.id && !messages.some((m) => m.id === params.id)) throw new Response("Not Found", { status: 404 });
  return { title: t("staff.outbox"), messages, selected: params.id ?? null };
}

export default function Outbox() {
  const { messages, selected } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const lang = useLang();
  const open = messages.find((m) => m.id === selected);
  return (
    <div className="stack">
      <h1>{t("staff.outbox")}</h1>
      {open ? (
        <article className="card" aria-label={open.subject}>
          <h2>{open.subject}</h2>
          <p>
            {t("staff.to")}: {open.to} · {formatDateTime(open.createdAt, lang)} · {t(`staff.statuses.${open.status}`)}
          </p>
          {open.error ? (
            <p className="alert alert-danger" data-mail-error>
              {t("staff.reason")}: {open.error}
            </p>
          ) : null}
          {open.redacted ? <p className="alert alert-info">{t("staff.redactedNote")}</p> : null}
          <pre className="mail-body">{open.body}</pre>
        </article>
      ) : null}
      {messages.length === 0 ? <p>{t("staff.outboxEmpty")}</p> : null}
      <table>
        <thead>
          <tr>
            <th>{t("staff.date")}</th>
            <th>{t("staff.to")}</th>
            <th>{t("staff.subject")}</th>
            <th>{t("staff.status")}</th>
          </tr>
        </thead>
        <tbody>
          {messages.map((m) => (
            <tr key={m.id}>
              <td>{formatDateTime(m.createdAt, lang)}</td>
              <td>{m.to}</td>
              <td>
                <Link to={paths.staffOutbox(lang, m.id)}>{m.subject}</Link>
              </td>
              <td>{t(`staff.statuses.${m.status}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
