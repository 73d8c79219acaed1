// Writing paragraphs back into a .docx with the `docx` package (issue 24, ADR 072): paragraph order, headings
// (HeadingLevel: title, heading 1–3), list items (bullets) and every run of text kept; a change can be written as
// a tracked revision (w:del of the original, w:ins of the replacement, each with an author and a date).
import { AlignmentType, DeletedTextRun, Document, HeadingLevel, InsertedTextRun, Packer, Paragraph, TextRun } from "docx";
import type { DocParagraph, DocTextRun } from "../types";

/** Character formatting of a piece (as read: bold, italics, underline, strike, superscript, subscript). */
export type RunFormat = Omit<DocTextRun, "text">;

/** A piece of a paragraph: text, or a tracked deletion/insertion; each with its formatting. */
export type DocRun = ({ text: string } | { deleted: string } | { inserted: string }) & { format?: RunFormat };

/** The docx package's run options of a format. */
function runOptions(format: RunFormat | undefined, italics: boolean) {
  return {
    ...(format?.bold ? { bold: true } : {}),
    ...(format?.italics || italics ? { italics: true } : {}),
    ...(format?.underline ? { underline: {} } : {}),
    ...(format?.strike ? { strike: true } : {}),
    ...(format?.vertAlign === "superscript" ? { superScript: true } : {}),
    ...(format?.vertAlign === "subscript" ? { subScript: true } : {}),
  };
}

export interface WritableParagraph {
  style: DocParagraph["style"];
  runs: DocRun[];
  /** A note paragraph (italic, e.g. the translation's "Machine translation, draft quality"). */
  note?: boolean;
}

export interface DocxProperties {
  creator: string;
  description: string;
  title?: string;
  /** Author and date of the tracked revisions (w:ins/w:del). */
  revisionAuthor?: string;
  revisionDate?: Date;
}

const HEADING: Partial<Record<DocParagraph["style"], (typeof HeadingLevel)[keyof typeof HeadingLevel]>> = {
  title: HeadingLevel.TITLE,
  heading1: HeadingLevel.HEADING_1,
  heading2: HeadingLevel.HEADING_2,
  heading3: HeadingLevel.HEADING_3,
};

/** Characters XML 1.0 cannot hold (control characters, lone surrogates, U+FFFE/U+FFFF): Word refuses such a file. */
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export const xmlSafe = (text: string) => text.replace(NOT_XML, "");

/** A .docx of the paragraphs (tracked runs become w:ins/w:del revisions). */
export async function writeDocx(paragraphs: readonly WritableParagraph[], props: DocxProperties): Promise<Buffer> {
  let revision = 1;
  const author = props.revisionAuthor ?? props.creator;
  // Word wants the revision date without milliseconds.
  const date = (props.revisionDate ?? new Date()).toISOString().replace(/\.\d{3}Z$/, "Z");
  const children = paragraphs.map((p) => {
    const runs = p.runs
      .filter((r) => ("text" in r ? r.text : "deleted" in r ? r.deleted : r.inserted) !== "")
      .map((r) => {
        const options = runOptions(r.format, p.note === true);
        if ("deleted" in r) return new DeletedTextRun({ ...options, text: xmlSafe(r.deleted), id: revision++, author, date });
        if ("inserted" in r) return new InsertedTextRun({ ...options, text: xmlSafe(r.inserted), id: revision++, author, date });
        return new TextRun({ ...options, text: xmlSafe(r.text) });
      });
    const heading = HEADING[p.style];
    return new Paragraph({
      children: runs,
      ...(heading ? { heading } : {}),
      ...(p.style === "listItem" ? { bullet: { level: 0 } } : {}),
      ...(p.note ? { alignment: AlignmentType.LEFT } : {}),
    });
  });
  const doc = new Document({
    creator: props.creator,
    description: props.description,
    title: props.title,
    sections: [{ children }],
  });
  return Packer.toBuffer(doc);
}

/** Plain paragraphs (no revisions). */
export const plainParagraphs = (paragraphs: readonly DocParagraph[]): WritableParagraph[] =>
  paragraphs.map((p) => ({ style: p.style, runs: [{ text: p.text }] }));

/** The formatted pieces of [from, to) of a paragraph (one plain piece when it has no runs). */
export function formattedSlice(paragraph: DocParagraph, from: number, to: number): Array<{ text: string; format?: RunFormat }> {
  if (to <= from) return [];
  if (!paragraph.runs) return [{ text: paragraph.text.slice(from, to) }];
  const out: Array<{ text: string; format?: RunFormat }> = [];
  let at = 0;
  for (const { text, ...format } of paragraph.runs) {
    const start = Math.max(from, at);
    const end = Math.min(to, at + text.length);
    if (start < end) out.push({ text: text.slice(start - at, end - at), format });
    at += text.length;
  }
  return out;
}
