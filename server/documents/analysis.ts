// Document analysis: text out of the manuscript, a word count and the language, stored in
// document_analyses; and the order form's "document details" over the main files.
// The extractors are loaded on first use, so pages that only read details never load them.
import fsp from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { sql } from "kysely";
import type { AppContext } from "../context";
import { familyOfContentType, type FileFamily } from "./filetype";
import {
  ArchiveLimitError,
  checkPdfBounds,
  checkZipBounds,
  listZipEntries,
  readZipEntry,
  type PdfBounds,
  type ZipBounds,
} from "./containers";
import { countWords, detectLanguage, rtfToText, texToText } from "./text";
import { isFileId, withStoredFile } from "./files";

export interface AnalysisResult {
  fileId: string;
  status: "done" | "failed";
  wordCount: number | null;
  languageId: number | null;
  languageCode: string | null;
  error: string | null;
}

/** Families we can read text from. */
export const ANALYSABLE: readonly FileFamily[] = ["docx", "doc", "pdf", "odt", "rtf", "txt", "tex"];

/**
 * What one upload may cost to read (ADR 019, issue 9 §5): a ZIP-based document is first streamed through
 * inflate against these bounds (containers.ts, checkZipBounds), then the DOM-building extractors (docx,
 * doc, pdf) run in a worker thread with a heap cap and a time limit, and the text itself is bounded.
 * Past any of them the analysis fails with `document-too-large`, which the order form shows.
 */
export const ANALYSIS_LIMITS = {
  zip: {
    maxEntries: 5_000,
    maxTotalBytes: 200 * 1024 * 1024,
    maxXmlBytes: 32 * 1024 * 1024,
    maxRatio: 100,
    ratioFloorBytes: 1024 * 1024,
  } satisfies ZipBounds,
  /** A 300-page text PDF's content streams inflate to 10–30 MB. */
  pdf: {
    maxStreams: 200_000,
    maxTotalBytes: 64 * 1024 * 1024,
    maxRatio: 100,
    ratioFloorBytes: 1024 * 1024,
  } satisfies PdfBounds,
  /** About 1.5 million words: far past any manuscript the portal edits. */
  maxTextChars: 10_000_000,
  workerHeapMb: 512,
  workerTimeoutMs: 60_000,
};

/** An extraction past a limit: recorded as `document-too-large`. */
const tooLarge = (detail: string) => new ArchiveLimitError(detail);

/** A path beside this module's source: the worker file is plain JavaScript next to it. */
const WORKER_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "extract-worker.mjs");

/** Runs extract-worker.mjs on one file under the heap cap and time limit; its death is this file's failure only. */
function extractInWorker(filePath: string, family: FileFamily): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_FILE, {
      workerData: { filePath, family, maxChars: ANALYSIS_LIMITS.maxTextChars },
      resourceLimits: { maxOldGenerationSizeMb: ANALYSIS_LIMITS.workerHeapMb, maxYoungGenerationSizeMb: 32 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(tooLarge("extraction took too long"))), ANALYSIS_LIMITS.workerTimeoutMs);
    worker.on("message", (m: { text?: string; tooLong?: number; error?: string }) =>
      settle(() => {
        if (typeof m.text === "string") resolve(m.text);
        else if (m.tooLong) reject(tooLarge(`${m.tooLong} characters of text`));
        else reject(new Error(m.error ?? "extraction failed"));
      }),
    );
    worker.on("error", (error: NodeJS.ErrnoException) =>
      settle(() => reject(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? tooLarge("extraction ran out of memory") : error)),
    );
    worker.on("exit", (code) => settle(() => reject(new Error(`extraction worker exited with ${code}`))));
  });
}

/** Refuses a ZIP-based upload that inflates past the bounds, before any extractor sees it. */
async function checkZip(filePath: string): Promise<void> {
  const fh = await fsp.open(filePath, "r");
  try {
    await checkZipBounds(fh, (await fh.stat()).size, ANALYSIS_LIMITS.zip);
  } finally {
    await fh.close();
  }
}

async function extractOdt(filePath: string): Promise<string> {
  await checkZip(filePath);
  const fh = await fsp.open(filePath, "r");
  try {
    const entries = await listZipEntries(fh, (await fh.stat()).size);
    const content = entries?.find((e) => e.name === "content.xml");
    const xml = content ? await readZipEntry(fh, content, ANALYSIS_LIMITS.zip.maxXmlBytes) : null;
    if (!xml) throw new Error("no readable content.xml");
    return xml
      .toString("utf8")
      .replace(/<text:(?:p|h|line-break)\b[^>]*\/?>/g, "\n")
      .replace(/<text:(?:s|tab)\b[^>]*\/?>/g, " ")
      .replace(/<[^>]+>/g, "")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, "&");
  } finally {
    await fh.close();
  }
}

/** The text of a plain file, refused unread when its bytes alone are past the text limit (UTF-8: ≥ 1 byte a character). */
async function readPlain(filePath: string, encoding: "utf8" | "latin1", maxBytes: number): Promise<string> {
  if ((await fsp.stat(filePath)).size > maxBytes) throw tooLarge("text file too long");
  return (await fsp.readFile(filePath)).toString(encoding);
}

/** The plain text of a stored document of the given family. */
export async function extractText(filePath: string, family: FileFamily): Promise<string> {
  const maxBytes = ANALYSIS_LIMITS.maxTextChars * 4;
  let text: string;
  switch (family) {
    case "docx":
      await checkZip(filePath);
      text = await extractInWorker(filePath, family);
      break;
    case "doc":
      text = await extractInWorker(filePath, family);
      break;
    case "pdf":
      await checkPdfBounds(await fsp.readFile(filePath), ANALYSIS_LIMITS.pdf);
      text = await extractInWorker(filePath, family);
      break;
    case "odt":
      text = await extractOdt(filePath);
      break;
    case "rtf":
      text = rtfToText(await readPlain(filePath, "latin1", maxBytes));
      break;
    case "txt":
      text = (await readPlain(filePath, "utf8", maxBytes)).replace(/^\uFEFF/, "");
      break;
    case "tex":
      text = texToText((await readPlain(filePath, "utf8", maxBytes)).replace(/^\uFEFF/, ""));
      break;
    default:
      throw new Error(`no text extractor for ${family}`);
  }
  if (text.length > ANALYSIS_LIMITS.maxTextChars) throw tooLarge(`${text.length} characters of text`);
  return text;
}

/** The languages table id of an ISO 639-1 code, or null when the portal does not list it. */
export async function languageIdOf(ctx: AppContext, code: string | null): Promise<number | null> {
  if (!code) return null;
  const row = await ctx.db.selectFrom("languages").select("id").where("code", "=", code).executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Analyses one stored file and records the result in document_analyses. A file that cannot be read
 * (corrupt, unsupported, gone) is recorded as failed, not thrown: another attempt would fail the same
 * way. Database errors are thrown so the job is retried. Null when the file does not exist or was deleted.
 */
export async function analyseFile(ctx: AppContext, fileId: string): Promise<AnalysisResult | null> {
  if (!isFileId(fileId)) return null;
  const file = await ctx.db
    .selectFrom("files")
    .select(["id", "stored_name", "content_type"])
    .where("id", "=", fileId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!file) return null;
  const family = familyOfContentType(file.content_type);
  let result: AnalysisResult;
  try {
    if (!family || !ANALYSABLE.includes(family))
      throw Object.assign(new Error(`cannot read text from ${file.content_type}`), { code: "unsupported-type" });
    const started = Date.now();
    const text = await withStoredFile(ctx, file.stored_name, (path) => extractText(path, family));
    const wordCount = countWords(text);
    const languageCode = detectLanguage(text);
    const languageId = await languageIdOf(ctx, languageCode);
    ctx.logger.debug({ fileId, family, wordCount, languageCode, ms: Date.now() - started }, "document analysed");
    result = { fileId, status: "done", wordCount, languageId, languageCode, error: null };
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const reason =
      e.code === "ENOENT" ? "file-missing" : e.code === "unsupported-type" || e.code === "document-too-large" ? e.code : "unreadable";
    ctx.logger.warn({ fileId, err: error }, "document could not be analysed");
    result = {
      fileId,
      status: "failed",
      wordCount: null,
      languageId: null,
      languageCode: null,
      error: `${reason}: ${String(e.message ?? e).slice(0, 500)}`,
    };
  }
  await ctx.db
    .insertInto("document_analyses")
    .values({
      file_id: fileId,
      status: result.status,
      word_count: result.wordCount,
      language_id: result.languageId,
      language_code: result.languageCode,
      error: result.error,
      analysed_at: sql<Date>`now()`,
    })
    .onConflict((oc) =>
      oc.column("file_id").doUpdateSet({
        status: result.status,
        word_count: result.wordCount,
        language_id: result.languageId,
        language_code: result.languageCode,
        error: result.error,
        analysed_at: sql<Date>`now()`,
      }),
    )
    .execute();
  return result;
}

export interface DocumentDetails {
  /** True once every main file among the ids has been analysed. */
  documentDetailsReceived: boolean;
  /** languages.id of the manuscript (the language of the largest main file), null when unknown. */
  manuscriptLanguageId: number | null;
  /** Sum of the main files' word counts; null until received. */
  wordCount: number | null;
  /** Some main file could not be analysed: stop polling and ask the researcher (spec 1 §4). */
  analysisFailed: boolean;
  /**
   * Why, as a code the order form translates (`order:errors.<code>`): `document-too-large` for an upload past
   * the analysis limits (ADR 019), `document-unreadable` otherwise; null while nothing failed.
   */
  analysisError: "document-too-large" | "document-unreadable" | null;
}

/**
 * GET /api/order-form/{id}/document-details over the order form's files: only main files count.
 * The caller passes ids it has already checked belong to the order form (deleted files are ignored).
 */
export async function documentDetails(ctx: AppContext, fileIds: string[]): Promise<DocumentDetails> {
  const ids = [...new Set(fileIds.filter(isFileId))];
  const none: DocumentDetails = {
    documentDetailsReceived: false,
    manuscriptLanguageId: null,
    wordCount: null,
    analysisFailed: false,
    analysisError: null,
  };
  if (!ids.length) return none;
  const rows = await ctx.db
    .selectFrom("files")
    .leftJoin("document_analyses", "document_analyses.file_id", "files.id")
    .select([
      "files.id",
      "document_analyses.status",
      "document_analyses.word_count",
      "document_analyses.language_id",
      "document_analyses.error",
    ])
    .where("files.id", "in", ids)
    .where("files.kind", "=", "main")
    .where("files.deleted_at", "is", null)
    .orderBy("files.created_at")
    .execute();
  if (!rows.length) return none;
  const failed = rows.filter((r) => r.status === "failed");
  if (failed.length) {
    const tooLarge = failed.some((r) => r.error?.startsWith("document-too-large"));
    return { ...none, analysisFailed: true, analysisError: tooLarge ? "document-too-large" : "document-unreadable" };
  }
  if (!rows.every((r) => r.status === "done")) return none;
  let largest = rows[0];
  for (const r of rows) if ((r.word_count ?? 0) > (largest.word_count ?? 0)) largest = r;
  return {
    documentDetailsReceived: true,
    manuscriptLanguageId: largest.language_id ?? null,
    wordCount: rows.reduce((sum, r) => sum + (r.word_count ?? 0), 0),
    analysisFailed: false,
    analysisError: null,
  };
}
