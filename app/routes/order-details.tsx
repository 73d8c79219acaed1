import { Form, Link, useActionData, useLoaderData, useParams, useSearchParams } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { requireUser } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { pageScope } from "#app/lib/scope.server";
import { parseForm } from "#app/lib/forms.server";
import { orderDetailsPage } from "#server/orders/details";
import { invoiceRowOf } from "#server/billing/invoices/list";
import { fapiaosOfInvoices } from "#server/fapiao";
import { saveNotificationEmails, saveOrderDetails } from "#server/orders/edit";
import { serviceDetails } from "#server/orders/service-details";
import { orderEditForm, notificationEmailsForm } from "#common/orders/edit";
import { errorStatus } from "#common/result";
import { paths } from "#common/paths";
import { formatDateTime } from "#common/format";
import { OrderSidebar } from "#app/components/order-details/Sidebar";
import { EditMain, EditSidebarFields, editValues } from "#app/components/order-details/EditOrder";
import { MainPanel } from "#app/components/order-details/MainPanel";
import { ThankYou, type RequestedFapiao } from "#app/components/order-details/ThankYou";
import type { EditReply, OrderDetailsData } from "#app/components/order-details/types";
import * as z from "zod/mini";
// Issue 25 (helper R): the thank-you view's rewards block.
import { orderRewardPoints } from "#server/rewards";
import { ThankYouRewards, type ThankYouRewardsData } from "#app/components/rewards/ThankYouRewards";

export const handle = { i18n: ["details", "certificate", "order", "orders", "catalogue", "invoices", "fapiao", "rewards"] };
export const meta = titleMeta;

const intentOnly = z.object({ intent: z.string() });

// /researcher/index/details/{externalId}/{status?}: the order (spec 2 §2); 'thank-you' right after placing it;
// ?edit=1 is edit mode (placed or in-progress orders), rendered on the server so it works without JavaScript.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const status = params.status;
  if (status !== undefined && status !== "thank-you") throw new Response("Not Found", { status: 404 });
  const url = new URL(request.url);
  const editing = url.searchParams.get("edit") === "1" && !status;
  const data = await orderDetailsPage(scope, params.externalId ?? "", { editing });
  // Another user's order is simply not found.
  if (!data) throw new Response("Not Found", { status: 404 });
  const t = await getFixedT(request, "details");
  // The invoice's documents and action as the invoice list has them (issue 21 defect 11c, 11d).
  const invoiceRow = data.order.invoice ? await invoiceRowOf(scope, data.order.invoice.number) : null;
  const poll = Number(url.searchParams.get("poll") ?? 0);
  // Thank-you view: the fapiao asked for while paying (spec 2 §2; ADR 065), as the researcher filled it in.
  const fapiao =
    status === "thank-you" && data.order.invoice
      ? ((await fapiaosOfInvoices(scope, [data.order.invoice.number])).get(data.order.invoice.number) ?? null)
      : null;
  return {
    ...data,
    invoiceRow,
    requestedFapiao: fapiao
      ? {
          type: fapiao.type,
          title: fapiao.title,
          taxpayerNumber: fapiao.taxpayerNumber,
          status: fapiao.status,
          serviceType: fapiao.serviceType,
        }
      : null,
    title: t("title", { externalId: data.order.externalId }),
    pollCount: Number.isInteger(poll) && poll >= 0 ? Math.min(poll, 1000) : 0,
    rewards: status === "thank-you" ? await thankYouRewards(scope, data.order.externalId, data.order.paid, url) : null,
  };
}

/** The thank-you view's rewards block (issue 25): only when the researcher has rewards. */
async function thankYouRewards(
  scope: Awaited<ReturnType<typeof pageScope>>,
  externalId: string,
  paid: boolean,
  url: URL,
): Promise<ThankYouRewardsData | null> {
  const r = await orderRewardPoints(scope, externalId);
  if (!r.ok || !r.value.hasRewards || !scope.session) return null;
  const poll = Number(url.searchParams.get("rewardsPoll") ?? 0);
  return {
    userIdentity: scope.session.user.identity,
    externalId,
    paid,
    totalRewardPoints: r.value.totalRewardPoints,
    orderPoints: r.value.orderPoints,
    updated: r.value.updated,
    pollCount: Number.isInteger(poll) && poll >= 0 ? Math.min(poll, 1000) : 0,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const externalId = params.externalId ?? "";
  const fields = await request
    .clone()
    .formData()
    .catch(() => null);
  const intent = intentOnly.safeParse({ intent: fields?.get("intent") }).data?.intent;
  if (intent === "notification-emails") {
    const submission = await parseForm<z.output<typeof notificationEmailsForm>>(request, notificationEmailsForm);
    if (submission.status !== "success") throw new Response("Bad Request", { status: 400 });
    const r = await saveNotificationEmails(scope, externalId, submission.value.notificationEmails ?? "");
    if (!r.ok && r.error === "not-found") throw new Response("Not Found", { status: 404 });
    if (!r.ok)
      return Response.json(
        { intent, error: r.fieldErrors.notificationEmails ?? r.error, value: String(submission.value.notificationEmails ?? "") },
        { status: 400 },
      );
    return redirect(`${paths.orderThankYou(scope.lang, externalId)}?emails=saved`, { status: 303 });
  }
  if (intent === "save") {
    const submission = await parseForm<z.output<typeof orderEditForm>>(request, orderEditForm);
    if (submission.status !== "success") throw new Response("Bad Request", { status: 400 });
    const input = submission.value;
    const r = await saveOrderDetails(scope, externalId, input);
    if (r.ok) return redirect(`${paths.orderDetails(scope.lang, externalId)}?saved=1`, { status: 303 });
    if (r.error === "not-found") throw new Response("Not Found", { status: 404 });
    const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : typeof v === "string" ? [v] : []);
    const answers = input.answers && typeof input.answers === "object" ? (input.answers as Record<string, string>) : {};
    const services = list(input.services);
    const reply: EditReply = {
      intent: "save",
      // The questions of the services as posted (a service just ticked brings its questions with the errors).
      details: services.length ? await serviceDetails(scope.app, services) : null,
      fieldErrors: r.fieldErrors,
      formError: Object.keys(r.fieldErrors).length ? null : `details:errors.${r.error}`,
      suggestedDeadline: (r.details?.suggestedDeadline as string | null | undefined) ?? null,
      values: {
        services,
        styleOfEnglish: String(input.styleOfEnglish ?? ""),
        journalName: String(input.journalName ?? ""),
        journalUrl: String(input.journalUrl ?? ""),
        answers,
      },
    };
    return Response.json(reply, { status: errorStatus(r.error) });
  }
  // The certificate's title and authors post to /certificate/edit/{code} (the certificates area, ADR 033).
  throw new Response("Bad Request", { status: 400 });
}

type ActionReply = EditReply | { intent: "notification-emails"; error: string; value: string };

export default function OrderDetails() {
  const data = useLoaderData<typeof loader>() as unknown as OrderDetailsData & {
    pollCount: number;
    requestedFapiao: RequestedFapiao | null;
    rewards: ThankYouRewardsData | null;
  };
  const reply = useActionData<typeof action>() as ActionReply | undefined;
  const params = useParams();
  const [search] = useSearchParams();
  const { t } = useTranslation("details");
  const lang = useLang();
  const { order } = data;
  const thankYou = params.status === "thank-you";
  const editReply = reply?.intent === "save" ? reply : undefined;
  const emailsReply = reply?.intent === "notification-emails" ? reply : undefined;
  const editing = Boolean(data.edit);
  const heading = (
    <header className="details-header">
      <p>
        <Link to={paths.researcher(lang)}>← {t("back")}</Link>
      </p>
      {thankYou ? null : <h1>{t("title", { externalId: order.externalId })}</h1>}
      <p>
        <strong>{order.title}</strong> · {t("orderNumber")}: <strong data-external-id>{order.externalId}</strong> ·{" "}
        <span className="badge" data-status={order.flags.displayStatus}>
          {t(`orders:status.${order.flags.displayStatus}`)}
        </span>{" "}
        · {t("created", { date: formatDateTime(order.createdAt, lang, data.timeZone) })}
      </p>
      {search.get("saved") === "1" && !editReply ? (
        <p className="alert alert-success" role="status">
          {t("edit.saved")}
        </p>
      ) : null}
    </header>
  );
  if (editing) {
    const values = editValues(data, editReply);
    return (
      <article className="stack order-details">
        {heading}
        <Form method="post" className="details-layout" aria-label={t("edit.title")}>
          <div className="details-main">
            <h2>{t("edit.title")}</h2>
            <EditMain data={data} reply={editReply} />
          </div>
          <OrderSidebar data={data} editFields={<EditSidebarFields values={values} errors={editReply?.fieldErrors ?? {}} />} />
        </Form>
      </article>
    );
  }
  const canEdit = !thankYou && (order.status === "placed" || order.status === "in-progress");
  return (
    <article className="stack order-details">
      {heading}
      <div className="details-layout">
        <div className="details-main stack">
          {thankYou ? (
            <ThankYou
              data={data}
              fapiao={data.requestedFapiao}
              pollCount={data.pollCount}
              emailsSaved={search.get("emails") === "saved" && !emailsReply}
              emailsError={emailsReply?.error}
              emailsValue={emailsReply?.value}
            />
          ) : null}
          {thankYou && data.rewards ? <ThankYouRewards data={data.rewards} /> : null}
          {canEdit ? (
            <p>
              <Link className="button" to={paths.orderEdit(lang, order.externalId)}>
                {t("edit.open")}
              </Link>
            </p>
          ) : null}
          <MainPanel data={data} />
        </div>
        <OrderSidebar data={data} />
      </div>
    </article>
  );
}
