import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { parseFields, parseForm } from "#app/lib/forms.server";
import { checkUploadRateLimit, parseUploadRequest, UploadError } from "#server/documents/storage";
import { multipartBody } from "#server/http/multipart";
import { createSupportRequest, supportOrder } from "#server/support";
import { supportForm, SUPPORT_MESSAGE_MAX, type SupportType } from "#common/support/schemas";
import { errorStatus } from "#common/result";
import { paths } from "#common/paths";
import type * as z from "zod/mini";

export const handle = { i18n: ["support"] };
export const meta = titleMeta;

// Support (spec 2 §2): /support (anyone; a visitor gives an address), /support/index/submission/{externalId}
// (about one of the user's orders) and …/type/{inactive-service|proof-of-payment} (proof of payment takes a
// file). Each form creates a request the staff see in the console (/staff/support).
async function context_(request: Request, context: LoaderFunctionArgs["context"], params: LoaderFunctionArgs["params"]) {
  const externalId = params.externalId;
  const type: SupportType = (params.type ?? "general") as SupportType;
  if (params.type !== undefined && params.type !== "inactive-service" && params.type !== "proof-of-payment")
    throw new Response("Not Found", { status: 404 });
  if (externalId) await requireUser(request, context);
  const scope = await pageScope(request, context);
  const order = externalId ? await supportOrder(scope, externalId) : null;
  if (externalId && !order) throw new Response("Not Found", { status: 404 });
  return { scope, type, order };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { scope, type, order } = await context_(request, context, params);
  const t = await getFixedT(request, "support");
  return {
    title: t(`title.${type}`),
    type,
    order: order ? { externalId: order.externalId, title: order.title } : null,
    email: scope.session?.user.email ?? null,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { scope, type, order } = await context_(request, context, params);
  let fileId: string | null = null;
  let fields: z.output<typeof supportForm>;
  if (type === "proof-of-payment") {
    // The proof is streamed into the file store with the same content checks as manuscripts, rate-limited.
    const limit = await checkUploadRateLimit(scope.app, { userId: scope.userId, ip: scope.ip });
    if (!limit.allowed) return Response.json({ fieldErrors: { file: "support:errors.rate-limited" }, values: {} }, { status: 429 });
    try {
      const upload = await parseUploadRequest(scope.app, multipartBody(request), {
        ownerUserId: scope.userId,
        kind: "support",
        limits: { maxFiles: 1 },
      });
      fileId = upload.files[0]?.id ?? null;
      const parsed = parseFields<z.output<typeof supportForm>>(upload.fields, supportForm);
      fields = parsed.status === "success" ? parsed.value : {};
      if (upload.rejected.length)
        return Response.json(
          { fieldErrors: { file: `support:errors.upload.${upload.rejected[0].code}` }, values: fields },
          { status: 400 },
        );
    } catch (error) {
      if (!(error instanceof UploadError)) throw error;
      return Response.json({ fieldErrors: { file: `support:errors.upload.${error.code}` }, values: {} }, { status: error.status });
    }
  } else {
    const parsed = await parseForm<z.output<typeof supportForm>>(request, supportForm);
    fields = parsed.status === "success" ? parsed.value : {};
  }
  const r = await createSupportRequest(scope, { type, orderRef: order?.externalId ?? null, ...fields }, fileId);
  if (r.ok) return redirect(`${new URL(request.url).pathname}?sent=1`, { status: 303 });
  if (r.error === "not-found") throw new Response("Not Found", { status: 404 });
  const fieldErrors = Object.keys(r.fieldErrors).length ? r.fieldErrors : { form: `support:errors.${r.error}` };
  return Response.json({ fieldErrors, values: fields }, { status: errorStatus(r.error) });
}

export default function Support() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as { fieldErrors: Record<string, string>; values: Record<string, unknown> } | undefined;
  const [search] = useSearchParams();
  const { t } = useTranslation("support");
  const lang = useLang();
  const errors = reply?.fieldErrors ?? {};
  const value = (k: string, fallback = "") => (typeof reply?.values[k] === "string" ? (reply.values[k] as string) : fallback);
  const err = (k: string) =>
    errors[k] ? (
      <p className="field-error" id={`${k}-error`} role="alert">
        {t(errors[k])}
      </p>
    ) : null;
  const aria = (k: string) => (errors[k] ? { "aria-invalid": true, "aria-describedby": `${k}-error` } : {});
  if (search.get("sent") === "1")
    return (
      <article className="stack narrow">
        <h1>{t("sent.title")}</h1>
        <p className="alert alert-success" role="status">
          {t("sent.body")}
        </p>
        <p>
          {data.order ? (
            <Link to={paths.orderDetails(lang, data.order.externalId)}>{t("backToOrder")}</Link>
          ) : (
            <Link to={paths.home(lang)}>{t("home")}</Link>
          )}
        </p>
      </article>
    );
  return (
    <article className="stack narrow">
      <h1>{t(`title.${data.type}`)}</h1>
      <p>{t(`intro.${data.type}`)}</p>
      {data.order ? (
        <p>
          {t("aboutOrder")}: <strong data-external-id>{data.order.externalId}</strong> — {data.order.title}
        </p>
      ) : null}
      {errors.form ? (
        <p className="alert alert-danger" role="alert">
          {t(errors.form)}
        </p>
      ) : null}
      <Form method="post" className="card stack" encType={data.type === "proof-of-payment" ? "multipart/form-data" : undefined}>
        <div className={`field${errors.email ? " field-invalid" : ""}`}>
          <label htmlFor="email">{t("email")}</label>
          <input
            id="email"
            name="email"
            type="email"
            defaultValue={value("email", data.email ?? "")}
            required={!data.email}
            maxLength={254}
            {...aria("email")}
          />
          {err("email")}
        </div>
        <div className={`field${errors.name ? " field-invalid" : ""}`}>
          <label htmlFor="name">{t("name")}</label>
          <input id="name" name="name" defaultValue={value("name")} maxLength={100} {...aria("name")} />
          {err("name")}
        </div>
        <div className={`field${errors.subject ? " field-invalid" : ""}`}>
          <label htmlFor="subject">{t("subject")}</label>
          <input id="subject" name="subject" defaultValue={value("subject")} maxLength={200} {...aria("subject")} />
          {err("subject")}
        </div>
        <div className={`field${errors.message ? " field-invalid" : ""}`}>
          <label htmlFor="message">{t("message")}</label>
          <textarea
            id="message"
            name="message"
            rows={8}
            defaultValue={value("message")}
            required
            maxLength={SUPPORT_MESSAGE_MAX}
            {...aria("message")}
          />
          {err("message")}
        </div>
        {data.type === "proof-of-payment" ? (
          <div className={`field${errors.file ? " field-invalid" : ""}`}>
            <label htmlFor="file">{t("file")}</label>
            <input id="file" name="proof" type="file" required {...aria("file")} />
            <p className="field-hint">{t("fileHint")}</p>
            {err("file")}
          </div>
        ) : null}
        <p className="actions">
          <button type="submit" className="button button-primary">
            {t("send")}
          </button>
        </p>
      </Form>
    </article>
  );
}
