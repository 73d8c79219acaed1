// The fapiao API (spec 2 §7, issue 13 §4; ADR 042). Every call is the signed-in user's: another user's fapiao or
// document is not found (404). DELETE is the API's cancellation; pages post intent=cancel instead.
import { ok, type Result } from "#common/result";
import { fapiaoListQuery, organizationsQuery, storedFapiaoSchema } from "#common/fapiao/schemas";
import type { SiteLang } from "#common/i18n";
import { serialIdOf, serialIdParam } from "#common/integers";
import { endpoint, type EndpointTable } from "../http/api/endpoint";
import { fileResponse } from "../documents/storage";
import { fixedT } from "../i18n";
import type { FapiaoView } from "./records";
import { cancelFapiao, createStoredFapiao, fapiaoPdf, listFapiaos, organizationSuggestions, type FapiaoDocument } from "./stored";

/** The spec's shape of a stored fapiao: `type` as { id, name, label } (label in the caller's language). */
export function apiFapiao(f: FapiaoView, lang: SiteLang) {
  const t = fixedT(lang, "fapiao");
  return { ...f, type: { id: f.type, name: f.type, label: t(`types.${f.type}`) } };
}

/** The path's id (the router has checked it is a serial id: `params` below). */
const idOf = (raw: string) => serialIdOf(raw) ?? -1;

export const fapiaoApi: EndpointTable = [
  endpoint({
    method: "POST",
    path: "/api/fapiao",
    auth: "user",
    body: storedFapiaoSchema,
    summary:
      "Requests a fapiao for a paid invoice (invoiceNumber) or prepayment (retainerInvoiceNumber): type, deliveryTimeline, title, taxpayerNumber, specialInstructions. Answers { error: null, fapiao }.",
    async handler({ scope, body }): Promise<Result<unknown>> {
      const doc: FapiaoDocument = body.retainerInvoiceNumber
        ? { retainerInvoiceNumber: body.retainerInvoiceNumber }
        : { invoiceNumber: body.invoiceNumber ?? "" };
      const r = await createStoredFapiao(scope, doc, body);
      return r.ok ? ok({ error: null, fapiao: apiFapiao(r.value, scope.lang) }) : r;
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/fapiao",
    auth: "user",
    query: fapiaoListQuery,
    summary: "The user's fapiaos, newest first; ?context=Paddle keeps those of prepayments (purchases paid outside an order's invoice).",
    async handler({ scope, query }) {
      const r = await listFapiaos(scope, { context: query.context });
      return r.ok ? ok({ fapiaos: r.value.map((f) => apiFapiao(f, scope.lang)) }) : r;
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/fapiao/organizations",
    auth: "user",
    query: organizationsQuery,
    summary:
      "Organisation names earlier fapiaos were made out to that contain ?name= (2+ characters, 10 at most; taxpayer numbers only of one's own).",
    async handler({ scope, query }) {
      const r = await organizationSuggestions(scope, query.name);
      return r.ok ? ok({ organizations: r.value }) : r;
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/fapiao/:id/pdf",
    auth: "user",
    params: { id: serialIdParam() },
    summary: "The issued fapiao's PDF (uploaded by staff), for its owner.",
    async handler({ scope, params }) {
      const r = await fapiaoPdf(scope, idOf(params.id));
      return r.ok ? fileResponse(r.value) : r;
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/api/fapiao/:id",
    auth: "user",
    params: { id: serialIdParam() },
    summary: "Cancels an issued fapiao while its payment is under fapiaoCancelWindowDays old (409 fapiao-not-cancellable otherwise).",
    async handler({ scope, params }) {
      const r = await cancelFapiao(scope, idOf(params.id));
      return r.ok ? ok({ error: null, fapiao: apiFapiao(r.value, scope.lang) }) : r;
    },
  }),
];
