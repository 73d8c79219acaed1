import { Link, useLoaderData } from "@remix-run/react";
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { requireLang, requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { paths } from "#common/paths";
import { formatDate } from "#common/format";
import { recentDocuments, rubriqExternalTarget, rubriqPlanPurchase } from "#server/home";
import { digitalAccess } from "#server/digital";
import { RefreshWhile } from "#app/components/digital/polling";

export const meta = titleMeta;
export const handle = { i18n: ["home", "digital"] };

/** The documents the overview lists (newest first). */
const OVERVIEW_DOCUMENTS = 30;

// /{lang}/rubriq/* (spec 3 §2, issue 25 item 6, ADR 077). With rubriq_ui_hosted_on_new_site on and a valid
// rubriqExternalUrl, every path leaves for it keeping path and query. Otherwise: /rubriq is the documents overview,
// /rubriq/translation the digital translations page, /rubriq/plan/subscribe the digital editing subscription (or,
// on the China localisation without rubriq_china_cart_purchase, a page saying plans are not sold there); any other
// path is not found.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const lang = requireLang(request);
  const url = new URL(request.url);
  const external = await rubriqExternalTarget(context.app, url.pathname, url.search);
  if (external) return redirect(external, 302);
  const rest = url.pathname.replace(/^\/[^/]+\/rubriq/, "").replace(/\/+$/, "");
  if (rest !== "" && rest !== "/translation" && rest !== "/plan/subscribe") throw new Response("Not Found", { status: 404 });
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const t = await getFixedT(request, "home");
  if (rest === "/translation") throw redirect(paths.digitalTranslations(lang), 303);
  if (rest === "/plan/subscribe") {
    if ((await rubriqPlanPurchase(scope)) === "subscribe") throw redirect(paths.digitalEditingSubscribe(lang), 303);
    return { page: "not-sold" as const, title: t("rubriq.planTitle"), documents: [], access: null, processing: false };
  }
  const [documents, access] = await Promise.all([recentDocuments(scope, OVERVIEW_DOCUMENTS), digitalAccess(scope)]);
  return {
    page: "overview" as const,
    title: t("rubriq.title"),
    documents,
    access,
    processing: documents.some((d) => d.status === "processing"),
  };
}

export default function Rubriq() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("home");
  const lang = useLang();
  if (data.page === "not-sold") {
    return (
      <div className="stack narrow">
        <h1>{t("rubriq.planTitle")}</h1>
        <p className="card">{t("rubriq.notSoldInChina")}</p>
        <p className="actions">
          <Link className="button button-primary" to={paths.chineseDigitalTrial(lang)}>
            {t("rubriq.trial")}
          </Link>
          <Link className="button" to={paths.support(lang)}>
            {t("rubriq.support")}
          </Link>
        </p>
      </div>
    );
  }
  return (
    <div className="stack">
      <RefreshWhile active={data.processing} />
      <h1>{t("rubriq.title")}</h1>
      <p>{t("rubriq.intro")}</p>
      {data.access?.editing || data.access?.translations ? (
        <p className="actions">
          {data.access.editing ? (
            <Link className="button" to={paths.digitalEditing(lang)}>
              {t("rubriq.editing")}
            </Link>
          ) : null}
          {data.access.translations ? (
            <Link className="button" to={paths.digitalTranslations(lang)}>
              {t("rubriq.translations")}
            </Link>
          ) : null}
        </p>
      ) : null}
      <section className="card stack" aria-labelledby="rubriq-documents" aria-busy={data.processing}>
        <h2 id="rubriq-documents">{t("documents.title")}</h2>
        {data.documents.length ? (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="rubriq-documents">
            <table>
              <thead>
                <tr>
                  <th>{t("rubriq.file")}</th>
                  <th>{t("rubriq.kind")}</th>
                  <th>{t("rubriq.status")}</th>
                  <th>{t("rubriq.created")}</th>
                </tr>
              </thead>
              <tbody>
                {data.documents.map((d) => (
                  <tr key={`${d.kind}-${d.identity}`}>
                    <td className="break">
                      <Link to={d.kind === "edit" ? paths.digitalEditingDetails(lang, d.identity) : paths.digitalTranslations(lang)}>
                        {d.fileName}
                      </Link>
                    </td>
                    <td>{t(`documents.kind.${d.kind}`)}</td>
                    <td>
                      <span className={`badge digital-status digital-status-${d.status}`}>{t(`documents.status.${d.status}`)}</span>
                    </td>
                    <td>{formatDate(d.createdAt, lang)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{t("documents.none")}</p>
        )}
      </section>
    </div>
  );
}
