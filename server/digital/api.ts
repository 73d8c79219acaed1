// The digital editing and translation JSON API (spec 3 §7, issue 24). Every call is the signed-in user's own:
// another user's identity is not found (404). Create errors are `{ error, params }`; downloads are streamed as
// attachments (404 for a missing or archived item: clients show 'curie.file-archived').
import { Readable } from "node:stream";
import { fail, invalid, ok, type Result } from "#common/result";
import {
  DIGITAL_POLL_MAX,
  digitalEditingTrialBody,
  digitalEditSearchQuery,
  digitalOrderSearchQuery,
  digitalPaymentBody,
} from "#common/digital/api-schemas";
import { endpoint, reply, seeOther, type EndpointTable } from "../http/api/endpoint";
import { multipartBody } from "../http/multipart";
import { answer, headerKey } from "../payments";
import { downloadHeaders } from "../documents/storage";
import {
  archiveDigitalEdit,
  archiveDigitalOrder,
  chineseTrialEligibility,
  createDigitalEdit,
  createDigitalOrder,
  digitalEditFile,
  digitalOrderFile,
  grantChineseTrial,
  loadDigitalEdit,
  loadDigitalOrders,
  purchaseByReceipt,
  searchDigitalEdits,
  searchDigitalOrders,
  startOrderFromDigitalEdit,
  submitDigitalPayment,
} from "./index";
import { digitalInvoicePdf } from "./documents";
import type { DigitalDownload } from "./types";
import { setDigitalEditingTrial } from "./staff";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** Every `identities` / `identities[]` of the query string, comma-separated values split; null when none is given. */
function identitiesOf(url: string): string[] | null {
  const q = url.indexOf("?");
  const params = new URLSearchParams(q < 0 ? "" : url.slice(q + 1));
  const raw = [...params.getAll("identities"), ...params.getAll("identities[]")];
  if (!raw.length) return null;
  return raw
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** A stored document streamed as an attachment (from the file store). */
function download(r: Result<DigitalDownload>): Result<unknown> | Response {
  if (!r.ok) return r;
  const { stream, fileName, size } = r.value;
  return new Response(Readable.toWeb(stream()) as unknown as ReadableStream<Uint8Array>, {
    status: 200,
    headers: downloadHeaders({ originalName: fileName, contentType: DOCX, sizeBytes: size }),
  });
}

type PaymentInput = Parameters<typeof headerKey>[0] & {
  body: { fields: Record<string, string>; availablePurchaseIdentity: string; language: string | undefined; badLanguage: boolean };
};

function pay(type: "editing" | "translation") {
  return async (input: PaymentInput) => {
    const { scope, body } = input as PaymentInput & { scope: Parameters<typeof submitDigitalPayment>[0] };
    const key = headerKey(input);
    if (!key) return fail(key === undefined ? "idempotency-key-required" : "idempotency-key-invalid");
    if (!body.availablePurchaseIdentity) return invalid({ availableDigitalPurchaseIdentity: "digital:errors.available-purchase-required" });
    if (body.badLanguage) return invalid({ language: "digital:errors.language-required" });
    // Each payment path buys its own kind of offer: the subscription through digital-edit, packages through translation.
    const isEditing = body.availablePurchaseIdentity === "editing-annual";
    if (isEditing !== (type === "editing")) return fail("not-found");
    const r = await submitDigitalPayment(
      scope,
      { availablePurchaseIdentity: body.availablePurchaseIdentity, language: body.language as never },
      body.fields,
      key,
    );
    return answer(r);
  };
}

const EDIT = "/api/digital-edit/:identity";
const ORDER = "/api/digital-order/:identity";

export const digitalApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/digital-edit/load",
    auth: "user",
    summary:
      "The digital editing page's state: offers priced in the user's currency, the subscription, the trial flag, canUpload, displayType.",
    handler: ({ scope }) => loadDigitalEdit(scope),
  }),
  endpoint({
    method: "GET",
    path: "/api/digital-edit/search",
    auth: "user",
    query: digitalEditSearchQuery,
    summary: "The user's digital edits, newest first (page size 30; ?page= or ?identities= to poll the processing ones).",
    async handler({ scope, query, req }) {
      const identities = identitiesOf(req.originalUrl);
      if (identities && identities.length > DIGITAL_POLL_MAX) return fail("too-many-identities");
      return searchDigitalEdits(scope, { page: query.page, identities: identities ?? undefined });
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/digital-edit/create",
    auth: "user",
    body: "stream",
    summary:
      "Starts a digital edit (multipart: digitalEditFiles = one .doc/.docx, styleOfEnglish); needs an active subscription or the trial flag. Errors { error, params }.",
    async handler({ scope, webRequest }) {
      const r = await createDigitalEdit(scope, multipartBody(webRequest()));
      return r.ok ? reply(r.value, { status: 201 }) : r;
    },
  }),
  endpoint({
    method: "POST",
    path: `${EDIT}/archive`,
    auth: "user",
    summary: "Archives a completed or failed digital edit; answers its fileName for '%(fileName)s deleted'.",
    handler: ({ scope, params }) => archiveDigitalEdit(scope, params.identity),
  }),
  endpoint({
    method: "GET",
    path: `${EDIT}/download`,
    auth: "user",
    summary: "The completed edit with its changes as tracked revisions (.docx, attachment); 404 when missing or archived.",
    async handler({ scope, params }) {
      return download(await digitalEditFile(scope, params.identity, "tracked"));
    },
  }),
  endpoint({
    method: "GET",
    path: `${EDIT}/lewis-version`,
    auth: "user",
    summary: "The completed edit with the changes applied and no revisions (.docx, attachment); 404 when missing or archived.",
    async handler({ scope, params }) {
      return download(await digitalEditFile(scope, params.identity, "clean"));
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/digital-edit/payment",
    auth: "user",
    body: digitalPaymentBody,
    summary:
      "Buys the editing subscription: the payment form's body with availableDigitalPurchaseIdentity (editing-annual); needs an Idempotency-Key header. Amount from the server.",
    handler: pay("editing"),
  }),
  endpoint({
    method: "GET",
    path: "/api/order-form/from-digital-edit/:identity",
    auth: "user",
    summary:
      "'Send to professional editing': the order form draft with the ORIGINAL document attached (once, however often followed); browsers get 303 to the wizard, JSON callers { orderFormId, url }.",
    async handler({ scope, params, req }) {
      const r = await startOrderFromDigitalEdit(scope, params.identity);
      if (!r.ok) return r;
      if ((req.get("accept") ?? "").includes("text/html")) return seeOther(r.value.url);
      return ok(r.value);
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/digital-order/load",
    auth: "user",
    summary:
      "The translation page's state: packages priced in the user's currency, purchases, uses available, word-count-exceeded state, languages.",
    handler: ({ scope }) => loadDigitalOrders(scope),
  }),
  endpoint({
    method: "GET",
    path: "/api/digital-order/search",
    auth: "user",
    query: digitalOrderSearchQuery,
    summary: "The user's translations, newest first (page size 30; ?page=, ?type=translation, or ?identities= to poll).",
    async handler({ scope, query, req }) {
      const identities = identitiesOf(req.originalUrl);
      if (identities && identities.length > DIGITAL_POLL_MAX) return fail("too-many-identities");
      return searchDigitalOrders(scope, { page: query.page, type: query.type, identities: identities ?? undefined });
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/digital-order/create",
    auth: "user",
    body: "stream",
    summary:
      "Starts a translation (multipart: digitalTranslationFiles = one .doc/.docx, language); spends one use. Answers { type, digitalOrders } or { error, params }.",
    async handler({ scope, webRequest }) {
      const r = await createDigitalOrder(scope, multipartBody(webRequest()));
      return r.ok ? reply(r.value, { status: 201 }) : r;
    },
  }),
  endpoint({
    method: "POST",
    path: `${ORDER}/archive`,
    auth: "user",
    summary: "Archives a completed or failed translation; answers its fileName.",
    handler: ({ scope, params }) => archiveDigitalOrder(scope, params.identity),
  }),
  endpoint({
    method: "GET",
    path: `${ORDER}/download`,
    auth: "user",
    summary: "The completed translation (.docx, attachment); 404 when missing or archived.",
    async handler({ scope, params }) {
      return download(await digitalOrderFile(scope, params.identity));
    },
  }),
  endpoint({
    method: "POST",
    path: "/api/digital-translation/payment",
    auth: "user",
    body: digitalPaymentBody,
    summary:
      "Buys a translation package: the payment form's body with availableDigitalPurchaseIdentity (a package) and optional language; needs an Idempotency-Key header.",
    handler: pay("translation"),
  }),
  endpoint({
    method: "GET",
    path: "/api/digital-invoice/:number/pdf",
    auth: "user",
    summary: "A digital purchase's invoice (and receipt: the payments on it) as a PDF in its language; the owner's only.",
    async handler({ scope, params }) {
      const r = await digitalInvoicePdf(scope, params.number);
      if (!r.ok) return r;
      return new Response(new Uint8Array(r.value), {
        headers: {
          "Content-Type": "application/pdf",
          "Content-Disposition": `inline; filename="${params.number}.pdf"`,
          "Cache-Control": "private, no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/digital-purchase/:receiptCode",
    auth: "user",
    summary: "The user's purchase by its receipt code, with `active` (the success page polls it every 10 s).",
    handler: ({ scope, params }) => purchaseByReceipt(scope, params.receiptCode),
  }),
  endpoint({
    method: "POST",
    path: "/api/:context/chinese-digital-trial",
    auth: "user",
    summary: "Reports whether the user may take the free Chinese translation: { eligible }. Changes nothing (granting is …/grant).",
    handler: ({ scope }) => chineseTrialEligibility(scope),
  }),
  endpoint({
    method: "POST",
    path: "/api/:context/chinese-digital-trial/grant",
    auth: "user",
    summary: "Grants the free Chinese translation (one use, zh_CN, no payment) once per user: { granted: true }, or 409 not-eligible.",
    handler: ({ scope }) => grantChineseTrial(scope),
  }),
  endpoint({
    method: "PUT",
    path: "/api/staff/users/:id/digital-editing-trial",
    auth: "staff",
    body: digitalEditingTrialBody,
    summary:
      "Staff turn a researcher's digital editing trial on or off (uploads without a subscription); audited. Another staff account: 404.",
    handler: ({ scope, params, body }) => setDigitalEditingTrial(scope, Number(params.id), body.enabled),
  }),
];
