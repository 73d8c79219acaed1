// Uploaded files: streamed to a spool file on this machine (DATA_DIR/files/tmp) while hashed and sniffed, size-
// limited, checked by content, then moved into the file store (ctx.storage, ADR 078: DATA_DIR/files/<shard>/<random
// name> on the local disk, a rename; or the S3-compatible store, streamed) and recorded in `files`; a main file gets
// its analysis job in the same transaction. Every read and delete checks that the file belongs to the caller.
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { sql, type Transaction } from "kysely";
import { errorStatus } from "#common/result";
import type { AppContext } from "../context";
import type { Database as DBSchema } from "../../db/types";
import type { FileKind } from "../../db/types-documents";
import { analyseDocumentJob } from "./jobs";
import { isFileId, storedKey } from "./files";
import { LazyReadable } from "../storage";
import { rateLimit, type RateLimitResult } from "../kernel/rate-limit";
import { MultipartError, type MultipartBody } from "../kernel/multipart";
import { detectFamily, extensionOf, familyMatches, EXTENSION_FAMILY, FAMILY_CONTENT_TYPE, type ContentProbe } from "./filetype";
import { addressGroup, addressUsage, watchPortalUsage } from "./quota";

// Where files live and what a file id looks like are in files.ts (the analysis job needs them without this module).
export { filesRoot, isFileId, storedKey, storedPath, withStoredFile } from "./files";
export { sweepTempUploads, tempUploadMaxAgeMs } from "./partial-uploads";
/** The kind of the document analysis job (server/documents/jobs.ts). */
export const ANALYSE_JOB = analyseDocumentJob.kind;

export type { FileKind };
export const FILE_KINDS: readonly FileKind[] = [
  "main",
  "figure",
  "table",
  "main_reference",
  "figure_reference",
  "table_reference",
  "deliverable",
  "support",
  "assessment",
  "digital",
];

/** Form field names (spec 1 §2 details form; `files` on get-started) → kind of file. */
export const FIELD_KINDS: Readonly<Record<string, FileKind>> = {
  files: "main",
  file: "main",
  mainFiles: "main",
  figureFiles: "figure",
  tableFiles: "table",
  mainReferenceFiles: "main_reference",
  figureReferenceFiles: "figure_reference",
  tableReferenceFiles: "table_reference",
};

export function isFileKind(value: unknown): value is FileKind {
  return typeof value === "string" && (FILE_KINDS as readonly string[]).includes(value);
}

export type UploadErrorCode =
  | "file-too-large"
  | "file-type-not-allowed"
  | "too-many-files"
  | "empty-file"
  | "invalid-request"
  | "rate-limited"
  | "storage-quota-exceeded";

/** A refused upload; `code` is for the caller to translate (suggested HTTP status in `status`). */
export class UploadError extends Error {
  constructor(
    readonly code: UploadErrorCode,
    readonly fileName?: string,
  ) {
    super(fileName ? `${code}: ${fileName}` : code);
    this.name = "UploadError";
  }
  /** Its HTTP status, from the one table of them (ERROR_STATUS; empty-file and invalid-request: 400). */
  get status(): number {
    return errorStatus(this.code);
  }
}

export interface UploadLimits {
  maxFileBytes: number;
  maxFiles: number;
  /**
   * Storage quotas (issue 10 §6): all files of one user, of one anonymous draft key and (issue 20 §5) of the
   * anonymous drafts of one address, of one order form, of everyone.
   */
  quotaUserBytes: number;
  quotaAnonymousBytes: number;
  /** Bytes anonymous drafts of one address may upload in 24 hours, files removed since included (ADR 049). */
  quotaAnonymousDailyBytes: number;
  quotaOrderFormBytes: number;
  quotaTotalBytes: number;
}

const MB = 1024 * 1024;
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  maxFileBytes: 50 * MB,
  maxFiles: 20,
  quotaUserBytes: 2048 * MB,
  quotaAnonymousBytes: 300 * MB,
  quotaAnonymousDailyBytes: 200 * MB,
  quotaOrderFormBytes: 1024 * MB,
  quotaTotalBytes: 200 * 1024 * MB,
};

/** Who a file belongs to: a signed-in user, or (before sign-in) the visitor's anonymous draft. */
export interface FileOwner {
  ownerUserId?: number | null;
  draftKey?: string | null;
}

export interface StoredFile {
  id: string;
  kind: FileKind;
  originalName: string;
  sizeBytes: number;
  contentType: string;
  sha256: string;
  ownerUserId: number | null;
  draftKey: string | null;
  orderFormId: string | null;
  createdAt: Date;
}

export interface SaveUploadOptions extends FileOwner {
  kind: FileKind;
  /** The uploader's file name; defaults to a File's name. Only its extension matters for checks. */
  originalName?: string;
  orderFormId?: string | null;
  /**
   * The client address of an anonymous upload (scope.ip): its IPv4 address or IPv6 /64 is recorded with the file
   * and the anonymous quota and daily cap hold for it across drafts (ADR 049). Ignored for a user's upload.
   */
  uploaderIp?: string | null;
  /** Override the limits (tests; callers with their own policy). */
  limits?: Partial<UploadLimits>;
  /** Enqueue the analysis job (default: for main files). */
  analyse?: boolean;
}

export type UploadSource = Uint8Array | Blob | Readable | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

interface Policy {
  limits: UploadLimits;
  allowed: Set<string>;
}

const positive = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined);

/**
 * The limits in force: `maxUploadFileBytes` and `maxUploadFiles` from the app config when defined
 * there (so CONFIG_MAX_UPLOAD_FILE_BYTES works), else 50 MB and 20 files; `override` wins.
 */
export async function uploadLimits(ctx: AppContext, override: Partial<UploadLimits> = {}): Promise<UploadLimits> {
  const config = (await ctx.config.snapshot()).config as unknown as Record<string, unknown>;
  const pick = (key: keyof UploadLimits, configKey: string) =>
    positive(override[key]) ?? positive(config[configKey]) ?? DEFAULT_UPLOAD_LIMITS[key];
  return {
    maxFileBytes: pick("maxFileBytes", "maxUploadFileBytes"),
    maxFiles: pick("maxFiles", "maxUploadFiles"),
    quotaUserBytes: pick("quotaUserBytes", "uploadQuotaUserBytes"),
    quotaAnonymousBytes: pick("quotaAnonymousBytes", "uploadQuotaAnonymousBytes"),
    quotaAnonymousDailyBytes: pick("quotaAnonymousDailyBytes", "uploadQuotaAnonymousDailyBytes"),
    quotaOrderFormBytes: pick("quotaOrderFormBytes", "uploadQuotaOrderFormBytes"),
    quotaTotalBytes: pick("quotaTotalBytes", "uploadQuotaTotalBytes"),
  };
}

/** Extensions accepted now: the app config's `allowedFileTypes` that we know how to check. */
export async function allowedExtensions(ctx: AppContext): Promise<Set<string>> {
  const list = (await ctx.config.snapshot()).config.allowedFileTypes ?? [];
  return new Set(list.map((e) => String(e).toLowerCase().replace(/^\./, "")).filter((e) => e in EXTENSION_FAMILY));
}

async function policyFor(ctx: AppContext, limits?: Partial<UploadLimits>): Promise<Policy> {
  return { limits: await uploadLimits(ctx, limits), allowed: await allowedExtensions(ctx) };
}

/** A display-safe file name: no path, no control characters, at most 200 characters (extension kept). */
export function sanitizeFileName(name: string | undefined | null): string {
  let base = String(name ?? "").normalize("NFC");
  base = base.slice(Math.max(base.lastIndexOf("/"), base.lastIndexOf("\\")) + 1);
  // eslint-disable-next-line no-control-regex -- control and bidi characters are stripped from file names
  base = base.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "").trim();
  if (!base || base === "." || base === "..") return "file";
  if (base.length > 200) {
    const ext = extensionOf(base);
    base = ext && ext.length < 20 ? `${base.slice(0, 199 - ext.length)}.${ext}` : base.slice(0, 200);
  }
  return base;
}

function toIterable(source: UploadSource): AsyncIterable<Uint8Array> {
  if (source instanceof Uint8Array) {
    return (async function* () {
      yield source;
    })();
  }
  if (typeof Blob !== "undefined" && source instanceof Blob)
    return Readable.fromWeb(source.stream() as unknown as NodeWebReadableStream<Uint8Array>);
  if (source instanceof Readable) return source;
  if (typeof (source as ReadableStream).getReader === "function" && !(Symbol.asyncIterator in (source as object))) {
    return Readable.fromWeb(source as unknown as NodeWebReadableStream<Uint8Array>);
  }
  return source as AsyncIterable<Uint8Array>;
}

/** Reads and discards the rest of a source so a multipart parser can move on to the next part. */
async function drain(source: UploadSource): Promise<void> {
  if (source instanceof Uint8Array) return;
  if (typeof Blob !== "undefined" && source instanceof Blob) return;
  if (source instanceof Readable) {
    source.resume();
    return;
  }
  if (typeof (source as ReadableStream).cancel === "function") {
    await (source as ReadableStream).cancel().catch(() => undefined);
    return;
  }
  for await (const _ of source as AsyncIterable<Uint8Array>) void _;
}

interface Received {
  tmpPath: string;
  size: number;
  sha256: string;
  probe: ContentProbe;
  tooLarge: boolean;
}

const HEAD_BYTES = 8192;

/** Streams a source into a temporary file, hashing it and checking UTF-8 on the way; stops writing past the limit. */
async function receive(ctx: AppContext, source: UploadSource, maxBytes: number): Promise<Received> {
  const tmpDir = ctx.storage.spoolDir;
  await fsp.mkdir(tmpDir, { recursive: true, mode: 0o700 });
  const tmpPath = path.join(tmpDir, `${randomBytes(16).toString("hex")}.part`);
  const fh = await fsp.open(tmpPath, "wx", 0o600);
  const hash = createHash("sha256");
  const head: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  let tooLarge = false;
  let text = true;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    for await (const raw of toIterable(source)) {
      const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      if (tooLarge) continue; // keep reading so the parser reaches the next part, but keep nothing
      size += chunk.length;
      if (size > maxBytes) {
        tooLarge = true;
        continue;
      }
      if (headLength < HEAD_BYTES) {
        head.push(chunk.subarray(0, HEAD_BYTES - headLength));
        headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
      }
      hash.update(chunk);
      if (text) {
        if (chunk.includes(0)) text = false;
        else {
          try {
            decoder.decode(chunk, { stream: true });
          } catch {
            text = false;
          }
        }
      }
      await fh.write(chunk);
    }
    if (text) {
      try {
        decoder.decode();
      } catch {
        text = false;
      }
    }
  } catch (error) {
    await fh.close().catch(() => undefined);
    await fsp.rm(tmpPath, { force: true });
    throw error;
  }
  // On disk before it is renamed into place and recorded (ADR 046): a row never points at bytes still in a cache
  // that a crash of the machine could lose. A killed process leaves only the .part, which nothing lists.
  if (!tooLarge) await fh.sync();
  await fh.close();
  if (tooLarge) await fsp.rm(tmpPath, { force: true });
  return { tmpPath, size, sha256: hash.digest("hex"), probe: { head: Buffer.concat(head), size, text: text && size > 0 }, tooLarge };
}

function toStoredFile(row: {
  id: string;
  kind: FileKind;
  original_name: string;
  size_bytes: string | number;
  content_type: string;
  sha256: string;
  owner_user_id: number | null;
  draft_key: string | null;
  order_form_id: string | null;
  created_at: Date;
}): StoredFile {
  return {
    id: row.id,
    kind: row.kind,
    originalName: row.original_name,
    sizeBytes: Number(row.size_bytes),
    contentType: row.content_type,
    sha256: row.sha256.trim(),
    ownerUserId: row.owner_user_id,
    draftKey: row.draft_key,
    orderFormId: row.order_form_id,
    createdAt: new Date(row.created_at),
  };
}

/**
 * Refuses a file that would take its owner (a user, or an anonymous draft key: tighter), its order form or
 * the whole portal over the storage quota (issue 10 §6); an anonymous file also the drafts of its address over
 * the anonymous quota or the address's daily cap (issue 20 §5). Uploads queue on one transaction lock here, so
 * two at once cannot both fit in the last free space; the check and the insert are in the same transaction.
 */
async function checkQuotas(
  ctx: AppContext,
  trx: Transaction<DBSchema>,
  limits: UploadLimits,
  owner: { ownerUserId: number | null; draftKey: string | null; orderFormId: string | null; uploaderAddress: string | null },
  size: number,
  originalName: string,
): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('files-quota'))`.execute(trx);
  const ownerFilter =
    owner.ownerUserId !== null ? sql`owner_user_id = ${owner.ownerUserId}` : sql`owner_user_id is null and draft_key = ${owner.draftKey}`;
  const { rows } = await sql<{ total: string; owned: string; form: string }>`
    select coalesce(sum(size_bytes), 0)::text as total,
           coalesce(sum(size_bytes) filter (where ${ownerFilter}), 0)::text as owned,
           coalesce(sum(size_bytes) filter (where order_form_id = ${owner.orderFormId}), 0)::text as form
      from files
     where deleted_at is null`.execute(trx);
  const used = rows[0];
  const ownerQuota = owner.ownerUserId !== null ? limits.quotaUserBytes : limits.quotaAnonymousBytes;
  const full = Number(used.total) + size > limits.quotaTotalBytes;
  let refused =
    full || Number(used.owned) + size > ownerQuota || (owner.orderFormId !== null && Number(used.form) + size > limits.quotaOrderFormBytes);
  if (!refused && owner.uploaderAddress !== null) {
    const address = await addressUsage(trx, owner.uploaderAddress);
    refused = address.stored + size > limits.quotaAnonymousBytes || address.lastDay + size > limits.quotaAnonymousDailyBytes;
  }
  watchPortalUsage(ctx, Number(used.total) + (refused ? 0 : size), limits.quotaTotalBytes, full);
  if (refused) throw new UploadError("storage-quota-exceeded", originalName);
}

function validDraftKey(key: string | null | undefined): string | null {
  return typeof key === "string" && key.length > 0 && key.length <= 200 ? key : null;
}

async function saveWithPolicy(ctx: AppContext, source: UploadSource, options: SaveUploadOptions, policy: Policy): Promise<StoredFile> {
  const ownerUserId = options.ownerUserId ?? null;
  const draftKey = validDraftKey(options.draftKey);
  if (ownerUserId === null && draftKey === null) throw new Error("an upload needs an owner: a user id or a draft key");
  // Only anonymous files say where they came from (ADR 049: kept no longer and no wider than the quota needs).
  const uploaderAddress = ownerUserId === null && options.uploaderIp != null ? addressGroup(options.uploaderIp) : null;
  if (!isFileKind(options.kind)) throw new Error(`unknown file kind ${String(options.kind)}`);
  const originalName = sanitizeFileName(
    options.originalName ?? (source instanceof Blob && "name" in source ? (source as File).name : undefined),
  );
  const extension = extensionOf(originalName);
  const expected = EXTENSION_FAMILY[extension];
  if (!expected || !policy.allowed.has(extension)) {
    await drain(source);
    throw new UploadError("file-type-not-allowed", originalName);
  }
  if (source instanceof Blob && source.size > policy.limits.maxFileBytes) throw new UploadError("file-too-large", originalName);

  const received = await receive(ctx, source, policy.limits.maxFileBytes);
  if (received.tooLarge) throw new UploadError("file-too-large", originalName);
  let storedAs: string | null = null;
  try {
    if (received.size === 0) throw new UploadError("empty-file", originalName);
    const detected = await detectFamily(received.tmpPath, received.probe);
    if (!familyMatches(expected, detected, received.probe)) throw new UploadError("file-type-not-allowed", originalName);

    const storedName = randomBytes(16).toString("hex");
    // Into the store before the row exists (ADR 046): a row never points at bytes that are not stored yet.
    storedAs = storedKey(storedName);
    await ctx.storage.putFile(storedAs, received.tmpPath, { contentType: FAMILY_CONTENT_TYPE[expected] });

    const id = randomUUID();
    const analyse = options.analyse ?? options.kind === "main";
    const row = await ctx.db.transaction().execute(async (trx) => {
      await checkQuotas(
        ctx,
        trx,
        policy.limits,
        { ownerUserId, draftKey, orderFormId: options.orderFormId ?? null, uploaderAddress },
        received.size,
        originalName,
      );
      const inserted = await trx
        .insertInto("files")
        .values({
          id,
          owner_user_id: ownerUserId,
          draft_key: draftKey,
          order_form_id: options.orderFormId ?? null,
          kind: options.kind,
          original_name: originalName,
          stored_name: storedName,
          size_bytes: received.size,
          // The type of the extension the content was accepted for (a .tex stays LaTeX).
          content_type: FAMILY_CONTENT_TYPE[expected],
          sha256: received.sha256,
          uploader_address: uploaderAddress,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (analyse) {
        await trx.insertInto("document_analyses").values({ file_id: id, status: "pending" }).execute();
        await analyseDocumentJob.enqueue(trx, { fileId: id });
      }
      return inserted;
    });
    return toStoredFile(row);
  } catch (error) {
    await fsp.rm(received.tmpPath, { force: true });
    if (storedAs) await ctx.storage.delete(storedAs).catch(() => undefined);
    throw error;
  }
}

/**
 * Stores one upload for a user or an anonymous draft. Throws UploadError (file-too-large,
 * file-type-not-allowed, empty-file) when refused; nothing is kept then.
 */
export async function saveUpload(ctx: AppContext, source: UploadSource, options: SaveUploadOptions): Promise<StoredFile> {
  return saveWithPolicy(ctx, source, options, await policyFor(ctx, options.limits));
}

export interface RejectedUpload {
  /** Form field of the part (empty when the parser stopped reading parts at all). */
  field: string;
  name: string;
  code: UploadErrorCode;
}

export interface UploadResult {
  files: StoredFile[];
  rejected: RejectedUpload[];
  /** The form's text fields (last value wins), e.g. `intent`. */
  fields: Record<string, string>;
}

export interface UploadRequestOptions extends FileOwner {
  /** Kind of files sent under a field not listed in FIELD_KINDS (a `kind` text field sent before them wins). Default main. */
  kind?: FileKind;
  orderFormId?: string | null;
  /** The client address of an anonymous upload (scope.ip), as in SaveUploadOptions. */
  uploaderIp?: string | null;
  limits?: Partial<UploadLimits>;
  /** Every file is of this kind, whatever its field (the grammar check's `file` is not an order's main file). */
  fixedKind?: FileKind;
  /** Accept only these extensions (of those the config allows), e.g. the grammar check's doc and docx. */
  extensions?: readonly string[];
}

/**
 * Reads a multipart/form-data body (its parts: an adapter makes it from the request with multipartBody), streaming
 * each file to disk as it arrives (busboy; the body is never held in memory). Files are checked one by one:
 * accepted ones are stored, refused ones listed in `rejected` with their code. A body that is not multipart, is malformed or exceeds
 * maxFiles × maxFileBytes throws UploadError and keeps nothing.
 */
export async function parseUploadRequest(ctx: AppContext, body: MultipartBody, options: UploadRequestOptions): Promise<UploadResult> {
  if (!body.isMultipart) throw new UploadError("invalid-request");
  const policy = await policyFor(ctx, options.limits);
  if (options.extensions) {
    const only = new Set(options.extensions);
    policy.allowed = new Set([...policy.allowed].filter((e) => only.has(e)));
  }
  const { maxFileBytes, maxFiles } = policy.limits;
  const results: (StoredFile | null)[] = [];
  const rejected: RejectedUpload[] = [];
  const fields: Record<string, string> = {};
  const saves: Promise<void>[] = [];
  const unexpected: unknown[] = [];
  let currentKind: FileKind = options.kind ?? "main";
  let tooMany = false;
  let fileCount = 0;
  let failure: unknown = null;
  try {
    await body.read({
      maxBody: maxFiles * (maxFileBytes + 16 * 1024) + 1024 * 1024,
      // Parts past maxFiles are refused one by one below; the parser's own cap only bounds the work.
      limits: {
        fileSize: maxFileBytes + 1,
        files: maxFiles * 2 + 10,
        fields: 100,
        fieldSize: 64 * 1024,
        parts: maxFiles * 2 + 110,
        headerPairs: 100,
      },
      onField(name, value) {
        fields[name] = value;
        if (name === "kind" && isFileKind(value)) currentKind = value;
      },
      onFilesLimit() {
        tooMany = true;
      },
      onFile({ field, filename, stream }) {
        if (++fileCount > maxFiles) {
          stream.resume();
          rejected.push({ field, name: sanitizeFileName(filename), code: "too-many-files" });
          return;
        }
        const index = results.push(null) - 1;
        const kind = options.fixedKind ?? FIELD_KINDS[field] ?? currentKind;
        const save = saveWithPolicy(
          ctx,
          stream,
          {
            ownerUserId: options.ownerUserId,
            draftKey: options.draftKey,
            orderFormId: options.orderFormId,
            uploaderIp: options.uploaderIp,
            kind,
            originalName: filename,
          },
          policy,
        ).then(
          (file) => {
            results[index] = file;
          },
          (error) => {
            stream.resume();
            if (error instanceof UploadError) rejected.push({ field, name: sanitizeFileName(filename), code: error.code });
            else unexpected.push(error);
          },
        );
        saves.push(save);
        return save;
      },
    });
  } catch (error) {
    // An early refusal (not multipart, Content-Length over the limit) keeps nothing and says why.
    failure = new UploadError(error instanceof MultipartError && error.code === "payload-too-large" ? "file-too-large" : "invalid-request");
  }
  await Promise.all(saves);
  const files = results.filter((f): f is StoredFile => f !== null);
  if (failure || unexpected.length) {
    // Half a request keeps nothing: the caller reports an error, so no file may stay behind unseen.
    for (const file of files) await removeFile(ctx, file.id);
    throw failure ?? unexpected[0];
  }
  if (tooMany) rejected.push({ field: "", name: "", code: "too-many-files" });
  return { files, rejected, fields };
}

/** A user's own files, or an unclaimed draft's files; a claimed file is no longer reachable through its draft key. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any query builder over `files` (select, update, delete)
function ownedBy<QB extends { where: (...args: any[]) => QB }>(qb: QB, owner: FileOwner): QB | null {
  if (owner.ownerUserId != null) {
    const userId = owner.ownerUserId;
    const draftKey = validDraftKey(owner.draftKey);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the builder of whichever query QB is
    return qb.where((eb: any) =>
      draftKey
        ? eb.or([eb("owner_user_id", "=", userId), eb.and([eb("owner_user_id", "is", null), eb("draft_key", "=", draftKey)])])
        : eb("owner_user_id", "=", userId),
    );
  }
  const draftKey = validDraftKey(owner.draftKey);
  if (!draftKey) return null;
  return qb.where("owner_user_id", "is", null).where("draft_key", "=", draftKey);
}

export interface OpenedFile extends StoredFile {
  /** Its key in the file store (ctx.storage). */
  key: string;
  /** A fresh stream of the content, opened from the store when first read. */
  stream(): Readable;
}

/** The file with its content, or null when it does not exist, was deleted or is not the caller's. */
export async function openFile(ctx: AppContext, fileId: string, owner: FileOwner): Promise<OpenedFile | null> {
  if (!isFileId(fileId)) return null;
  const query = ownedBy(ctx.db.selectFrom("files").selectAll().where("id", "=", fileId).where("deleted_at", "is", null), owner);
  const row = query ? await query.executeTakeFirst() : undefined;
  if (!row) return null;
  const key = storedKey(row.stored_name);
  if (!(await ctx.storage.stat(key))) {
    ctx.logger.error({ fileId, storage: ctx.storage.kind }, "stored file is missing from the store");
    return null;
  }
  return { ...toStoredFile(row), key, stream: () => new LazyReadable(() => ctx.storage.read(key)) };
}

/** The caller's files (not deleted), oldest first; optionally of one order form or some kinds. */
export async function listFiles(
  ctx: AppContext,
  owner: FileOwner,
  filter: { orderFormId?: string; kinds?: FileKind[] } = {},
): Promise<StoredFile[]> {
  let query = ctx.db.selectFrom("files").selectAll().where("deleted_at", "is", null);
  if (filter.orderFormId !== undefined) query = query.where("order_form_id", "=", filter.orderFormId);
  if (filter.kinds?.length) query = query.where("kind", "in", filter.kinds);
  const owned = ownedBy(query, owner);
  if (!owned) return [];
  return (await owned.orderBy("created_at").orderBy("id").execute()).map(toStoredFile);
}

/** Attaches the caller's files to an order form; returns how many were attached. */
export async function assignFilesToOrderForm(ctx: AppContext, fileIds: string[], orderFormId: string, owner: FileOwner): Promise<number> {
  const ids = fileIds.filter(isFileId);
  if (!ids.length) return 0;
  const query = ownedBy(
    ctx.db.updateTable("files").set({ order_form_id: orderFormId }).where("id", "in", ids).where("deleted_at", "is", null),
    owner,
  );
  if (!query) return 0;
  return Number((await query.executeTakeFirst()).numUpdatedRows);
}

/**
 * Gives an anonymous draft's files to the user who just signed in or registered. Returns how many
 * were claimed. Files already owned (by anyone) are left alone. A claimed file forgets its address (ADR 049).
 */
export async function claimDraftFiles(ctx: AppContext, draftKey: string, userId: number): Promise<number> {
  const key = validDraftKey(draftKey);
  if (!key) return 0;
  const result = await ctx.db
    .updateTable("files")
    .set({ owner_user_id: userId, uploader_address: null })
    .where("draft_key", "=", key)
    .where("owner_user_id", "is", null)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes the caller's file (row marked deleted, content removed from disk). False when not theirs. */
export async function deleteFile(ctx: AppContext, fileId: string, owner: FileOwner): Promise<boolean> {
  if (!isFileId(fileId)) return false;
  const query = ownedBy(
    ctx.db
      .updateTable("files")
      .set({ deleted_at: sql<Date>`now()` })
      .where("id", "=", fileId)
      .where("deleted_at", "is", null),
    owner,
  );
  if (!query) return false;
  const row = await query.returning("stored_name").executeTakeFirst();
  if (!row) return false;
  await ctx.storage
    .delete(storedKey(row.stored_name))
    .catch((error) => ctx.logger.error({ err: error, fileId }, "could not remove a deleted file"));
  return true;
}

/** Removes a file regardless of owner (cleanup of a failed request). */
async function removeFile(ctx: AppContext, fileId: string): Promise<void> {
  const row = await ctx.db
    .updateTable("files")
    .set({ deleted_at: sql<Date>`now()` })
    .where("id", "=", fileId)
    .returning("stored_name")
    .executeTakeFirst();
  if (row) await ctx.storage.delete(storedKey(row.stored_name)).catch(() => undefined);
}

/** Headers for sending a stored file as a download (never rendered inline: SVG may carry script). */
export function downloadHeaders(file: Pick<StoredFile, "originalName" | "contentType" | "sizeBytes">): Record<string, string> {
  const ascii = file.originalName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return {
    "Content-Type": file.contentType,
    "Content-Length": String(file.sizeBytes),
    "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.originalName)}`,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cache-Control": "private, no-store",
  };
}

/** A download response for an opened file: streamed from the store, sent as an attachment. */
export function fileResponse(file: OpenedFile): Response {
  return new Response(Readable.toWeb(file.stream()) as unknown as ReadableStream<Uint8Array>, {
    status: 200,
    headers: downloadHeaders(file),
  });
}

export interface UploadRateLimitOptions {
  /** Uploads (requests) allowed per window; default 30. */
  limit?: number;
  /** Window in seconds; default 600 (10 minutes). */
  windowSeconds?: number;
}

/** Counts one upload request for the user (or, anonymous, the address): 30 per 10 minutes by default. */
export async function checkUploadRateLimit(
  ctx: AppContext,
  who: { userId?: number | null; ip: string },
  options: UploadRateLimitOptions = {},
): Promise<RateLimitResult> {
  const key = who.userId != null ? `upload:user:${who.userId}` : `upload:ip:${who.ip}`;
  return rateLimit(ctx.cache, key, options.limit ?? 30, options.windowSeconds ?? 600);
}
