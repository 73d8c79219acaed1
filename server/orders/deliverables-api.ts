// Completed files over the API (issue 11 §5, spec 2 §7): the list, one file, and all of them as one zip, to the
// order's owner once they are available (flags.downloadAvailable) or to staff; and one of the user's own files by
// id. Streaming and access rules: server/orders/downloads.ts (ADR 033).
import { fail, ok } from "#common/result";
import { paths } from "#common/paths";
import { endpoint, reply, type EndpointTable } from "../http/api/endpoint";
import type { AppContext } from "../context";
import type { Deliverable } from "./deliverables";
import { fileResponse, orderDownloads, ownFile, resolveFiles, zipNameOf, zipResponse } from "./downloads";

/** A file as the listing shows it: `path` is where to download it (spec 2 §3 "Certificate deliverable"). */
export function listedFile(d: Deliverable, path: string) {
  return { key: d.key, name: d.name, path, size: d.sizeBytes, contentType: d.contentType, sha256: d.sha256, createdAt: d.createdAt };
}

/** 500 `generic-download-error` (spec 2 §8): a delivered file is missing from the store. */
const downloadError = () => reply({ error: "generic-download-error" }, { status: 500 });

/** The listing answer of an order's or a certificate's files (spec 2 §7: files, companyName, externalId). */
export async function deliverablesListing(
  app: AppContext,
  externalId: string,
  deliverables: Deliverable[],
  pathOf: (key: string) => string,
  zipPath: string,
) {
  const { config } = await app.config.snapshot();
  const files = deliverables.map((d) => listedFile(d, pathOf(d.key)));
  return ok({ files, companyName: config.companyShortName, externalId, totalBytes: files.reduce((s, f) => s + f.size, 0), zipPath });
}

/** All the files in one streamed zip named for the order; 404 when there are none. */
export async function deliverablesZip(app: AppContext, externalId: string, deliverables: Deliverable[], method: string) {
  if (!deliverables.length) return fail("not-found");
  const files = await resolveFiles(app, deliverables);
  if (!files.ok) return downloadError();
  return zipResponse(files.value, await zipNameOf(app, externalId), method);
}

/** One of the files by key, streamed; 404 for a key that is not among them. */
export async function deliverableFile(app: AppContext, deliverables: Deliverable[], key: string, method: string) {
  const one = deliverables.find((d) => d.key === key);
  if (!one) return fail("not-found");
  const files = await resolveFiles(app, [one]);
  if (!files.ok) return downloadError();
  return fileResponse(files.value[0], method);
}

export const deliverablesApi: EndpointTable = [
  endpoint({
    method: "GET",
    path: "/api/order/:externalId/deliverables",
    auth: "user",
    summary:
      "The order's delivered files (key, name, path, size, sha256), companyName, externalId, zipPath (owner once available, or staff).",
    async handler({ scope, params }) {
      const r = await orderDownloads(scope, params.externalId);
      if (!r.ok) return r;
      const { externalId, deliverables } = r.value;
      return deliverablesListing(
        scope.app,
        externalId,
        deliverables,
        (key) => paths.api.orderDeliverable(externalId, key),
        paths.api.orderDeliverablesZip(externalId),
      );
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/order/:externalId/deliverables.zip",
    auth: "user",
    summary:
      "Download All: every delivered file in one zip, streamed ('{company} Completed files {externalId}.zip'; Content-Length exact).",
    async handler({ scope, params, req }) {
      const r = await orderDownloads(scope, params.externalId);
      return r.ok ? deliverablesZip(scope.app, r.value.externalId, r.value.deliverables, req.method) : r;
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/order/:externalId/deliverables/:key",
    auth: "user",
    summary: "One delivered file, streamed as an attachment.",
    async handler({ scope, params, req }) {
      const r = await orderDownloads(scope, params.externalId);
      return r.ok ? deliverableFile(scope.app, r.value.deliverables, params.key, req.method) : r;
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/file/:identity/download",
    auth: "user",
    summary: "One of the user's own files by id: an uploaded manuscript, or a delivered file once available (else 404).",
    async handler({ scope, params, req }) {
      const r = await ownFile(scope, params.identity);
      return r.ok ? fileResponse(r.value, req.method) : r;
    },
  }),
];
