import { Link, useLoaderData } from "@remix-run/react";
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { requireLang, requireUser } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { reworkableOrder } from "#server/order-form";
import { paths } from "#common/paths";

export const handle = { i18n: ["order"] };
export const meta = titleMeta;

// /researcher/index/re-edit/{externalId} (spec 2): the re-edit request page. Continue opens the rework
// start screen through /api/order-form/reedit/{externalId}; an order that is not found sends the visitor home.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const lang = requireLang(request);
  const order = await reworkableOrder(context.app, session.user.id, params.externalId ?? "");
  if (!order) throw redirect(paths.home(lang));
  const t = await getFixedT(request, "order");
  return { title: t("rework.requestTitle"), order: { externalId: order.externalId, title: order.title } };
}

export default function ReEdit() {
  const { order } = useLoaderData<typeof loader>();
  const { t } = useTranslation("order");
  const lang = useLang();
  return (
    <article className="stack narrow">
      <h1>{t("rework.requestTitle")}</h1>
      <section className="card stack">
        <p>
          {t("orderDetails.number")}: <strong data-external-id>{order.externalId}</strong>
        </p>
        <h2>{order.title}</h2>
        <p>{t("rework.requestBody")}</p>
        <p className="wizard-actions">
          {/* A plain link (spec 2): opening the rework form is like opening a new order form, a draft nobody sees until used. */}
          <a className="button button-primary" href={`/api/order-form/reedit/${encodeURIComponent(order.externalId)}`}>
            {t("rework.continue")}
          </a>
          <Link to={paths.researcher(lang)}>{t("rework.backToOrders")}</Link>
        </p>
      </section>
    </article>
  );
}
