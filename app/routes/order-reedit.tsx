import { Link, useLoaderData } from "@remix-run/react";
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { reworkableOrder } from "#server/order-form";
import { paths } from "#common/paths";

export const handle = { i18n: ["order"] };
export const meta = titleMeta;

// /researcher/index/re-edit/{externalId} (spec 2): the re-edit request page. Continue opens the rework
// start screen through /api/order-form/reedit/{externalId}; an order that is not found, or that offers no
// re-edit (not completed and downloadable, past the window, figures or formatting: flags.reeditAvailable),
// sends the visitor home (spec 2 §8).
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const order = await reworkableOrder(scope, params.externalId ?? "");
  if (!order) throw redirect(paths.home(scope.lang));
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
