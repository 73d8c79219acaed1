// What an upload really is, decided by its content (magic bytes, container directories, valid
// UTF-8), and whether that agrees with its extension. A renamed file is refused.
import fs from "node:fs/promises";
import { listCfbEntries, listZipEntries, readZipEntry, isCfb, type ZipEntry } from "./containers";

export type FileFamily =
  | "docx"
  | "xlsx"
  | "pptx"
  | "odt"
  | "zip"
  | "doc"
  | "xls"
  | "ppt"
  | "pdf"
  | "rtf"
  | "txt"
  | "tex"
  | "png"
  | "jpeg"
  | "tiff"
  | "eps"
  | "svg";

/** Extension (lower case, no dot) → the family its content must have. */
export const EXTENSION_FAMILY: Readonly<Record<string, FileFamily>> = {
  doc: "doc",
  docx: "docx",
  odt: "odt",
  pdf: "pdf",
  rtf: "rtf",
  txt: "txt",
  tex: "tex",
  zip: "zip",
  xls: "xls",
  xlsx: "xlsx",
  ppt: "ppt",
  pptx: "pptx",
  jpg: "jpeg",
  jpeg: "jpeg",
  png: "png",
  tif: "tiff",
  tiff: "tiff",
  eps: "eps",
  svg: "svg",
};

/** The Content-Type we store and serve (never the one the client sent). */
export const FAMILY_CONTENT_TYPE: Readonly<Record<FileFamily, string>> = {
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  zip: "application/zip",
  doc: "application/msword",
  xls: "application/vnd.ms-excel",
  ppt: "application/vnd.ms-powerpoint",
  pdf: "application/pdf",
  rtf: "application/rtf",
  txt: "text/plain; charset=utf-8",
  tex: "application/x-tex",
  png: "image/png",
  jpeg: "image/jpeg",
  tiff: "image/tiff",
  eps: "application/postscript",
  svg: "image/svg+xml",
};

export function familyOfContentType(contentType: string): FileFamily | null {
  for (const [family, type] of Object.entries(FAMILY_CONTENT_TYPE)) if (type === contentType) return family as FileFamily;
  return null;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : "";
}

/** What was learnt while the upload streamed to disk. */
export interface ContentProbe {
  /** The first bytes (up to 8 KiB). */
  head: Buffer;
  size: number;
  /** The whole content is valid UTF-8 without NUL bytes. */
  text: boolean;
}

const OOXML_MAIN: Record<string, FileFamily> = {
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml": "docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml": "xlsx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml": "pptx",
};

const startsWith = (head: Buffer, bytes: number[]) => head.length >= bytes.length && bytes.every((b, i) => head[i] === b);

async function zipFamily(fh: fs.FileHandle, size: number): Promise<FileFamily | null> {
  const entries = await listZipEntries(fh, size);
  if (!entries) return null;
  const byName = new Map<string, ZipEntry>(entries.map((e) => [e.name, e]));
  const types = byName.get("[Content_Types].xml");
  if (types) {
    const xml = (await readZipEntry(fh, types, 1024 * 1024))?.toString("utf8") ?? "";
    // The part the package declares as its main document decides: a macro-enabled or template
    // variant (docm, dotx, xlsm…) is not one of the allowed kinds and stays a plain zip.
    for (const match of xml.matchAll(/ContentType\s*=\s*"([^"]+)"/g)) {
      const family = OOXML_MAIN[match[1]];
      if (family) return family;
    }
    return "zip";
  }
  const mimetype = byName.get("mimetype");
  if (mimetype) {
    const value = (await readZipEntry(fh, mimetype, 256))?.toString("ascii").trim();
    if (value === "application/vnd.oasis.opendocument.text") return "odt";
  }
  return "zip";
}

async function cfbFamily(fh: fs.FileHandle, size: number): Promise<FileFamily | null> {
  const names = await listCfbEntries(fh, size);
  if (!names) return null;
  const has = (name: string) => names.some((n) => n.toLowerCase() === name.toLowerCase());
  if (has("WordDocument")) return "doc";
  if (has("Workbook") || has("Book")) return "xls";
  if (has("PowerPoint Document")) return "ppt";
  // Other compound files (installers, Outlook messages…) are not accepted.
  return null;
}

function looksLikeSvg(head: Buffer): boolean {
  let text = head.toString("utf8").replace(/^\uFEFF/, "");
  // Skip the prolog: XML declaration, comments, processing instructions, a doctype.
  for (;;) {
    const trimmed = text.trimStart();
    const m = /^(<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)/i.exec(trimmed);
    if (!m) {
      text = trimmed;
      break;
    }
    text = trimmed.slice(m[0].length);
  }
  return /^<svg[\s>:]/i.test(text) || /^<svg$/i.test(text);
}

/** The family the content belongs to, most specific first; null for anything not accepted. */
export async function detectFamily(filePath: string, probe: ContentProbe): Promise<FileFamily | null> {
  const { head, size } = probe;
  if (size === 0) return null;
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) {
    const fh = await fs.open(filePath, "r");
    try {
      return await zipFamily(fh, size);
    } finally {
      await fh.close();
    }
  }
  if (isCfb(head)) {
    const fh = await fs.open(filePath, "r");
    try {
      return await cfbFamily(fh, size);
    } finally {
      await fh.close();
    }
  }
  // PDF readers accept the header anywhere in the first KiB (after binary junk; text mentioning it is text).
  if (head.subarray(0, 5).toString("latin1") === "%PDF-" || (!probe.text && head.subarray(0, 1024).includes("%PDF-"))) return "pdf";
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return "tiff";
  // EPS: DOS binary header or PostScript with the EPSF marker.
  if (startsWith(head, [0xc5, 0xd0, 0xd3, 0xc6])) return "eps";
  if (/^%!PS-Adobe-\d\.\d EPSF-\d\.\d/.test(head.subarray(0, 64).toString("latin1"))) return "eps";
  if (/^\{\\rtf/.test(head.subarray(0, 8).toString("latin1"))) return "rtf";
  if (probe.text) return looksLikeSvg(head) ? "svg" : "txt";
  return null;
}

const ZIP_BASED: FileFamily[] = ["docx", "xlsx", "pptx", "odt", "zip"];
const TEXT_BASED: FileFamily[] = ["txt", "rtf", "svg", "eps"];

/** Does content of family `detected` fit the extension's family `expected`? */
export function familyMatches(expected: FileFamily, detected: FileFamily | null, probe: ContentProbe): boolean {
  if (!detected) return false;
  if (expected === detected) return true;
  // Any ZIP is a fine .zip, and any valid UTF-8 text is a fine .txt or .tex.
  if (expected === "zip") return ZIP_BASED.includes(detected);
  if (expected === "txt" || expected === "tex") return probe.text && TEXT_BASED.includes(detected);
  return false;
}
