// Reading a .docx or .doc into paragraphs (issue 24, ADR 072), bounded like the documents area (ADR 019):
// - .docx: the ZIP is first streamed through inflate against the bounds (checkZipBounds), then only
//   word/document.xml and word/styles.xml are read (readZipEntry, each under maxXmlBytes) and scanned by a small
//   tag tokenizer: paragraphs (w:p) in order, their text (w:t, tabs, breaks), their style (w:pStyle resolved
//   through styles.xml to title / heading 1–3 / list; a numbered paragraph is a list item). Deleted text of
//   existing revisions (w:delText), field codes and the fallback copy of alternate content are skipped.
// - .doc: word-extractor in the documents area's extraction worker (heap cap, time limit); paragraphs without
//   styles ("normal").
// Unreadable → DigitalEngineError("unreadable"); past a bound → "too-large".
import fsp from "node:fs/promises";
import { ArchiveLimitError, checkZipBounds, listZipEntries, readZipEntry, type ZipBounds } from "../../documents/containers";
import { countWords } from "../../documents/text";
import { extractText } from "../../documents/analysis";
import { DigitalEngineError, type DocParagraph, type DocTextRun } from "../types";

export const READ_LIMITS = {
  /** The upload limit of the area is smaller; a stored file past this is refused unread. */
  maxFileBytes: 50 * 1024 * 1024,
  zip: {
    maxEntries: 5_000,
    maxTotalBytes: 200 * 1024 * 1024,
    maxXmlBytes: 32 * 1024 * 1024,
    maxRatio: 100,
    ratioFloorBytes: 1024 * 1024,
  } satisfies ZipBounds,
  /** About 1.5 million words. */
  maxTextChars: 10_000_000,
  maxParagraphs: 200_000,
};

const ENTITY: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
export function unescapeXml(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (m, e: string) => {
    if (e[0] !== "#") return ENTITY[e];
    const code = e[1] === "x" ? parseInt(e.slice(2), 16) : Number(e.slice(1));
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}

const attr = (attrs: string, name: string): string | null => {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(attrs);
  return m ? unescapeXml(m[1]) : null;
};

/** styleId → the style's name (lower case), from word/styles.xml. */
export function styleNames(stylesXml: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of stylesXml.matchAll(/<w:style\b([^>]*)>([\s\S]*?)<\/w:style>/g)) {
    const id = attr(m[1], "w:styleId");
    const name = /<w:name\b([^>]*)\/?>/.exec(m[2]);
    if (id) names.set(id, (name ? (attr(name[1], "w:val") ?? id) : id).toLowerCase());
  }
  return names;
}

/** The paragraph role of a style (by its name, or its id when styles.xml does not name it). */
export function roleOfStyle(styleId: string | null, names: ReadonlyMap<string, string>): DocParagraph["style"] {
  if (!styleId) return "normal";
  const name = (names.get(styleId) ?? styleId).toLowerCase().replace(/\s+/g, " ");
  if (name === "title") return "title";
  const heading = /^heading ?(\d)$/.exec(name);
  if (heading) return Number(heading[1]) <= 1 ? "heading1" : Number(heading[1]) === 2 ? "heading2" : "heading3";
  if (/^list\b/.test(name)) return "listItem";
  return "normal";
}

type Format = Omit<DocTextRun, "text">;
const sameFormat = (a: Format, b: Format) =>
  a.bold === b.bold && a.italics === b.italics && a.underline === b.underline && a.strike === b.strike && a.vertAlign === b.vertAlign;
/** A run property element's on/off value (`<w:b/>` on, `<w:b w:val="0"/>` off; underline "none" off). */
const isOn = (attrs: string) => !/^(?:0|false|off|none)$/i.test(attr(attrs, "w:val") ?? "1");

/** The paragraph's text cut to `length`, its runs with it; runs only when some piece is formatted. */
export function finishRuns(text: string, runs: readonly DocTextRun[], length: number): { text: string; runs?: DocTextRun[] } {
  const out: DocTextRun[] = [];
  let at = 0;
  for (const run of runs) {
    if (at >= length) break;
    const piece = run.text.slice(0, length - at);
    at += run.text.length;
    if (piece) out.push({ ...run, text: piece });
  }
  const formatted = out.some((r) => !sameFormat(r, {}));
  return formatted ? { text: text.slice(0, length), runs: out } : { text: text.slice(0, length) };
}

/** Paragraphs of word/document.xml in order (pure: the unit tests drive it). */
export function paragraphsOfDocumentXml(xml: string, names: ReadonlyMap<string, string> = new Map()): DocParagraph[] {
  const out: DocParagraph[] = [];
  // Elements whose content is not the document's visible text (or is a duplicate of it; w:tabs holds tab stops).
  const SKIP = new Set(["w:tabs", "w:delText", "w:instrText", "mc:Fallback", "w:txbxContent", "w:del", "w:moveFrom"]);
  let skipDepth = 0;
  let skipName = "";
  let inText = false;
  let current: { text: string; styleId: string | null; list: boolean; runs: DocTextRun[] } | null = null;
  /** Inside a w:r: its formatting (from its w:rPr); outside one, text is plain. */
  let run: Format | null = null;
  let inRunProps = false;
  const add = (piece: string) => {
    if (!current || piece === "") return;
    current.text += piece;
    const format = run ?? {};
    const last = current.runs.at(-1);
    if (last && sameFormat(last, format)) last.text += piece;
    else current.runs.push({ ...format, text: piece });
  };
  let depth = 0; // nested w:p (inside text boxes) are skipped with their container
  const token = /<(\/?)([A-Za-z_][\w.:-]*)([^>]*?)(\/?)>|([^<]+)/g;
  for (const m of xml.matchAll(token)) {
    const [, closing, name, attrs, selfClosing, text] = m;
    if (text !== undefined) {
      if (!skipDepth && inText && current) add(unescapeXml(text));
      continue;
    }
    if (skipDepth) {
      if (name === skipName && !selfClosing) skipDepth += closing ? -1 : 1;
      continue;
    }
    if (SKIP.has(name) && !closing && !selfClosing) {
      skipDepth = 1;
      skipName = name;
      continue;
    }
    if (name === "w:p") {
      if (selfClosing) out.push({ style: "normal", text: "" });
      else if (!closing) {
        depth++;
        if (depth === 1) current = { text: "", styleId: null, list: false, runs: [] };
      } else {
        depth--;
        if (depth === 0 && current) {
          // A numbered or bulleted paragraph is a list item, unless its style is a heading (numbered headings).
          const role = roleOfStyle(current.styleId, names);
          const length = current.text.replace(/\s+$/u, "").length;
          out.push({ style: role === "normal" && current.list ? "listItem" : role, ...finishRuns(current.text, current.runs, length) });
          current = null;
          if (out.length > READ_LIMITS.maxParagraphs) throw new ArchiveLimitError("too many paragraphs");
        }
      }
      continue;
    }
    if (!current) continue;
    if (name === "w:r") {
      run = closing || selfClosing ? null : {};
      inRunProps = false;
    } else if (name === "w:rPr" && run) inRunProps = !closing && !selfClosing;
    else if (inRunProps && run && !closing) {
      if (name === "w:b") run.bold = isOn(attrs) || undefined;
      else if (name === "w:i") run.italics = isOn(attrs) || undefined;
      else if (name === "w:u") run.underline = isOn(attrs) || undefined;
      else if (name === "w:strike") run.strike = isOn(attrs) || undefined;
      else if (name === "w:vertAlign") {
        const v = attr(attrs, "w:val");
        run.vertAlign = v === "superscript" || v === "subscript" ? v : undefined;
      }
    } else if (name === "w:t") inText = !closing && !selfClosing;
    else if (name === "w:pStyle" && !closing) current.styleId = attr(attrs, "w:val");
    else if (name === "w:numPr" && !closing) current.list = true;
    else if ((name === "w:tab" || name === "w:ptab") && !closing) add("\t");
    else if ((name === "w:br" || name === "w:cr") && !closing) add(" ");
    else if (name === "w:noBreakHyphen" && !closing) add("-");
  }
  return out;
}

async function readDocx(filePath: string): Promise<DocParagraph[]> {
  const fh = await fsp.open(filePath, "r");
  try {
    const size = (await fh.stat()).size;
    try {
      await checkZipBounds(fh, size, READ_LIMITS.zip);
    } catch (error) {
      if (error instanceof ArchiveLimitError) throw error;
      throw new DigitalEngineError("unreadable", "not a readable .docx");
    }
    const entries = await listZipEntries(fh, size);
    const main = entries?.find((e) => e.name === "word/document.xml");
    if (!main) throw new DigitalEngineError("unreadable", "no word/document.xml");
    const xml = await readZipEntry(fh, main, READ_LIMITS.zip.maxXmlBytes);
    if (!xml) throw new DigitalEngineError("unreadable", "word/document.xml unreadable");
    const styles = entries?.find((e) => e.name === "word/styles.xml");
    const stylesXml = styles ? await readZipEntry(fh, styles, READ_LIMITS.zip.maxXmlBytes) : null;
    return paragraphsOfDocumentXml(xml.toString("utf8"), stylesXml ? styleNames(stylesXml.toString("utf8")) : new Map());
  } finally {
    await fh.close();
  }
}

/**
 * A .doc through the documents area's extraction (word-extractor in its worker, under its heap cap and time limit,
 * the same call as the grammar check's job): unstyled paragraphs, one a line. Past a limit → too-large.
 */
async function readDoc(filePath: string): Promise<DocParagraph[]> {
  let text: string;
  try {
    text = await extractText(filePath, "doc");
  } catch (error) {
    if (error instanceof ArchiveLimitError) throw new DigitalEngineError("too-large", error.message);
    throw new DigitalEngineError("unreadable", error instanceof Error ? error.message : "not a readable .doc");
  }
  return text
    .split(/\r\n|[\r\n\f\v]/)
    .map((line) => line.replace(/\s+$/u, ""))
    .map((line) => ({ style: "normal" as const, text: line }));
}

/**
 * The paragraphs of a stored .docx or .doc. Empty paragraphs are kept (they space the document); a document
 * without a word → DigitalEngineError("empty").
 */
export async function readDocument(filePath: string, ext: "doc" | "docx"): Promise<DocParagraph[]> {
  let size: number;
  try {
    size = (await fsp.stat(filePath)).size;
  } catch {
    throw new DigitalEngineError("unreadable", "the file is missing");
  }
  if (size > READ_LIMITS.maxFileBytes) throw new DigitalEngineError("too-large", `${size} bytes`);
  let paragraphs: DocParagraph[];
  try {
    paragraphs = ext === "docx" ? await readDocx(filePath) : await readDoc(filePath);
  } catch (error) {
    if (error instanceof DigitalEngineError) throw error;
    if (error instanceof ArchiveLimitError) throw new DigitalEngineError("too-large", error.message);
    throw new DigitalEngineError("unreadable", (error as Error).message);
  }
  const chars = paragraphs.reduce((n, p) => n + p.text.length, 0);
  if (chars > READ_LIMITS.maxTextChars) throw new DigitalEngineError("too-large", `${chars} characters of text`);
  if (wordsOf(paragraphs) === 0) throw new DigitalEngineError("empty", "the document has no words");
  return paragraphs;
}

/** Words of the paragraphs (the documents area's count: CJK characters count one each). */
export function wordsOf(paragraphs: readonly DocParagraph[]): number {
  return paragraphs.reduce((n, p) => n + countWords(p.text), 0);
}
