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
import { majorText } from "#common/money";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { retainerTransferSchema } from "#common/prepay/schemas";
import { recordRetainerTransfer, staffRetainerPage } from "#server/prepay";
import { ActionAlerts } from "#app/components/staff/ActionAlerts";

export const handle = { i18n: ["prepay", "staffpay", "staffops"] };
export const meta = titleMeta;

type ActionData = { error?: string; fieldErrors?: Record<string, string>; values?: Record<string, string> };
const DONE = ["recorded", "duplicate"];

// /staff/prepayments/{number}: a retainer invoice, its payments, and the bank transfer staff record against it
// (issue 13 §1, ADR 040). POST → 303 → GET.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const retainer = await staffRetainerPage(scope.app, params.number ?? "");
  if (!retainer) throw new Response("Not Found", { status: 404 });
  const t = await getFixedT(request, "prepay");
  const done = new URL(request.url).searchParams.get("done");
  const major = majorText(retainer.balance, retainer.currency.numDecimals);
  return {
    title: t("staff.title", { number: retainer.number }),
    retainer,
    balanceMajor: major,
    today: new Date().toISOString().slice(0, 10),
    done: done && DONE.includes(done) ? done : null,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const number = params.number ?? "";
  return dispatchIntent(
    await readFormData(request),
    {
      "record-transfer": onIntent(retainerTransferSchema, async (value) => {
        const r = await recordRetainerTransfer(scope, number, value);
        if (!r.ok) {
          if (r.error === "not-found") throw new Response("Not Found", { status: 404 });
          const fieldErrors = r.fieldErrors;
          const error = Object.keys(fieldErrors).length ? undefined : `prepay:errors.${r.error}`;
          const { amount, reference, receivedOn } = value;
          return Response.json({ error, fieldErrors, values: { amount, reference, receivedOn } } satisfies ActionData, {
            status: errorStatus(r.error),
          });
        }
        return redirect(`${paths.staffRetainerInvoice(scope.lang, number)}?done=${r.value.duplicate ? "duplicate" : "recorded"}`, 303);
      }),
    },
    () => Response.json({ error: "staffops:errors.bad-form" } satisfies ActionData, { status: 400 }),
  );
}

export default function StaffRetainerInvoice() {
  const { retainer, balanceMajor, today, done } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("prepay");
  const lang = useLang();
  const money = (n: number) => formatMoney(n, retainer.currency);
  const open = retainer.status === "unpaid" && retainer.balance > 0;
  const input = (name: string, label: string, props: React.InputHTMLAttributes<HTMLInputElement>) => {
    const error = actionData?.fieldErrors?.[name];
    const id = `rt-${name}`;
    return (
      <div className={`field${error ? " field-invalid" : ""}`}>
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          name={name}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...props}
          defaultValue={actionData?.values?.[name] ?? props.defaultValue}
        />
        {error ? (
          <p className="field-error" id={`${id}-error`}>
            {t(error)}
          </p>
        ) : null}
      </div>
    );
  };
  return (
    <div className="stack">
      <p>
        <Link to={paths.staffPrepayments(lang)}>← {t("staff.listTitle")}</Link>
      </p>
      <h1>{t("staff.title", { number: retainer.number })}</h1>
      <ActionAlerts done={[done && t(`staff.done.${done}`)]} error={actionData?.error && t(actionData.error)} />
      <section className="card stack" aria-labelledby="rt-summary">
        <h2 id="rt-summary">{t("staff.summary")}</h2>
        <dl className="facts">
          <dt>{t("staff.researcher")}</dt>
          <dd className="break">
            {retainer.researcher.name} &lt;{retainer.researcher.email}&gt;
          </dd>
          <dt>{t("prepayments.status")}</dt>
          <dd>
            <span className={`badge prepay-status-${retainer.status}`}>{t(`staff.statuses.${retainer.status}`)}</span>
          </dd>
          <dt>{t("prepayments.date")}</dt>
          <dd>{formatDate(retainer.createdAt, lang)}</dd>
          <dt>{t("prepayments.total")}</dt>
          <dd>{money(retainer.amount)}</dd>
          <dt>{t("staff.balance")}</dt>
          <dd>{money(retainer.balance)}</dd>
          <dt>{t("prepayments.available")}</dt>
          <dd>{money(retainer.available)}</dd>
          {retainer.paidAt ? (
            <>
              <dt>{t("staff.paidAt")}</dt>
              <dd>{formatDateTime(retainer.paidAt, lang)}</dd>
            </>
          ) : null}
          {retainer.purchaseOrder ? (
            <>
              <dt>{t("staff.purchaseOrder")}</dt>
              <dd className="break">{retainer.purchaseOrder}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <section className="card stack" aria-labelledby="rt-payments">
        <h2 id="rt-payments">{t("staff.payments")}</h2>
        {retainer.payments.length ? (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="rt-payments">
            <table>
              <thead>
                <tr>
                  <th>{t("staff.receivedOn")}</th>
                  <th>{t("staff.method")}</th>
                  <th>{t("staff.reference")}</th>
                  <th>{t("staff.recordedBy")}</th>
                  <th className="amount">{t("prepayments.total")}</th>
                </tr>
              </thead>
              <tbody>
                {retainer.payments.map((p) => (
                  <tr key={p.id}>
                    <td>{formatDate(`${p.receivedOn}T12:00:00Z`, lang)}</td>
                    <td>{t(`staffpay:methods.${p.methodId}`, { defaultValue: String(p.methodId) })}</td>
                    <td className="break">
                      {p.paymentId ? <Link to={paths.staffPayment(lang, p.paymentId)}>{p.reference}</Link> : p.reference}
                    </td>
                    <td className="break">{p.recordedBy ?? "—"}</td>
                    <td className="amount">{money(p.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{t("staff.noPayments")}</p>
        )}
      </section>
      {open ? (
        <section className="card stack" aria-labelledby="rt-record">
          <h2 id="rt-record">{t("staff.record")}</h2>
          <Form method="post" className="stack">
            <input type="hidden" name="intent" value="record-transfer" />
            <div className="field-row">
              {input("amount", t("staff.amountIn", { currency: retainer.currency.isoCode }), {
                type: "text",
                inputMode: "decimal",
                required: true,
                defaultValue: balanceMajor,
                maxLength: 20,
                autoComplete: "off",
              })}
              {input("reference", t("staff.reference"), { type: "text", required: true, maxLength: 100, autoComplete: "off" })}
              {input("receivedOn", t("staff.receivedOn"), { type: "date", required: true, defaultValue: today, max: today })}
            </div>
            <p className="field-hint">{t("staff.recordHint", { balance: money(retainer.balance) })}</p>
            <div className="actions">
              <button type="submit" className="button button-primary">
                {t("staff.recordButton")}
              </button>
            </div>
          </Form>
        </section>
      ) : null}
    </div>
  );
}
