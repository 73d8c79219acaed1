// The grammar engine's child process (ADR 069): harper.js (WebAssembly) and nspell live here and nowhere else,
// so the web process and the browser bundle never load them (~500 MB RSS, and linting blocks the event loop).
// Spawned by host.ts with an IPC channel; one request at a time:
//   { id, text, dialect: "american" | "british" } → { id, lints: RawLint[], rss, cpuMs } or { id, error }.
// Plain JavaScript so it runs under node directly (no tsx loader needed in the child).
import { Dialect, LocalLinter } from "harper.js";
import { binary } from "harper.js/binary";
import nspell from "nspell";

/** Suggestions kept per lint: the report shows the first usable one. */
const MAX_SUGGESTIONS = 5;

/** harper's SuggestionKind: Replace = 0, Remove = 1, InsertAfter = 2. */
function replacementOf(problem, suggestion) {
  const kind = suggestion.kind();
  const text = suggestion.get_replacement_text();
  if (kind === 1) return "";
  if (kind === 2) return problem + text;
  return text;
}

/**
 * Word-forming prefixes of scientific English. A word the dictionary lacks but which is one of these prefixes
 * followed by a dictionary word of four letters or more ("proinflammatory", "upregulated", "neuroinflammation")
 * is a compound of the trade, not a misspelling (ADR 069).
 */
const PREFIXES = (
  "anti auto bio co counter cyto de di down electro endo epi exo extra geo hemi hetero homo hydro hyper hypo " +
  "immuno infra inter intra iso macro meta micro mid mono multi nano neo neuro non over para peri photo poly post " +
  "pre pro pseudo psycho re semi sub super supra thermo trans tri ultra un under up"
)
  .split(" ")
  .sort((a, b) => b.length - a.length);

function knownStem(speller, word) {
  const lower = word.toLowerCase();
  for (const prefix of PREFIXES) {
    if (!lower.startsWith(prefix)) continue;
    const stem = lower.slice(prefix.length).replace(/^-/, "");
    if (stem.length >= 4 && speller.correct(stem)) return true;
  }
  return false;
}

const linters = new Map();
async function linterFor(dialect) {
  let linter = linters.get(dialect);
  if (!linter) {
    linter = new LocalLinter({ binary, dialect: dialect === "british" ? Dialect.British : Dialect.American });
    await linter.setup();
    // Long sentences (harper's Readability kind) are dropped by the category table anyway: not computed at all.
    await linter.setLintConfig({ ...(await linter.getLintConfig()), LongSentences: false });
    linters.set(dialect, linter);
  }
  return linter;
}

const spellers = new Map();
async function spellerFor(dialect) {
  let speller = spellers.get(dialect);
  if (!speller) {
    const dictionary = (await import(dialect === "british" ? "dictionary-en-gb" : "dictionary-en")).default;
    speller = nspell(dictionary);
    spellers.set(dialect, speller);
  }
  return speller;
}

async function lint(text, dialect) {
  const linter = await linterFor(dialect);
  const speller = await spellerFor(dialect);
  const lints = await linter.lint(text, { language: "plaintext" });
  const out = [];
  for (const lint of lints) {
    const span = lint.span();
    const kind = lint.lint_kind();
    const problem = text.slice(span.start, span.end);
    const replacements = lint
      .suggestions()
      .slice(0, MAX_SUGGESTIONS)
      .map((s) => replacementOf(problem, s));
    const item = { kind, start: span.start, end: span.end, message: lint.message(), replacements };
    if (kind === "Spelling" || kind === "Typo") {
      item.dictionaryWord = speller.correct(problem) || speller.correct(problem.toLowerCase());
      if (!item.dictionaryWord) item.knownStem = knownStem(speller, problem);
      // Automated proofreading (ADR 072) applies a spelling suggestion only when it is a dictionary word.
      item.replacementWords = replacements.map(
        (r) =>
          r.trim() !== "" &&
          r
            .trim()
            .split(/\s+/)
            .every((w) => speller.correct(w) || speller.correct(w.toLowerCase())),
      );
    }
    out.push(item);
    lint.free();
  }
  return out;
}

// One request at a time (the parent queues); answered in order.
process.on("message", async (message) => {
  const { id, text, dialect } = message;
  try {
    const cpu = process.cpuUsage();
    const lints = await lint(text, dialect);
    const used = process.cpuUsage(cpu);
    process.send({ id, lints, rss: process.memoryUsage().rss, cpuMs: (used.user + used.system) / 1000 });
  } catch (error) {
    process.send({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
// The parent went away (exit, crash, kill): so does the child, never an orphan holding 500 MB.
process.on("disconnect", () => process.exit(0));
