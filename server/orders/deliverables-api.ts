// Completed files over the API (issue 11 §5, spec 2 §7): the list, one file, and all of them as one zip, to the
// order's owner once they are available (flags.downloadAvailable) or to staff; and one of the user's own files by
// id. Streaming and access rules: server/orders/downloads.ts (ADR 033).
import { fail, ok } from "#common/result";
import { paths } from "#common/paths";
import { endpoint, reply, type EndpointTable } from "../http/api/endpoint";
import type { Deliverable } from "./deliverables";
import { fileResponse, orderDownloads, ownFile, resolveFiles, zipNameOf, zipResponse } from "./downloads";

/** A file as the listing shows it: `path` is where to download it (spec 2 §3 "Certificate deliverable"). */
export function listedFile(d: Deliverable, path: string) {
  return { key: d.key, name: d.name, path, size: d.sizeBytes, contentType: d.contentType, sha256: d.sha256, createdAt: d.createdAt };
}

/** 500 `generic-download-error` (spec 2 §8): a delivered file is missing from the store. */
const downloadError = () => reply({ error: "generic-download-error" }, { status: 500 });

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
      const { config } = await scope.app.config.snapshot();
      const files = r.value.deliverables.map((d) => listedFile(d, paths.api.orderDeliverable(r.value.externalId, d.key)));
      return ok({
        files,
        companyName: config.companyShortName,
        externalId: r.value.externalId,
        totalBytes: files.reduce((s, f) => s + f.size, 0),
        zipPath: paths.api.orderDeliverablesZip(r.value.externalId),
      });
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
      if (!r.ok) return r;
      if (!r.value.deliverables.length) return fail("not-found");
      const files = await resolveFiles(scope.app, r.value.deliverables);
      if (!files.ok) return downloadError();
      return zipResponse(files.value, await zipNameOf(scope.app, r.value.externalId), req.method);
    },
  }),
  endpoint({
    method: "GET",
    path: "/api/order/:externalId/deliverables/:key",
    auth: "user",
    summary: "One delivered file, streamed as an attachment.",
    async handler({ scope, params, req }) {
      const r = await orderDownloads(scope, params.externalId);
      if (!r.ok) return r;
      const one = r.value.deliverables.find((d) => d.key === params.key);
      if (!one) return fail("not-found");
      const files = await resolveFiles(scope.app, [one]);
      if (!files.ok) return downloadError();
      return fileResponse(files.value[0], req.method);
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
