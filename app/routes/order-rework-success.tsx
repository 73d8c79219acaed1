import { Link, isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { findOrder } from "#server/orders/read";
import { decodeReworkSuccess } from "#common/orders/edit";
import { paths } from "#common/paths";
import { ErrorPanel } from "#app/components/ErrorPanel";

export const handle = { i18n: ["details"] };
export const meta = titleMeta;

// /researcher/index/details/{externalId}/rework-success/{data?} (spec 2 §2): the files received for a re-edit.
// `data` is base64url JSON {files:[{identity,name}]}; anything else is a 400 with a translated message.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const t = await getFixedT(request, "details");
  const order = await findOrder(scope, params.externalId ?? "");
  if (!order) throw new Response("Not Found", { status: 404 });
  const decoded = decodeReworkSuccess(params.data);
  if (!decoded) throw Response.json({ title: t("reworkSuccess.badDataTitle") }, { status: 400 });
  return { title: t("reworkSuccess.title"), externalId: order.externalId, files: decoded.files };
}

export default function ReworkSuccess() {
  const { externalId, files } = useLoaderData<typeof loader>();
  const { t } = useTranslation("details");
  const lang = useLang();
  return (
    <article className="stack narrow">
      <h1>{t("reworkSuccess.title")}</h1>
      <section className="card stack">
        <p>{t("reworkSuccess.body", { externalId })}</p>
        {files.length ? (
          <ul className="file-list" aria-label={t("reworkSuccess.files")}>
            {files.map((f) => (
              <li key={f.identity}>{f.name}</li>
            ))}
          </ul>
        ) : null}
        <p>{t("reworkSuccess.free")}</p>
        <p className="actions">
          <Link className="button button-primary" to={paths.home(lang)}>
            {t("reworkSuccess.close")}
          </Link>
        </p>
      </section>
    </article>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation("details");
  const lang = useLang();
  if (!isRouteErrorResponse(error) || error.status !== 400) return <ErrorPanel status={isRouteErrorResponse(error) ? error.status : 500} />;
  return (
    <article className="stack narrow">
      <h1>{t("reworkSuccess.badDataTitle")}</h1>
      <p className="alert alert-danger" role="alert">
        {t("reworkSuccess.badData")}
      </p>
      <p>
        <Link to={paths.researcher(lang)}>{t("back")}</Link>
      </p>
    </article>
  );
}
