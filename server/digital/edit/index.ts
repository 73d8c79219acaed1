// Automated proofreading (issue 24, ADR 072): a .doc/.docx in, two .docx out.
//   read (server/digital/docx/read.ts) → the grammar engine's safe suggestions, paragraphs in batches, in the chosen style
//   of English (server/grammar-check: safeSuggestions) → write (server/digital/docx/write.ts):
//   (a) tracked: each change a w:del (the original) + w:ins (the replacement) by "Automated proofreading";
//   (b) clean: the changes applied, no revisions.
// No note is added to the text (the researcher's text stays theirs): the document properties say what made it.
import { dialectOfStyle, type StyleOfEnglish } from "#common/digital/constants";
import { safeSuggestions } from "../../grammar-check";
import { readDocument, wordsOf } from "../docx/read";
import { formattedSlice, writeDocx, type DocRun, type RunFormat, type WritableParagraph } from "../docx/write";
import { DigitalEngineError, type DocParagraph, type ProofreadChange, type ProofreadOutput } from "../types";

/** The author of the tracked revisions and the creator in the document properties. */
export const PROOFREADING_AUTHOR = "Automated proofreading";
export const PROOFREADING_DESCRIPTION =
  "Automated proofreading: spelling, spacing, repeated words and a few confused words (their/there, its/it's, than/then, affect/effect). Review every change.";

/**
 * Harper is given batches of paragraphs, one per line, of at most this many characters: a call costs about 60 ms
 * whatever its length (measured: 1,000 one-line paragraphs took 60 s one call each, 11 s in batches), so a document
 * of short paragraphs or table cells goes in a few calls. One newline, not a blank line, between paragraphs: harper
 * was up to 6× slower on blank-line-separated short lines (ADR 072). A paragraph longer than this is cut after a
 * sentence end.
 */
const MAX_CHUNK_CHARS = 20_000;
const PARAGRAPH_BREAK = "\n";

/** [start, end) pieces of a long paragraph, cut after a sentence end (or a space) before MAX_CHUNK_CHARS. */
function chunksOf(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let at = 0;
  while (text.length - at > MAX_CHUNK_CHARS) {
    const window = text.slice(at, at + MAX_CHUNK_CHARS);
    const sentence = Math.max(window.lastIndexOf(". "), window.lastIndexOf("? "), window.lastIndexOf("! "));
    const cut = sentence > MAX_CHUNK_CHARS / 2 ? sentence + 2 : Math.max(window.lastIndexOf(" ") + 1, 1);
    out.push([at, at + cut]);
    at += cut;
  }
  out.push([at, text.length]);
  return out;
}

interface Piece {
  paragraph: number;
  /** Where the piece starts in its paragraph, and in the batch's text. */
  from: number;
  at: number;
  text: string;
}

/** Pieces of the paragraphs with words, in batches of at most MAX_CHUNK_CHARS (with their separators). */
export function batchesOf(paragraphs: readonly DocParagraph[]): Piece[][] {
  const batches: Piece[][] = [];
  let batch: Piece[] = [];
  let size = 0;
  paragraphs.forEach((p, paragraph) => {
    if (!/[\p{L}\p{N}]/u.test(p.text)) return;
    for (const [from, to] of chunksOf(p.text)) {
      const text = p.text.slice(from, to);
      if (batch.length && size + PARAGRAPH_BREAK.length + text.length > MAX_CHUNK_CHARS) {
        batches.push(batch);
        batch = [];
        size = 0;
      }
      const at = batch.length ? size + PARAGRAPH_BREAK.length : 0;
      batch.push({ paragraph, from, at, text });
      size = at + text.length;
    }
  });
  if (batch.length) batches.push(batch);
  return batches;
}

/** The changes of one batch, back in their paragraphs (a suggestion across a paragraph break is dropped). */
async function changesOf(batch: readonly Piece[], dialect: "american" | "british"): Promise<ProofreadChange[]> {
  const text = batch.map((p) => p.text).join(PARAGRAPH_BREAK);
  const changes: ProofreadChange[] = [];
  for (const s of await safeSuggestions(text, dialect)) {
    const piece = batch.find((p) => s.start >= p.at && s.end <= p.at + p.text.length);
    if (!piece) continue;
    changes.push({
      paragraph: piece.paragraph,
      start: piece.from + s.start - piece.at,
      end: piece.from + s.end - piece.at,
      original: text.slice(s.start, s.end),
      replacement: s.replacement,
      rule: s.rule,
    });
  }
  return changes;
}

const sameFormat = (a?: RunFormat, b?: RunFormat) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

/**
 * The paragraph's runs with its changes as revisions (tracked) or applied (clean). The text outside the changes
 * keeps its formatting; a deletion keeps the formatting of what it deletes, an insertion takes the formatting of
 * the first character it replaces.
 */
export function runsWithChanges(paragraph: DocParagraph, changes: readonly ProofreadChange[], tracked: boolean): DocRun[] {
  const runs: DocRun[] = [];
  const push = (run: DocRun) => {
    const last = runs.at(-1);
    if ("text" in run && run.text === "") return;
    if (last && "text" in last && "text" in run && sameFormat(last.format, run.format)) last.text += run.text;
    else runs.push(run);
  };
  const plain = (from: number, to: number) => formattedSlice(paragraph, from, to).forEach((piece) => push(piece));
  let at = 0;
  for (const c of changes) {
    plain(at, c.start);
    const replaced = formattedSlice(paragraph, c.start, c.end);
    const format = replaced[0]?.format;
    if (tracked) {
      for (const piece of replaced) push({ deleted: piece.text, ...(piece.format ? { format: piece.format } : {}) });
      if (c.replacement) push({ inserted: c.replacement, ...(format ? { format } : {}) });
    } else push({ text: c.replacement, ...(format ? { format } : {}) });
    at = c.end;
  }
  plain(at, paragraph.text.length);
  return runs;
}

/** Both documents of proofread paragraphs (exported for the unit tests of the writer). */
export async function writeProofread(
  paragraphs: readonly DocParagraph[],
  changes: readonly ProofreadChange[],
  date = new Date(),
): Promise<{ tracked: Buffer; clean: Buffer }> {
  const byParagraph = new Map<number, ProofreadChange[]>();
  for (const c of changes) byParagraph.set(c.paragraph, [...(byParagraph.get(c.paragraph) ?? []), c]);
  const build = (tracked: boolean): WritableParagraph[] =>
    paragraphs.map((p, i) => ({
      style: p.style,
      runs: runsWithChanges(
        p,
        (byParagraph.get(i) ?? []).sort((a, b) => a.start - b.start),
        tracked,
      ),
    }));
  const props = {
    creator: PROOFREADING_AUTHOR,
    description: PROOFREADING_DESCRIPTION,
    revisionAuthor: PROOFREADING_AUTHOR,
    revisionDate: date,
  };
  const [tracked, clean] = await Promise.all([writeDocx(build(true), props), writeDocx(build(false), props)]);
  return { tracked, clean };
}

export async function proofreadDocument(filePath: string, ext: "doc" | "docx", style: StyleOfEnglish): Promise<ProofreadOutput> {
  const paragraphs = await readDocument(filePath, ext);
  const dialect = dialectOfStyle(style);
  const changes: ProofreadChange[] = [];
  try {
    for (const batch of batchesOf(paragraphs)) changes.push(...(await changesOf(batch, dialect)));
  } catch (error) {
    if (error instanceof DigitalEngineError) throw error;
    const message = (error as Error).message ?? String(error);
    throw new DigitalEngineError(/took longer/.test(message) ? "timeout" : "engine", message);
  }
  const { tracked, clean } = await writeProofread(paragraphs, changes);
  return { tracked, clean, changes, words: wordsOf(paragraphs) };
}
