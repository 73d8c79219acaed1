import { Link, useLoaderData, useParams } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatDateTime, formatMoney } from "#common/format";
import { requireUser } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { findOrder } from "#server/orders/read";
import { bankDetailsFor } from "#server/config";
import { pageScope } from "#app/lib/scope.server";
import { paths } from "#common/paths";

export const handle = { i18n: ["order", "catalogue"] };
export const meta = titleMeta;

// /researcher/index/details/{externalId}/{status?}: the order; 'thank-you' right after submitting.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const order = await findOrder(scope, params.externalId ?? "");
  // Another user's order is simply not found.
  if (!order) throw new Response("Not Found", { status: 404 });
  const t = await getFixedT(request, "order");
  const snapshot = await context.app.config.snapshot();
  return {
    title: t("orderDetails.title", { externalId: order.externalId }),
    order,
    bank: bankDetailsFor(snapshot.config, order.currency.isoCode),
    timeZone: snapshot.localizations.find((l) => l.identity === scope.localization)?.timeZone ?? "UTC",
  };
}

export default function OrderDetails() {
  const { order, bank, timeZone } = useLoaderData<typeof loader>();
  const params = useParams();
  const { t } = useTranslation("order");
  const lang = useLang();
  const thankYou = params.status === "thank-you";
  return (
    <article className="stack order-details">
      <p>
        <Link to={paths.researcher(lang)}>← {t("orderDetails.back")}</Link>
      </p>
      {thankYou ? (
        <div className="alert alert-success" role="status">
          <h1>{t("thankYou.title")}</h1>
          <p>{t("thankYou.body", { externalId: order.externalId })}</p>
        </div>
      ) : (
        <h1>{t("orderDetails.title", { externalId: order.externalId })}</h1>
      )}
      <section className="card">
        <h2>{order.title}</h2>
        <p>
          {t("orderDetails.number")}: <strong data-external-id>{order.externalId}</strong>
        </p>
        <p>
          {t("orderDetails.deadline")}: {order.deadline ? formatDateTime(order.deadline, lang, timeZone) : t("deadlineByQuote")}
        </p>
        <table>
          <tbody>
            {order.lineItems.map((l) => (
              <tr key={l.serviceIdentity}>
                <th scope="row">
                  {t(l.nameKey)}
                  {l.quantity > 1 ? ` × ${l.quantity}` : ""}
                </th>
                <td className="amount">{formatMoney(l.totalPrice, order.currency)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">{t("total")}</th>
              <td className="amount total">{formatMoney(order.total, order.currency)}</td>
            </tr>
          </tfoot>
        </table>
      </section>
      {order.invoice ? (
        <section className="card">
          <h2>{t("orderDetails.invoice", { number: order.invoice.number })}</h2>
          <p>{t("orderDetails.balance", { amount: formatMoney(order.invoice.balance, order.currency) })}</p>
          <p>{t("payment.bankTransferInfo")}</p>
          {bank ? (
            <dl className="bank-details">
              <dt>{t("bank.beneficiary")}</dt>
              <dd>{bank.beneficiary}</dd>
              <dt>{t("bank.bankName")}</dt>
              <dd>{bank.bankName}</dd>
              <dt>{t("bank.account")}</dt>
              <dd>{bank.account}</dd>
              <dt>{t("bank.swift")}</dt>
              <dd>{bank.swift}</dd>
              <dt>{t("bank.reference")}</dt>
              <dd>{order.invoice.number}</dd>
            </dl>
          ) : null}
        </section>
      ) : order.paid ? (
        <p className="alert alert-success">{t("orderDetails.paid")}</p>
      ) : null}
      {thankYou ? null : (
        <p>
          <Link to={paths.orderReedit(lang, order.externalId)}>{t("rework.requestLink")}</Link>
        </p>
      )}
    </article>
  );
}
