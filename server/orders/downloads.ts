// Downloads of delivered files (issue 11 §5, ADR 033): one file streamed from the store, or all of an order's
// files as one zip built on the fly with archiver. Nothing is buffered: each file is read from the file store
// (ctx.storage: the local disk or S3, ADR 078) as the client takes the bytes (backpressure through the response),
// so the memory of a download does not grow with its size.
//
// The zip is store-only (no compression): deliverables are .docx/.pdf/.xlsx/images, already compressed, and a
// stored zip's exact size is known before the first byte (sizes of the files and of the headers), so the response
// carries a real Content-Length and the browser's progress is true. A client that goes away mid-download stops
// the archive and closes the file being read (the router destroys the body stream; `close` below does the rest).
import { Readable } from "node:stream";
import archiver from "archiver";
import { fail, ok, type Result } from "#common/result";
import type { AppContext } from "../context";
import { storedKey } from "../documents/files";
import { LazyReadable, lazyStreamStats, type FileStore } from "../storage";
import type { Scope } from "../scope";
import { listDeliverables, type Deliverable } from "./deliverables";
import { findOrder } from "./read";

/** A stored file as downloads need it: where it is, what to call it, how big it is. */
export interface DownloadFile {
  /** Its key in `store`. */
  key: string;
  store: FileStore;
  name: string;
  sizeBytes: number;
  contentType: string;
  date?: Date;
}

/** `attachment; filename="ascii"; filename*=UTF-8''…` (RFC 6266 / RFC 5987): non-ASCII names survive. */
export function contentDisposition(name: string, disposition: "attachment" | "inline" = "attachment"): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

const DOWNLOAD_HEADERS = { "X-Content-Type-Options": "nosniff", "Cache-Control": "private, no-store" };

/** Whether the request is a HEAD (headers only: the body is not built at all). */
const headOnly = (method: string | undefined) => method === "HEAD";

/** The stored files' keys and real sizes in the store; a file missing from the store is an error (logged). */
export async function resolveFiles(app: AppContext, deliverables: Deliverable[]): Promise<Result<DownloadFile[]>> {
  if (!deliverables.length) return ok([]);
  const rows = await app.db
    .selectFrom("files")
    .select(["id", "stored_name"])
    .where(
      "id",
      "in",
      deliverables.map((d) => d.fileId),
    )
    .execute();
  const stored = new Map(rows.map((r) => [r.id, r.stored_name]));
  const files: DownloadFile[] = [];
  for (const d of deliverables) {
    const name = stored.get(d.fileId);
    if (!name) return fail("generic-download-error");
    const key = storedKey(name);
    const stat = await app.storage.stat(key).catch(() => null);
    if (!stat) {
      app.logger.error({ fileId: d.fileId, storage: app.storage.kind }, "delivered file is missing from the store");
      return fail("generic-download-error");
    }
    files.push({ key, store: app.storage, name: d.name, sizeBytes: stat.size, contentType: d.contentType, date: new Date(d.createdAt) });
  }
  return ok(files);
}

/** One stored file as a response: streamed from the store, with its length, its name and `nosniff`. */
export function fileResponse(file: DownloadFile, method?: string): Response {
  const headers = {
    ...DOWNLOAD_HEADERS,
    "Content-Type": file.contentType || "application/octet-stream",
    "Content-Length": String(file.sizeBytes),
    "Content-Disposition": contentDisposition(file.name),
  };
  if (headOnly(method)) return new Response(null, { headers });
  const stream = new LazyReadable(() => file.store.read(file.key));
  return new Response(Readable.toWeb(stream) as ReadableStream, { headers });
}

/**
 * A name for each entry of the zip: no path separators (nor a drive-like `x:` prefix that archiver strips), and a
 * second file of the same name becomes "name (2).ext".
 */
export function zipEntryNames(names: string[]): string[] {
  const seen = new Set<string>();
  return names.map((raw) => {
    const base = raw.replace(/[/\\:]/g, "_").replace(/^\.+/, "_") || "file";
    let name = base;
    const dot = base.lastIndexOf(".");
    for (let i = 2; seen.has(name.toLowerCase()); i++) name = dot > 0 ? `${base.slice(0, dot)} (${i})${base.slice(dot)}` : `${base} (${i})`;
    seen.add(name.toLowerCase());
    return name;
  });
}

const ZIP32_LIMIT = 0xffffffff;

/**
 * The exact size of the store-only zip archiver writes for these entries, or null when it would need ZIP64
 * (over 4 GiB or 65,535 entries: then the response is chunked and only X-Total-Bytes is sent). Per entry: local
 * header 30 + name, the data, data descriptor 16, central header 46 + name; then the end record 22.
 */
export function storedZipSize(entries: { name: string; sizeBytes: number }[]): number | null {
  if (entries.length > 0xfffe) return null;
  let total = 22;
  for (const e of entries) {
    if (total > ZIP32_LIMIT || e.sizeBytes >= ZIP32_LIMIT) return null;
    const name = Buffer.byteLength(e.name);
    total += 30 + name + e.sizeBytes + 16 + 46 + name;
  }
  return total > ZIP32_LIMIT ? null : total;
}

/**
 * Stored files open for downloads in progress (tests check that an aborted zip leaves none). Each file of a zip
 * is opened (a file handle, or a GetObject) only when the archive gets to it: at most one per download.
 */
export const zipStats = () => ({ openZipFiles: lazyStreamStats().open });

/**
 * All files as one zip named `zipName`, streamed. Headers: Content-Length (exact, see storedZipSize),
 * X-Total-Bytes (the files' total: what a progress bar may count against when there is no length).
 */
export function zipResponse(files: DownloadFile[], zipName: string, method?: string): Response {
  const names = zipEntryNames(files.map((f) => f.name));
  const entries = files.map((f, i) => ({ ...f, name: names[i] }));
  const length = storedZipSize(entries);
  const headers: Record<string, string> = {
    ...DOWNLOAD_HEADERS,
    "Content-Type": "application/zip",
    "Content-Disposition": contentDisposition(zipName),
    "X-Total-Bytes": String(files.reduce((s, f) => s + f.sizeBytes, 0)),
  };
  if (length !== null) headers["Content-Length"] = String(length);
  if (headOnly(method)) return new Response(null, { headers });

  const archive = archiver("zip", { store: true });
  const sources: LazyReadable[] = [];
  for (const e of entries) {
    const source = new LazyReadable(() => e.store.read(e.key));
    source.on("error", () => undefined);
    sources.push(source);
    archive.append(source, { name: e.name, date: e.date ?? new Date(0), store: true });
  }
  let finished = false;
  archive.on("end", () => {
    finished = true;
  });
  // The client went away (the router destroyed the body): stop the queue and close the file being read.
  archive.on("close", () => {
    if (finished) return;
    archive.abort();
    for (const s of sources) s.destroy();
  });
  archive.on("error", () => {
    for (const s of sources) s.destroy();
  });
  void archive.finalize().catch(() => undefined);
  return new Response(Readable.toWeb(archive) as ReadableStream, { headers });
}

/** Whether the scope is staff acting (a staff session, or staff viewing as the researcher). */
export function actsAsStaff(scope: Scope): boolean {
  return Boolean(scope.session?.user.isStaff) || scope.impersonatorId !== null;
}

export interface OrderDownloads {
  orderId: number;
  externalId: string;
  deliverables: Deliverable[];
}

/**
 * The delivered files of an order for the acting user: the owner once the order's files are available
 * (flags.downloadAvailable), staff always. Errors: `not-found` (no such order, another user's),
 * `download-not-available` (403: not completed, or held back until payment).
 */
export async function orderDownloads(scope: Scope, externalId: string): Promise<Result<OrderDownloads>> {
  if (scope.session?.user.isStaff) {
    const order = await scope.app.db
      .selectFrom("orders")
      .select(["id", "external_id"])
      .where("external_id", "=", externalId)
      .executeTakeFirst();
    if (!order) return fail("not-found");
    return ok({ orderId: order.id, externalId: order.external_id, deliverables: await listDeliverables(scope.app.db, order.id) });
  }
  const order = await findOrder(scope, externalId);
  if (!order) return fail("not-found");
  if (!order.flags.downloadAvailable && scope.impersonatorId === null) return fail("download-not-available");
  return ok({ orderId: order.id, externalId: order.externalId, deliverables: await listDeliverables(scope.app.db, order.id) });
}

/** '{company} Completed files {externalId}.zip' (spec 2 §2; company: config companyShortName). */
export async function zipNameOf(app: AppContext, externalId: string): Promise<string> {
  const { config } = await app.config.snapshot();
  return `${config.companyShortName} Completed files ${externalId}.zip`;
}

/**
 * One of the user's own files by id (`/api/file/{identity}/download`): an uploaded manuscript or attachment of
 * theirs, or a delivered file of one of their orders once the order's files are available; staff any file.
 * Anything else: `not-found`.
 */
export async function ownFile(scope: Scope, fileId: string): Promise<Result<DownloadFile>> {
  if (!scope.userId || !/^[0-9a-f-]{36}$/i.test(fileId)) return fail("not-found");
  const staff = actsAsStaff(scope);
  let query = scope.app.db
    .selectFrom("files")
    .select(["id", "kind", "original_name", "stored_name", "content_type", "created_at", "owner_user_id"])
    .where("id", "=", fileId.toLowerCase())
    .where("deleted_at", "is", null);
  if (!scope.session?.user.isStaff) query = query.where("owner_user_id", "=", scope.userId);
  const row = await query.executeTakeFirst();
  if (!row) return fail("not-found");
  let name = row.original_name;
  if (row.kind === "deliverable") {
    const delivered = await scope.app.db
      .selectFrom("deliverables as d")
      .innerJoin("orders as o", "o.id", "d.order_id")
      .select(["o.external_id", "o.user_id", "d.name"])
      .where("d.file_id", "=", row.id)
      .where("d.removed_at", "is", null)
      .executeTakeFirst();
    if (!delivered) return fail("not-found");
    if (!staff) {
      const order = await findOrder(scope, delivered.external_id);
      if (!order?.flags.downloadAvailable) return fail("not-found");
    }
    name = delivered.name;
  }
  const key = storedKey(row.stored_name);
  const stat = await scope.app.storage.stat(key).catch(() => null);
  if (!stat) {
    scope.app.logger.error({ fileId, storage: scope.app.storage.kind }, "stored file is missing from the store");
    return fail("not-found");
  }
  return ok({ key, store: scope.app.storage, name, sizeBytes: stat.size, contentType: row.content_type, date: new Date(row.created_at) });
}
