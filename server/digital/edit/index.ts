// Automated proofreading (issue 24, ADR 072): a .doc/.docx in, two .docx out.
//   read (server/digital/docx/read.ts) → per paragraph the grammar engine's safe suggestions in the chosen style
//   of English (server/grammar-check: safeSuggestions) → write (server/digital/docx/write.ts):
//   (a) tracked: each change a w:del (the original) + w:ins (the replacement) by "Automated proofreading";
//   (b) clean: the changes applied, no revisions.
// No note is added to the text (the researcher's text stays theirs): the document properties say what made it.
import { dialectOfStyle, type StyleOfEnglish } from "#common/digital/constants";
import { safeSuggestions } from "../../grammar-check";
import { readDocument, wordsOf } from "../docx/read";
import { writeDocx, type DocRun, type WritableParagraph } from "../docx/write";
import { DigitalEngineError, type DocParagraph, type ProofreadChange, type ProofreadOutput } from "../types";

/** The author of the tracked revisions and the creator in the document properties. */
export const PROOFREADING_AUTHOR = "Automated proofreading";
export const PROOFREADING_DESCRIPTION =
  "Automated proofreading: spelling, spacing, repeated words and a few confused words (their/there, its/it's, than/then, affect/effect). Review every change.";

/** Harper is given paragraphs of at most this many characters at a time (a paragraph longer is split at a sentence end). */
const MAX_CHUNK_CHARS = 20_000;

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

/** The changes of one paragraph (offsets in the paragraph's text). */
async function changesOf(text: string, paragraph: number, dialect: "american" | "british"): Promise<ProofreadChange[]> {
  const changes: ProofreadChange[] = [];
  for (const [from, to] of chunksOf(text)) {
    for (const s of await safeSuggestions(text.slice(from, to), dialect))
      changes.push({
        paragraph,
        start: from + s.start,
        end: from + s.end,
        original: text.slice(from + s.start, from + s.end),
        replacement: s.replacement,
        rule: s.rule,
      });
  }
  return changes;
}

/** The paragraph's runs with its changes as revisions (tracked) or applied (clean). */
export function runsWithChanges(text: string, changes: readonly ProofreadChange[], tracked: boolean): DocRun[] {
  const runs: DocRun[] = [];
  let at = 0;
  let plain = "";
  for (const c of changes) {
    plain += text.slice(at, c.start);
    if (tracked) {
      runs.push({ text: plain });
      plain = "";
      if (c.original) runs.push({ deleted: c.original });
      if (c.replacement) runs.push({ inserted: c.replacement });
    } else plain += c.replacement;
    at = c.end;
  }
  runs.push({ text: plain + text.slice(at) });
  return runs.filter((r) => !("text" in r) || r.text !== "");
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
        p.text,
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
    for (let i = 0; i < paragraphs.length; i++) {
      if (/[\p{L}\p{N}]/u.test(paragraphs[i].text)) changes.push(...(await changesOf(paragraphs[i].text, i, dialect)));
    }
  } catch (error) {
    if (error instanceof DigitalEngineError) throw error;
    const message = (error as Error).message ?? String(error);
    throw new DigitalEngineError(/took longer/.test(message) ? "timeout" : "engine", message);
  }
  const { tracked, clean } = await writeProofread(paragraphs, changes);
  return { tracked, clean, changes, words: wordsOf(paragraphs) };
}
