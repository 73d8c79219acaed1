// Document analysis: text out of the manuscript, a word count and the language, stored in
// document_analyses; and the order form's "document details" over the main files.
// The extractors are loaded on first use, so pages that only read details never load them.
import fsp from "node:fs/promises";
import { sql } from "kysely";
import type { AppContext } from "../context";
import { familyOfContentType, type FileFamily } from "./filetype";
import { listZipEntries, readZipEntry } from "./containers";
import { countWords, detectLanguage, rtfToText, texToText } from "./text";
import { isFileId, storedPath } from "./files";

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

const MAX_TEXT_BYTES = 200 * 1024 * 1024;

async function extractDocx(filePath: string): Promise<string> {
  const mammoth = (await import("mammoth")).default;
  const { value } = await mammoth.extractRawText({ path: filePath });
  return value;
}

async function extractDoc(filePath: string): Promise<string> {
  const WordExtractor = (await import("word-extractor")).default;
  const doc = await new WordExtractor().extract(filePath);
  return [doc.getBody(), doc.getFootnotes(), doc.getEndnotes()].filter(Boolean).join("\n");
}

async function extractPdf(filePath: string): Promise<string> {
  const { getDocumentProxy, extractText } = await import("unpdf");
  const pdf = await getDocumentProxy(new Uint8Array(await fsp.readFile(filePath)));
  try {
    const { text } = await extractText(pdf, { mergePages: true });
    return text;
  } finally {
    await pdf.destroy();
  }
}

async function extractOdt(filePath: string): Promise<string> {
  const fh = await fsp.open(filePath, "r");
  try {
    const entries = await listZipEntries(fh, (await fh.stat()).size);
    const content = entries?.find((e) => e.name === "content.xml");
    const xml = content ? await readZipEntry(fh, content, MAX_TEXT_BYTES) : null;
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

/** The plain text of a stored document of the given family. */
export async function extractText(filePath: string, family: FileFamily): Promise<string> {
  switch (family) {
    case "docx":
      return extractDocx(filePath);
    case "doc":
      return extractDoc(filePath);
    case "pdf":
      return extractPdf(filePath);
    case "odt":
      return extractOdt(filePath);
    case "rtf":
      return rtfToText((await fsp.readFile(filePath)).toString("latin1"));
    case "txt":
      return (await fsp.readFile(filePath, "utf8")).replace(/^\uFEFF/, "");
    case "tex":
      return texToText((await fsp.readFile(filePath, "utf8")).replace(/^\uFEFF/, ""));
    default:
      throw new Error(`no text extractor for ${family}`);
  }
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
    const text = await extractText(storedPath(ctx, file.stored_name), family);
    const wordCount = countWords(text);
    const languageCode = detectLanguage(text);
    const languageId = await languageIdOf(ctx, languageCode);
    ctx.logger.debug({ fileId, family, wordCount, languageCode, ms: Date.now() - started }, "document analysed");
    result = { fileId, status: "done", wordCount, languageId, languageCode, error: null };
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const reason = e.code === "ENOENT" ? "file-missing" : e.code === "unsupported-type" ? "unsupported-type" : "unreadable";
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
}

/**
 * GET /api/order-form/{id}/document-details over the order form's files: only main files count.
 * The caller passes ids it has already checked belong to the order form (deleted files are ignored).
 */
export async function documentDetails(ctx: AppContext, fileIds: string[]): Promise<DocumentDetails> {
  const ids = [...new Set(fileIds.filter(isFileId))];
  const none: DocumentDetails = { documentDetailsReceived: false, manuscriptLanguageId: null, wordCount: null, analysisFailed: false };
  if (!ids.length) return none;
  const rows = await ctx.db
    .selectFrom("files")
    .leftJoin("document_analyses", "document_analyses.file_id", "files.id")
    .select(["files.id", "document_analyses.status", "document_analyses.word_count", "document_analyses.language_id"])
    .where("files.id", "in", ids)
    .where("files.kind", "=", "main")
    .where("files.deleted_at", "is", null)
    .orderBy("files.created_at")
    .execute();
  if (!rows.length) return none;
  const analysisFailed = rows.some((r) => r.status === "failed");
  if (!rows.every((r) => r.status === "done")) return { ...none, analysisFailed };
  let largest = rows[0];
  for (const r of rows) if ((r.word_count ?? 0) > (largest.word_count ?? 0)) largest = r;
  return {
    documentDetailsReceived: true,
    manuscriptLanguageId: largest.language_id ?? null,
    wordCount: rows.reduce((sum, r) => sum + (r.word_count ?? 0), 0),
    analysisFailed: false,
  };
}
