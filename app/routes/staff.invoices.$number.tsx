import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { dispatchIntent, onIntent, readFormData } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { formatDate, formatDateTime, formatMoney } from "#common/format";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { staffPayErrorKey, writeoffSchema } from "#common/staff/payments";
import { staffInvoicePage, staffWriteOff } from "#server/staff/payments";
import { ActionAlerts } from "#app/components/staff/ActionAlerts";

export const handle = { i18n: ["staffpay", "staffops"] };
export const meta = titleMeta;

const DONE = ["writeoff", "pending-writeoff", "already"];

// /staff/invoices/{number}: an invoice, its ledger, and its write-off (issue 12 §8). POST → 303 → GET.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const page = await staffInvoicePage(scope, params.number ?? "");
  if (!page) throw new Response("Not Found", { status: 404 });
  const t = await getFixedT(request, "staffpay");
  const done = new URL(request.url).searchParams.get("done");
  return { title: t("invoice.title", { number: page.invoice.number }), ...page, done: done && DONE.includes(done) ? done : null };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const number = params.number ?? "";
  const writeOff = onIntent(writeoffSchema, async (value) => {
    const r = await staffWriteOff(scope, number, value);
    if (!r.ok) return Response.json({ error: staffPayErrorKey(r.error) }, { status: errorStatus(r.error) });
    return redirect(`${paths.staffInvoice(scope.lang, number)}?done=${r.value.already ? "already" : value.intent}`, 303);
  });
  return dispatchIntent(await readFormData(request), { "pending-writeoff": writeOff, writeoff: writeOff }, () =>
    Response.json({ error: "staffpay:errors.bad-form" }, { status: 400 }),
  );
}

export default function StaffInvoice() {
  const { invoice, ledger, done } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as { error: string } | undefined;
  const { t } = useTranslation("staffpay");
  const lang = useLang();
  const money = (n: number) => formatMoney(n, invoice.currency);
  const open = invoice.balance > 0 && invoice.status !== "void" && invoice.status !== "written-off";
  return (
    <div className="stack">
      <p>
        <Link to={paths.staffOrder(lang, invoice.orderNumber)}>← {invoice.orderNumber}</Link>
      </p>
      <h1>{t("invoice.title", { number: invoice.number })}</h1>
      <ActionAlerts done={[done && t(`invoice.done.${done}`)]} error={actionData?.error && t(actionData.error)} />
      <section className="card stack" aria-labelledby="si-summary">
        <h2 id="si-summary">{t("payment.summary")}</h2>
        <dl className="facts">
          <dt>{t("payments.researcher")}</dt>
          <dd className="break">
            {invoice.researcher.name} &lt;{invoice.researcher.email}&gt;
          </dd>
          <dt>{t("payments.order")}</dt>
          <dd>
            <Link to={paths.staffOrder(lang, invoice.orderNumber)}>{invoice.orderNumber}</Link>
          </dd>
          <dt>{t("invoice.status")}</dt>
          <dd>
            <span className="badge">{t(`invoice.statuses.${invoice.status}`, { defaultValue: invoice.status })}</span>
            {invoice.pendingWriteoff ? <span className="badge">{t("invoice.pendingWriteoff")}</span> : null}
          </dd>
          <dt>{t("invoice.date")}</dt>
          <dd>{formatDate(invoice.createdAt, lang)}</dd>
          <dt>{t("invoice.amount")}</dt>
          <dd>{money(invoice.amount)}</dd>
          <dt>{t("invoice.balance")}</dt>
          <dd>{money(invoice.balance)}</dd>
          {invoice.writtenOffAt ? (
            <>
              <dt>{t("invoice.writtenOffAt")}</dt>
              <dd>{formatDateTime(invoice.writtenOffAt, lang)}</dd>
            </>
          ) : null}
        </dl>
        {open ? (
          <p>
            <Link to={`${paths.staffOrder(lang, invoice.orderNumber)}#so-payment`}>{t("invoice.recordPayment")}</Link>
          </p>
        ) : null}
      </section>
      <section className="card stack" aria-labelledby="si-ledger">
        <h2 id="si-ledger">{t("invoice.ledger")}</h2>
        {ledger.length ? (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="si-ledger">
            <table>
              <thead>
                <tr>
                  <th>{t("invoice.received")}</th>
                  <th>{t("invoice.kind")}</th>
                  <th>{t("payments.method")}</th>
                  <th>{t("invoice.reference")}</th>
                  <th>{t("invoice.recordedBy")}</th>
                  <th className="amount">{t("payments.amount")}</th>
                </tr>
              </thead>
              <tbody>
                {ledger.map((l) => (
                  <tr key={l.id}>
                    <td>{formatDate(l.receivedOn, lang)}</td>
                    <td>{t(`invoice.kinds.${l.kind}`)}</td>
                    <td>{l.methodId ? t(`methods.${l.methodId}`, { defaultValue: String(l.methodId) }) : "—"}</td>
                    <td className="break">
                      {l.paymentId ? <Link to={paths.staffPayment(lang, l.paymentId)}>{l.reference}</Link> : l.reference}
                    </td>
                    <td className="break">{l.recordedBy ?? "—"}</td>
                    <td className="amount">{money(l.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{t("invoice.noLedger")}</p>
        )}
      </section>
      {open ? (
        <section className="card stack" aria-labelledby="si-writeoff">
          <h2 id="si-writeoff">{t("invoice.writeoff")}</h2>
          <p>{t("invoice.writeoffHint", { amount: money(invoice.balance) })}</p>
          <Form method="post" className="stack">
            <div className="field">
              <label htmlFor="writeoff-note">{t("invoice.note")}</label>
              <input id="writeoff-note" name="note" maxLength={500} />
            </div>
            <div className="actions">
              {invoice.pendingWriteoff ? null : (
                <button type="submit" name="intent" value="pending-writeoff" className="button">
                  {t("invoice.markPending")}
                </button>
              )}
              <button type="submit" name="intent" value="writeoff" className="button button-primary">
                {t("invoice.writeoffNow", { amount: money(invoice.balance) })}
              </button>
            </div>
          </Form>
        </section>
      ) : null}
    </div>
  );
}
