import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { dispatchIntent, onIntent, readFormData } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { formatDate } from "#common/format";
import { paths } from "#common/paths";
import { errorStatus, type Result } from "#common/result";
import { FAPIAO_NUMBER_MAX, staffFapiaoFields } from "#common/fapiao/schemas";
import { staffCancelFapiao, staffFapiao, staffIssueFapiao } from "#server/fapiao";
import { multipartBody } from "#server/http/multipart";
import { ActionAlerts } from "#app/components/staff/ActionAlerts";

export const handle = { i18n: ["fapiao", "staffops", "staffpay"] };
export const meta = titleMeta;

const idOf = (raw: string | undefined) => (/^\d{1,9}$/.test(raw ?? "") ? Number(raw) : -1);
const KNOWN = new Set(["fapiao-already-issued", "fapiao-not-cancellable", "upload-rate-limited"]);

// /staff/fapiaos/{id} (issue 13 §4): one fapiao's request; staff mark it issued with its number and the PDF (a
// multipart form, streamed to the document storage), or cancel it. POST → 303 → GET.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const r = await staffFapiao(scope, idOf(params.id));
  if (!r.ok) throw new Response("Not Found", { status: errorStatus(r.error === "not-allowed" ? r.error : "not-found") });
  const t = await getFixedT(request, "fapiao");
  const done = new URL(request.url).searchParams.get("done");
  return {
    title: t("staff.detailTitle", { id: r.value.id }),
    fapiao: r.value,
    done: done === "issued" || done === "cancelled" ? done : null,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const id = idOf(params.id);
  const answer = (r: Result<unknown>, done: "issued" | "cancelled") => {
    if (r.ok) return redirect(`${paths.staffFapiao(scope.lang, id)}?done=${done}`, 303);
    if (r.error === "not-found" || r.error === "not-allowed") throw new Response("Not Found", { status: errorStatus(r.error) });
    const fields = Object.keys(r.fieldErrors).length > 0;
    return Response.json(
      { error: fields ? null : `fapiao:errors.${KNOWN.has(r.error) ? r.error : "failed"}`, fieldErrors: r.fieldErrors },
      { status: errorStatus(r.error) },
    );
  };
  // Issuing uploads the PDF (a streamed multipart form); cancelling is a plain form.
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? ""))
    return answer(await staffIssueFapiao(scope, id, multipartBody(request)), "issued");
  return dispatchIntent(
    await readFormData(request),
    { cancel: onIntent(staffFapiaoFields, async () => answer(await staffCancelFapiao(scope, id), "cancelled")) },
    // "issue" without its multipart body came without the PDF.
    () => Response.json({ error: "fapiao:errors.pdf-required", fieldErrors: {} }, { status: 400 }),
  );
}

export default function StaffFapiaoPage() {
  const { fapiao: f, done } = useLoaderData<typeof loader>();
  const action = useActionData<{ error: string | null; fieldErrors: Record<string, string> }>();
  const { t } = useTranslation("fapiao");
  const lang = useLang();
  const busy = useNavigation().state === "submitting";
  const fe = action?.fieldErrors ?? {};
  const row = (label: string, value: string | null | undefined) =>
    value ? (
      <>
        <dt>{label}</dt>
        <dd>{value}</dd>
      </>
    ) : null;
  return (
    <div className="stack fapiao-page">
      <p>
        <Link to={paths.staffFapiaos(lang)}>← {t("staff.title")}</Link>
      </p>
      <h1>{t("staff.detailTitle", { id: f.id })}</h1>
      <ActionAlerts done={[done && t(`staff.done.${done}`)]} error={action?.error && t(action.error)} />
      <section className="card stack">
        <dl className="fapiao-summary">
          <dt>{t("list.status")}</dt>
          <dd>
            <span className={`fapiao-status fapiao-status-${f.status}`}>{t(`statuses.${f.status}`)}</span>
          </dd>
          {row(t("staff.researcher"), `${f.researcher.name} <${f.researcher.email}>`)}
          {row(t("staff.document"), f.invoiceNumber ?? f.retainerInvoiceNumber)}
          {row(t("staff.origin"), t(`origins.${f.origin}`))}
          {row(t("form.type"), t(`types.${f.type}`))}
          {row(t("form.title"), f.title)}
          {row(t("form.taxpayerNumber"), f.taxpayerNumber)}
          {row(t("form.serviceType"), f.serviceType ? t(`serviceTypes.${f.serviceType}`, { defaultValue: f.serviceType }) : null)}
          {row(
            t("form.deliveryTimeline"),
            f.deliveryTimeline ? t(`timelines.${f.deliveryTimeline}`, { defaultValue: f.deliveryTimeline }) : null,
          )}
          {row(t("form.specialInstructions"), f.specialInstructions)}
          {row(t("form.contactEmail"), f.contactEmail)}
          {row(t("form.contactPhone"), f.contactPhone)}
          {row(t("form.shippingAddress"), f.shippingAddress)}
          {row(t("list.requestedOn"), formatDate(f.createdAt, lang))}
          {row(t("staff.paidOn"), f.paidAt ? formatDate(f.paidAt, lang) : null)}
          {row(t("list.number"), f.fapiaoNumber)}
          {row(t("list.issuedOn"), f.issuedAt ? formatDate(f.issuedAt, lang) : null)}
        </dl>
      </section>
      {f.status === "requested" ? (
        // Text fields before the file: the streaming reader meets them first.
        <Form method="post" encType="multipart/form-data" className="card stack" aria-labelledby="sf-issue">
          <h2 id="sf-issue">{t("staff.issue")}</h2>
          <input type="hidden" name="intent" value="issue" />
          <div className={`field${fe.fapiaoNumber ? " field-invalid" : ""}`}>
            <label htmlFor="sf-fapiaoNumber">{t("list.number")}</label>
            <input
              id="sf-fapiaoNumber"
              name="fapiaoNumber"
              maxLength={FAPIAO_NUMBER_MAX}
              autoComplete="off"
              aria-invalid={fe.fapiaoNumber ? true : undefined}
              aria-describedby={fe.fapiaoNumber ? "sf-fapiaoNumber-error" : undefined}
            />
            {fe.fapiaoNumber ? (
              <p className="field-error" id="sf-fapiaoNumber-error" role="alert">
                {t(fe.fapiaoNumber)}
              </p>
            ) : null}
          </div>
          <div className={`field${fe.pdf ? " field-invalid" : ""}`}>
            <label htmlFor="sf-pdf">{t("staff.pdf")}</label>
            <input
              id="sf-pdf"
              name="pdf"
              type="file"
              accept="application/pdf,.pdf"
              aria-invalid={fe.pdf ? true : undefined}
              aria-describedby={fe.pdf ? "sf-pdf-error sf-pdf-hint" : "sf-pdf-hint"}
            />
            <p className="field-hint" id="sf-pdf-hint">
              {t("staff.pdfHint")}
            </p>
            {fe.pdf ? (
              <p className="field-error" id="sf-pdf-error" role="alert">
                {t(fe.pdf)}
              </p>
            ) : null}
          </div>
          <div className="actions">
            <button type="submit" className="button button-primary" disabled={busy}>
              {t("staff.markIssued")}
            </button>
          </div>
        </Form>
      ) : null}
      {f.status !== "cancelled" ? (
        <Form method="post" className="card stack">
          <input type="hidden" name="intent" value="cancel" />
          <p className="field-hint">{t("staff.cancelHint")}</p>
          <div className="actions">
            <button type="submit" className="button" disabled={busy}>
              {t("staff.cancel")}
            </button>
          </div>
        </Form>
      ) : null}
    </div>
  );
}
