// The orders API (spec 2 §7): the signed-in user's orders, and the duplicate-title check of the details step.
import { errorStatus, ok, type Err } from "#common/result";
import { duplicateQuery, orderSearchQuery } from "#common/order-form/schemas";
import { notificationEmailsBody, orderSaveBody, serviceDetailsQuery } from "#common/orders/edit";
import { endpoint, reply, type EndpointTable } from "../http/api/endpoint";
import { findDuplicate } from "../order-form";
import { fixedT } from "../i18n";
import { searchMyOrders } from "./dashboard";
import { orderServiceOptions, saveNotificationEmails, saveOrderDetails } from "./edit";
import { serviceDetails } from "./service-details";
import { orderPayment } from "./payment-view";

/** A deadline mismatch answers 409 with the suggested deadline (spec 2 §4 'Use this deadline'). */
function saveError(e: Err) {
  if (e.error === "deadline-mismatch")
    return reply(
      { error: e.error, fieldErrors: { deadline: "deadline-mismatch" }, suggestedDeadline: e.details?.suggestedDeadline ?? null },
      { status: errorStatus(e.error) },
    );
  if (e.error === "order-not-editable" || e.error === "order-paid") return reply({ error: e.error }, { status: errorStatus(e.error) });
  return e;
}

export const ordersApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/order/search",
    auth: "user",
    query: orderSearchQuery,
    summary:
      "The user's orders, newest first, 30 a page, each with its flags and certificate: ?xid=&orderTitle=&from=&to= (MM/dd/yyyy)&page= (spec 2 §7).",
    // The dashboard's own search (server/orders/dashboard.ts): the API lists what the page shows.
    handler: ({ scope, query }) => searchMyOrders(scope, query),
  }),
  endpoint({
    method: "GET",
    path: "/api/order/duplicate",
    auth: "user",
    query: duplicateQuery,
    summary: "The user's order with the same title in the last 7 days, or null: {order}.",
    async handler({ scope, query }) {
      const order = await findDuplicate(
        // The API looks at the signed-in user's orders only.
        { ...scope, draftKey: null },
        { project_title: query.title.trim() || null },
      );
      return ok({ order });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/order/:externalId/services",
    auth: "user",
    summary: "The order's services and the add-ons that may be added, as service options (spec 2 §3), with the edit version.",
    async handler({ scope, params }) {
      const r = await orderServiceOptions(scope, params.externalId);
      if (!r.ok) return r;
      const t = fixedT(scope.lang, "catalogue");
      return ok({
        version: r.value.version,
        editable: r.value.editable,
        serviceOptions: r.value.options.map(({ nameKey, ...o }) => ({ ...o, name: t(nameKey) })),
        answers: r.value.answers,
      });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/order/:externalId/payment",
    auth: "user",
    summary:
      "The order as its payment needs it (spec 2 §7): {order} with status, flags, lineItems, discounts, currency, invoice, amountDue, receiptCode, pendingPayments (boletoUrl) and payUrl; the owner's (or staff's), anyone else 404.",
    handler: ({ scope, params }) => orderPayment(scope, params.externalId),
  }),
  endpoint({
    method: "PUT",
    path: "/api/order/:externalId/save",
    auth: "user",
    body: orderSaveBody,
    summary:
      "Saves the order's services, accepted deadline, styleOfEnglish, journal {name,url} and answers, with the version read → {orderDetails}; a stale version is 409 conflict, a deadline change 409 deadline-mismatch with suggestedDeadline.",
    async handler({ scope, params, body }) {
      const r = await saveOrderDetails(scope, params.externalId, body);
      return r.ok ? ok({ orderDetails: r.value }) : saveError(r);
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/order/:externalId/email-notifications",
    auth: "user",
    body: notificationEmailsBody,
    summary: "Extra addresses told about the order: {notificationEmails} comma-separated (at most 5) → {notificationEmails, message}.",
    async handler({ scope, params, body }) {
      const r = await saveNotificationEmails(scope, params.externalId, body.notificationEmails);
      if (!r.ok) return r;
      return ok({ ...r.value, message: fixedT(scope.lang, "details")("thankYou.emailsSaved") });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/service-details",
    auth: "user",
    query: serviceDetailsQuery,
    summary:
      "What services ask for: ?serviceIdentities=a,b (identities or slugs) → {fileTypes, journalDetails, questions, questionsRequiringPreviousSelection}.",
    async handler({ scope, query }) {
      const refs = query.serviceIdentities
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
        .slice(0, 30);
      const d = await serviceDetails(scope.app, refs);
      const t = fixedT(scope.lang, "details");
      const shown = (q: (typeof d.questions)[number]) => ({
        label: q.label,
        text: t(`questions.${q.label}.text`),
        type: q.type,
        required: q.required,
        displayed: q.displayed,
        serviceSlug: q.serviceSlug,
        styles: q.styles,
        choices: q.choices.map((c) => ({ ...c, text: t(`questions.${q.label}.choices.${c.label}`) })),
      });
      return ok({
        fileTypes: d.fileTypes,
        journalDetails: d.journalDetails,
        questions: d.questions.map(shown),
        questionsRequiringPreviousSelection: d.questionsRequiringPreviousSelection.map(shown),
      });
    },
  }),
];
