// Writing paragraphs back into a .docx with the `docx` package (issue 24, ADR 072): paragraph order, headings
// (HeadingLevel: title, heading 1–3), list items (bullets) and every run of text kept; a change can be written as
// a tracked revision (w:del of the original, w:ins of the replacement, each with an author and a date).
import { AlignmentType, DeletedTextRun, Document, HeadingLevel, InsertedTextRun, Packer, Paragraph, TextRun } from "docx";
import type { DocParagraph } from "../types";

/** A piece of a paragraph: plain text, or a tracked deletion/insertion. */
export type DocRun = { text: string } | { deleted: string } | { inserted: string };

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
        if ("deleted" in r) return new DeletedTextRun({ text: r.deleted, id: revision++, author, date });
        if ("inserted" in r) return new InsertedTextRun({ text: r.inserted, id: revision++, author, date });
        return new TextRun({ text: r.text, italics: p.note || undefined });
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
