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
import { errorStatus, type Result } from "#common/result";
import {
  certificateSchema,
  overrideSchema,
  ORDER_PAGE_INTENTS,
  paymentSchema,
  removeDeliverableSchema,
  transitionSchema,
} from "#common/staff/console";
import { formatCertificateCode } from "#server/certificates";
import { multipartBody } from "#server/http/multipart";
import {
  staffIssueCertificate,
  staffOrderPage,
  staffRecordPayment,
  staffRemoveDeliverable,
  staffSetOverrideDownload,
  staffTransition,
  staffUploadDeliverables,
} from "#server/staff/orders";
import { consoleErrorKey } from "#common/staff/errors";

export const handle = { i18n: ["staffops", "orders", "order", "catalogue"] };
export const meta = titleMeta;

const DONE = ["transition", "upload", "remove-deliverable", "certificate", "payment", "payment-duplicate", "override"];

// /staff/orders/{externalId}: one order in the console (issue 11 §2). Every form posts here: POST → 303 → GET.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const page = await staffOrderPage(scope, params.externalId ?? "");
  if (!page) throw new Response("Not Found", { status: 404 });
  const t = await getFixedT(request, "staffops");
  const done = new URL(request.url).searchParams.get("done");
  return {
    title: t("order.title", { externalId: page.order.externalId }),
    ...page,
    certificateCode: page.order.certificate ? formatCertificateCode(page.order.certificate.code) : null,
    done: done && DONE.includes(done) ? done : null,
    today: new Date().toISOString().slice(0, 10),
    // The payment form offers the whole balance (the usual transfer); staff change it for a partial payment.
    balanceMajor: page.order.invoice ? majorText(page.order.invoice.balance, page.order.currency.numDecimals) : "",
  };
}

interface ActionData {
  intent: string;
  error?: string;
  fieldErrors?: Record<string, string>;
  rejected?: { name: string; key: string }[];
  added?: number;
}

const answer = (data: ActionData, status: number) => Response.json(data, { status });
const refused = (intent: string, r: Extract<Result<unknown>, { ok: false }>) =>
  answer(
    { intent, error: Object.keys(r.fieldErrors).length ? undefined : consoleErrorKey(r.error), fieldErrors: r.fieldErrors },
    errorStatus(r.error),
  );

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const externalId = params.externalId ?? "";
  const back = (done: string) => redirect(`${paths.staffOrder(scope.lang, externalId)}?done=${done}`, 303);
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    const r = await staffUploadDeliverables(scope, externalId, multipartBody(request));
    if (!r.ok) return refused("upload", r);
    if (!r.value.rejected.length) return back("upload");
    const rejected = r.value.rejected.map((f) => ({ name: f.name, key: consoleErrorKey(f.code) }));
    return answer(
      { intent: "upload", rejected, added: r.value.added.length },
      r.value.rejected[0].code === "upload-rate-limited" ? errorStatus("upload-rate-limited") : 400,
    );
  }
  return dispatchIntent(
    await readFormData(request),
    {
      transition: onIntent(transitionSchema, async ({ event, note }) => {
        const r = await staffTransition(scope, externalId, event, note);
        return r.ok ? back("transition") : refused("transition", r);
      }),
      payment: onIntent(paymentSchema, async (value) => {
        const r = await staffRecordPayment(scope, externalId, value);
        return r.ok ? back(r.value.duplicate ? "payment-duplicate" : "payment") : refused("payment", r);
      }),
      certificate: onIntent(certificateSchema, async () => {
        const r = await staffIssueCertificate(scope, externalId);
        return r.ok ? back("certificate") : refused("certificate", r);
      }),
      override: onIntent(overrideSchema, async ({ value }) => {
        const r = await staffSetOverrideDownload(scope, externalId, value === "on");
        return r.ok ? back("override") : refused("override", r);
      }),
      "remove-deliverable": onIntent(removeDeliverableSchema, async ({ key }) => {
        const r = await staffRemoveDeliverable(scope, externalId, key);
        return r.ok ? back("remove-deliverable") : refused("remove-deliverable", r);
      }),
    },
    (intent) => answer({ intent, error: "staffops:errors.bad-form" }, 400),
  );
}

/** History events named by this namespace; the others are the order life's (orders:event.*). */
const STAFF_HISTORY_EVENTS = new Set(["download-override", "staff-note", "certificate-edited"]);
const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

export default function StaffOrder() {
  const data = useLoaderData<typeof loader>();
  const { order, researcher, events, history, deliverables, payments, certificateCode, done, today } = data;
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("staffops");
  const lang = useLang();
  const errorOf = (intent: string) => (actionData?.intent === intent ? actionData : undefined);
  const fieldError = (intent: string, name: string) => errorOf(intent)?.fieldErrors?.[name];
  const formAlert = (intent: string) => {
    const a = errorOf(intent);
    if (!a) return null;
    return (
      <div className="alert alert-danger" role="alert">
        {a.error ? <p>{t(a.error)}</p> : null}
        {a.rejected?.length ? (
          <>
            {a.added ? <p>{t("deliverables.partlyAdded", { count: a.added })}</p> : null}
            <ul>
              {a.rejected.map((f, i) => (
                <li key={i}>
                  {f.name ? `${f.name}: ` : ""}
                  {t(f.key)}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    );
  };
  const input = (intent: string, name: string, label: string, props: React.InputHTMLAttributes<HTMLInputElement>) => {
    const error = fieldError(intent, name);
    const id = `${intent}-${name}`;
    return (
      <div className={`field${error ? " field-invalid" : ""}`}>
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          name={name}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...props}
        />
        {error ? (
          <p className="field-error" id={`${id}-error`}>
            {t(error)}
          </p>
        ) : null}
      </div>
    );
  };
  const eventLabel = (e: string) => (STAFF_HISTORY_EVENTS.has(e) ? t(`event.${e}`) : t(`orders:event.${e}`));
  return (
    <div className="stack staff-order">
      <p>
        <Link to={paths.staffOrders(lang)}>← {t("order.back")}</Link>
      </p>
      <div className="actions staff-heading">
        <h1>{t("order.title", { externalId: order.externalId })}</h1>
        <span className="badge badge-brand" data-status={order.status}>
          {t(`statuses.${order.status}`)}
        </span>
        {order.adminCreated ? <span className="badge">{t("orders.admin")}</span> : null}
      </div>
      {done ? (
        <p className="alert alert-success" role="status">
          {t(`done.${done}`)}
        </p>
      ) : null}
      {actionData && !(ORDER_PAGE_INTENTS as readonly string[]).includes(actionData.intent) ? (
        // An answer to a form this page does not have (a stale or altered page): said here, as no form owns it.
        <p className="alert alert-danger" role="alert">
          {t(actionData.error ?? "staffops:errors.bad-form")}
        </p>
      ) : null}

      <div className="staff-grid">
        <section className="card stack" aria-labelledby="so-researcher">
          <h2 id="so-researcher">{t("order.researcher")}</h2>
          <dl className="facts">
            <dt>{t("order.name")}</dt>
            <dd>{researcher.name || "—"}</dd>
            <dt>{t("order.email")}</dt>
            <dd>{researcher.email}</dd>
          </dl>
          <Form method="post" action={`${paths.staff(lang)}?index`}>
            <input type="hidden" name="identity" value={researcher.identity} />
            <button type="submit" className="button button-small" disabled={!researcher.active}>
              {t("order.viewAs")}
            </button>
          </Form>
        </section>

        <section className="card stack" aria-labelledby="so-facts">
          <h2 id="so-facts">{order.title}</h2>
          <dl className="facts">
            <dt>{t("order.services")}</dt>
            <dd>
              <ul className="plain-list">
                {order.lineItems.map((l) => (
                  <li key={l.serviceIdentity}>
                    {t(l.nameKey)}
                    {l.quantity > 1 ? ` × ${l.quantity}` : ""}
                  </li>
                ))}
              </ul>
            </dd>
            <dt>{t("order.total")}</dt>
            <dd>{formatMoney(order.total, order.currency)}</dd>
            <dt>{t("order.created")}</dt>
            <dd>{formatDateTime(order.createdAt, lang)}</dd>
            <dt>{t("order.deadline")}</dt>
            <dd>{order.deadline ? formatDateTime(order.deadline, lang) : "—"}</dd>
            <dt>{t("order.status")}</dt>
            <dd>{t(`statuses.${order.status}`)}</dd>
            <dt>{t("order.payment")}</dt>
            <dd data-paid={order.paid}>{order.paid ? t("order.paid") : t("order.unpaid")}</dd>
            <dt>{t("order.invoice")}</dt>
            <dd>
              {order.invoice
                ? t("order.invoiceLine", {
                    number: order.invoice.number,
                    amount: formatMoney(order.invoice.amount, order.currency),
                    balance: formatMoney(order.invoice.balance, order.currency),
                  })
                : t("order.noInvoice")}
              {order.invoice ? <span className="badge">{t(`invoiceStatuses.${order.invoice.status}`)}</span> : null}
            </dd>
          </dl>
        </section>
      </div>

      <section className="card stack" aria-labelledby="so-status">
        <h2 id="so-status">{t("order.changeStatus")}</h2>
        {formAlert("transition")}
        {events.length ? (
          <Form method="post" className="stack">
            <input type="hidden" name="intent" value="transition" />
            <div className="field">
              <label htmlFor="transition-note">{t("order.note")}</label>
              <textarea id="transition-note" name="note" rows={2} maxLength={2000} />
              <p className="field-hint">{t("order.noteHint")}</p>
            </div>
            <div className="actions">
              {events.map((e) => (
                <button key={e} type="submit" name="event" value={e} className={`button${e === "cancel" ? "" : " button-primary"}`}>
                  {t(`events.${e}`)}
                </button>
              ))}
            </div>
          </Form>
        ) : (
          <p>{t("order.noEvents")}</p>
        )}
      </section>

      <section className="card stack" aria-labelledby="so-files">
        <h2 id="so-files">{t("deliverables.title")}</h2>
        {formAlert("upload")}
        {formAlert("remove-deliverable")}
        {deliverables.length ? (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="so-files">
            <table>
              <thead>
                <tr>
                  <th>{t("deliverables.name")}</th>
                  <th>{t("deliverables.size")}</th>
                  <th>{t("deliverables.added")}</th>
                  <th>
                    <span className="visually-hidden">{t("deliverables.remove")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {deliverables.map((d) => (
                  <tr key={d.key}>
                    <td className="break">
                      {d.name}
                      <br />
                      <span className="field-hint" title={d.sha256}>
                        SHA-256 {d.sha256.slice(0, 12)}…
                      </span>
                    </td>
                    <td>{size(d.sizeBytes)}</td>
                    <td>{formatDateTime(d.createdAt, lang)}</td>
                    <td>
                      <Form method="post">
                        <input type="hidden" name="intent" value="remove-deliverable" />
                        <input type="hidden" name="key" value={d.key} />
                        <button type="submit" className="button button-small" aria-label={t("deliverables.removeNamed", { name: d.name })}>
                          {t("deliverables.remove")}
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{t("deliverables.none")}</p>
        )}
        {order.status !== "cancelled" ? (
          <Form method="post" encType="multipart/form-data" className="stack">
            <input type="hidden" name="intent" value="upload" />
            <div className="field">
              <label htmlFor="deliverable-files">{t("deliverables.choose")}</label>
              <input id="deliverable-files" name="files" type="file" multiple required />
              <p className="field-hint">{t("deliverables.hint")}</p>
            </div>
            <div className="actions">
              <button type="submit" className="button button-primary">
                {t("deliverables.upload")}
              </button>
            </div>
          </Form>
        ) : null}
      </section>

      {order.flags.completed ? (
        <section className="card stack" aria-labelledby="so-certificate">
          <h2 id="so-certificate">{t("certificate.title")}</h2>
          {formAlert("certificate")}
          {certificateCode ? (
            <p>
              {t("certificate.code")}: <strong data-certificate-code>{certificateCode}</strong>
            </p>
          ) : (
            <p>{t("certificate.notYet")}</p>
          )}
          <Form method="post">
            <input type="hidden" name="intent" value="certificate" />
            <button type="submit" className="button button-primary">
              {certificateCode ? t("certificate.reissue") : t("certificate.markReady")}
            </button>
          </Form>
        </section>
      ) : null}

      <section className="card stack" aria-labelledby="so-payment">
        <h2 id="so-payment">{t("payment.title")}</h2>
        {formAlert("payment")}
        {payments.length ? (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="so-payment">
            <table>
              <thead>
                <tr>
                  <th>{t("payment.receivedOn")}</th>
                  <th>{t("payment.reference")}</th>
                  <th className="amount">{t("payment.amount")}</th>
                  <th>{t("payment.recordedBy")}</th>
                </tr>
              </thead>
              <tbody>
                {payments.map((p) => (
                  <tr key={p.id}>
                    <td>{formatDate(`${p.receivedOn}T00:00:00Z`, lang)}</td>
                    <td className="break">{p.reference}</td>
                    <td className="amount">{formatMoney(p.amount, order.currency)}</td>
                    <td>{p.recordedBy ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {order.invoice && order.invoice.status === "unpaid" && order.invoice.balance > 0 ? (
          <Form method="post" className="stack">
            <input type="hidden" name="intent" value="payment" />
            <div className="field-row">
              {input("payment", "amount", t("payment.amountIn", { currency: order.currency.isoCode }), {
                type: "text",
                inputMode: "decimal",
                required: true,
                defaultValue: data.balanceMajor,
                maxLength: 20,
                autoComplete: "off",
              })}
              {input("payment", "reference", t("payment.reference"), { type: "text", required: true, maxLength: 100, autoComplete: "off" })}
              {input("payment", "receivedOn", t("payment.receivedOn"), { type: "date", required: true, defaultValue: today, max: today })}
            </div>
            <p className="field-hint">
              {t("payment.balance", { balance: formatMoney(order.invoice.balance, order.currency), number: order.invoice.number })}
            </p>
            <div className="actions">
              <button type="submit" className="button button-primary">
                {t("payment.record")}
              </button>
            </div>
          </Form>
        ) : (
          <p>{order.invoice ? t("payment.nothingDue") : t("payment.noInvoice")}</p>
        )}
      </section>

      <section className="card stack" aria-labelledby="so-override">
        <h2 id="so-override">{t("override.title")}</h2>
        {formAlert("override")}
        <p>{data.overrideDownloadAvailable ? t("override.on") : t("override.off")}</p>
        <Form method="post">
          <input type="hidden" name="intent" value="override" />
          <input type="hidden" name="value" value={data.overrideDownloadAvailable ? "off" : "on"} />
          <button type="submit" className="button">
            {data.overrideDownloadAvailable ? t("override.turnOff") : t("override.turnOn")}
          </button>
        </Form>
      </section>

      <section className="card stack" aria-labelledby="so-history">
        <h2 id="so-history">{t("history.title")}</h2>
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="so-history">
          <table>
            <thead>
              <tr>
                <th>{t("history.date")}</th>
                <th>{t("history.event")}</th>
                <th>{t("history.status")}</th>
                <th>{t("history.by")}</th>
                <th>{t("history.note")}</th>
              </tr>
            </thead>
            <tbody>
              {history.map((h) => (
                <tr key={h.id}>
                  <td>{formatDateTime(h.createdAt, lang)}</td>
                  <td>{eventLabel(h.event)}</td>
                  <td>{h.from && h.from !== h.to ? `${t(`statuses.${h.from}`)} → ${t(`statuses.${h.to}`)}` : t(`statuses.${h.to}`)}</td>
                  <td className="break">
                    {h.actor ? h.actor.email : t("history.system")}
                    {h.impersonatorEmail ? (
                      <>
                        <br />
                        <span className="field-hint">{t("history.via", { email: h.impersonatorEmail })}</span>
                      </>
                    ) : null}
                  </td>
                  <td className="break">{h.note ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
