// Word counts and language detection over extracted text, and the plain-text readers for RTF and
// LaTeX. Pure functions: no database, no files.
import { detectAll } from "tinyld";

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3005\u30fc\uff70]/gu;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}\u30fc\uff70]/gu;
const HANGUL = /\p{Script=Hangul}/gu;
/** A word: letters, marks and digits, joined by apostrophes, hyphens or dots inside it (don't, state-of-the-art, 3.14, e.g). */
const WORD = /[\p{L}\p{M}\p{N}]+(?:['’.\-‐‑][\p{L}\p{M}\p{N}]+)*/gu;

/**
 * Words as editing services count them: Chinese and Japanese characters (Han, kana) one per
 * character; everything else (Latin, Cyrillic, Korean…) by runs of letters and digits between
 * spaces and punctuation. Punctuation alone is not a word.
 */
export function countWords(text: string): number {
  let cjk = 0;
  const rest = text.replace(CJK_CHAR, () => {
    cjk++;
    return " ";
  });
  return cjk + (rest.match(WORD)?.length ?? 0);
}

/** Below this many words (CJK characters count one each) the language is not guessed. */
export const MIN_WORDS_FOR_LANGUAGE = 20;
const MIN_CONFIDENCE = 0.5;
const SAMPLE_CHARS = 20_000;

/**
 * ISO 639-1 code of the text's language, or null when unsure (too short, no clear winner).
 * Chinese, Japanese and Korean are told apart by script, which is more reliable than n-grams
 * (Japanese text without kana is rare; Chinese has none); other languages by tinyld.
 */
export function detectLanguage(text: string): string | null {
  const sample = sampleOf(text);
  if (countWords(sample) < MIN_WORDS_FOR_LANGUAGE) return null;
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  if (letters === 0) return null;
  const cjk = sample.match(CJK_CHAR)?.length ?? 0;
  const kana = sample.match(KANA)?.length ?? 0;
  const hangul = sample.match(HANGUL)?.length ?? 0;
  if (hangul / letters > 0.3) return "ko";
  // In a CJK manuscript most letters are CJK characters; English names and terms are common too.
  if (cjk / letters > 0.3) return kana / cjk > 0.05 ? "ja" : "zh";
  const best = detectAll(sample.replace(CJK_CHAR, " "))[0];
  if (!best || best.accuracy < MIN_CONFIDENCE) return null;
  return best.lang;
}

/** Up to SAMPLE_CHARS from the middle of the text (titles and front matter are often in English). */
function sampleOf(text: string): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= SAMPLE_CHARS) return clean;
  const start = Math.floor((clean.length - SAMPLE_CHARS) / 2);
  return clean.slice(start, start + SAMPLE_CHARS);
}

// RTF destinations whose content is not document text.
const SKIP_DESTINATIONS = new Set([
  "fonttbl",
  "colortbl",
  "stylesheet",
  "info",
  "pict",
  "object",
  "header",
  "footer",
  "headerl",
  "headerr",
  "headerf",
  "footerl",
  "footerr",
  "footerf",
  "listtable",
  "listoverridetable",
  "revtbl",
  "rsidtbl",
  "generator",
  "xmlnstbl",
  "mmathPr",
  "themedata",
  "colorschememapping",
  "latentstyles",
  "datastore",
  "filetbl",
  "pgdsctbl",
  "fldinst",
  "bkmkstart",
  "bkmkend",
  "field_instructions",
  "nonshppict",
  "shppict",
  "blipuid",
  "protusertbl",
  "userprops",
]);

const CODE_PAGES: Record<number, string> = { 932: "shift_jis", 936: "gbk", 949: "euc-kr", 950: "big5", 65001: "utf-8" };

function decoderFor(codePage: number): TextDecoder {
  try {
    return new TextDecoder(CODE_PAGES[codePage] ?? `windows-${codePage}`);
  } catch {
    return new TextDecoder("windows-1252");
  }
}

/** The text of an RTF document: control words and non-text destinations stripped, escapes decoded. */
export function rtfToText(rtf: string): string {
  const out: string[] = [];
  // Per group: skipping this destination? characters to drop after \uN (\ucN).
  const stack: { skip: boolean; uc: number }[] = [];
  let state = { skip: false, uc: 1 };
  let pendingSkip = 0;
  let bytes: number[] = [];
  let decoder = decoderFor(1252);
  const flushBytes = () => {
    if (bytes.length) {
      if (!state.skip) out.push(decoder.decode(Uint8Array.from(bytes)));
      bytes = [];
    }
  };
  const emit = (s: string) => {
    flushBytes();
    if (!state.skip) out.push(s);
  };
  let i = 0;
  const n = rtf.length;
  while (i < n) {
    const c = rtf[i];
    if (c === "{") {
      flushBytes();
      stack.push(state);
      state = { ...state };
      i++;
      // {\*\dest …} is an optional destination: ignorable when unknown, so skip it.
      if (rtf.startsWith("\\*", i)) state.skip = true;
      continue;
    }
    if (c === "}") {
      flushBytes();
      state = stack.pop() ?? { skip: false, uc: 1 };
      i++;
      continue;
    }
    if (c === "\\") {
      const next = rtf[i + 1];
      if (next === undefined) break;
      if (next === "'") {
        const hex = rtf.slice(i + 2, i + 4);
        i += 4;
        if (pendingSkip > 0) {
          pendingSkip--;
          continue;
        }
        const value = parseInt(hex, 16);
        if (!Number.isNaN(value)) bytes.push(value);
        continue;
      }
      if (!/[a-zA-Z]/.test(next)) {
        // Control symbols: escaped characters and a few special spaces.
        i += 2;
        if (next === "\\" || next === "{" || next === "}") emit(next);
        else if (next === "~") emit("\u00a0");
        else if (next === "_") emit("-");
        else if (next === "\n" || next === "\r") emit("\n");
        continue;
      }
      const m = /^([a-zA-Z]{1,32})(-?\d{1,10})? ?/.exec(rtf.slice(i + 1, i + 48));
      if (!m) {
        i++;
        continue;
      }
      i += 1 + m[0].length;
      const word = m[1];
      const param = m[2] === undefined ? undefined : Number(m[2]);
      if (SKIP_DESTINATIONS.has(word)) {
        flushBytes();
        state.skip = true;
        continue;
      }
      switch (word) {
        case "par":
        case "line":
        case "sect":
        case "page":
        case "row":
          emit("\n");
          break;
        case "tab":
        case "cell":
          emit("\t");
          break;
        case "emdash":
          emit("—");
          break;
        case "endash":
          emit("–");
          break;
        case "lquote":
          emit("‘");
          break;
        case "rquote":
          emit("’");
          break;
        case "ldblquote":
          emit("“");
          break;
        case "rdblquote":
          emit("”");
          break;
        case "bullet":
          emit("•");
          break;
        case "ansicpg":
          if (param) decoder = decoderFor(param);
          break;
        case "uc":
          state.uc = param ?? 1;
          break;
        case "u": {
          if (param !== undefined) emit(String.fromCharCode(param < 0 ? param + 65536 : param));
          pendingSkip = state.uc;
          break;
        }
        default:
          break;
      }
      continue;
    }
    if (c === "\r" || c === "\n") {
      i++;
      continue;
    }
    i++;
    if (pendingSkip > 0) {
      pendingSkip--;
      continue;
    }
    emit(c);
  }
  flushBytes();
  return out.join("").replace(/[ \t]+\n/g, "\n");
}

/** Rough plain text of a LaTeX source: comments, commands and math markers removed, arguments kept. */
export function texToText(tex: string): string {
  return tex
    .replace(/(^|[^\\])%.*$/gm, "$1")
    .replace(/\\begin\{(?:equation|align|figure|table|tabular|thebibliography)\*?\}[\s\S]*?\\end\{[^}]*\}/g, " ")
    .replace(
      /\\(?:documentclass|usepackage|label|ref|cite|eqref|includegraphics|bibliographystyle|bibliography)(?:\[[^\]]*\])?\{[^}]*\}/g,
      " ",
    )
    .replace(/\\[a-zA-Z@]+\*?(?:\[[^\]]*\])?/g, " ")
    .replace(/\$[^$]*\$/g, " ")
    .replace(/[{}\\~^_&]/g, " ");
}
