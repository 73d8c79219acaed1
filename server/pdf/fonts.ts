// Fonts for every PDF the portal writes (ADR 007). Noto Sans CJK (OTF) from two npm packages, so a
// fresh `npm ci` renders every site language: Simplified Chinese (`@embedpdf/fonts-sc`, which also
// covers Latin with Portuguese and Spanish accents, kana and most kanji) and Japanese
// (`@embedpdf/fonts-jp`, Japanese glyph forms). pdfkit embeds only the glyphs a document uses.
//
// Each string is set in the document language's font when that font has all its characters, else in
// the other family when that one does (a Chinese customer name in a Japanese quote, a Japanese
// institution in an English one), else in whichever covers more.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import * as fontkit from "fontkit";
import type { SiteLang } from "#common/i18n";

export type FontFamily = "sc" | "jp";
export type FontWeight = "regular" | "bold";

const require = createRequire(import.meta.url);

const PACKAGES: Record<FontFamily, { pkg: string; files: Record<FontWeight, string> }> = {
  sc: { pkg: "@embedpdf/fonts-sc", files: { regular: "NotoSansHans-Regular.otf", bold: "NotoSansHans-Bold.otf" } },
  jp: { pkg: "@embedpdf/fonts-jp", files: { regular: "NotoSansJP-Regular.otf", bold: "NotoSansJP-Bold.otf" } },
};

/** Absolute path of a font file (the packages export only their index, in dist/, beside fonts/). */
export function fontPath(family: FontFamily, weight: FontWeight): string {
  const { pkg, files } = PACKAGES[family];
  const entry = require.resolve(pkg);
  return path.join(path.dirname(entry), "..", "fonts", files[weight]);
}

// Font files are immutable: read each at most once per process (4–9 MB each, only when first used).
const buffers = new Map<string, Buffer>();
const parsed = new Map<FontFamily, fontkit.Font>();

export function fontBuffer(family: FontFamily, weight: FontWeight): Buffer {
  const key = `${family}-${weight}`;
  let buf = buffers.get(key);
  if (!buf) {
    buf = fs.readFileSync(fontPath(family, weight));
    buffers.set(key, buf);
  }
  return buf;
}

function coverageFont(family: FontFamily): fontkit.Font {
  let font = parsed.get(family);
  if (!font) {
    font = fontkit.create(fontBuffer(family, "regular"));
    parsed.set(family, font);
  }
  return font;
}

/** The font families of a document language, preferred first. */
export function familiesFor(lang: SiteLang): FontFamily[] {
  return lang === "jp" ? ["jp", "sc"] : ["sc", "jp"];
}

/** Number of characters of `text` (ignoring whitespace and controls) the family has no glyph for. */
export function missingGlyphs(text: string, family: FontFamily): number {
  const font = coverageFont(family);
  let missing = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp <= 0x20 || (cp >= 0x7f && cp <= 0xa0) || /\s/.test(ch)) continue;
    if (!font.hasGlyphForCodePoint(cp)) missing++;
  }
  return missing;
}

/** The first family (in preference order) that has every character of `text`, else the one missing fewest. */
export function pickFamily(text: string, families: readonly FontFamily[]): FontFamily {
  let best = families[0];
  let bestMissing = Infinity;
  for (const family of families) {
    const missing = missingGlyphs(text, family);
    if (missing === 0) return family;
    if (missing < bestMissing) {
      best = family;
      bestMissing = missing;
    }
  }
  return best;
}

/**
 * Replaces the typographic spaces the Noto CJK fonts have no glyph for (Intl writes "p. m." with a
 * narrow no-break space, U+202F): no-break ones by U+00A0, the others by a plain space; zero-width
 * characters go.
 */
export function normalizeSpaces(text: string): string {
  return text
    .replace(/[\u202F\u2007]/g, "\u00A0")
    .replace(/[\u2000-\u2006\u2008-\u200A\u205F]/g, " ")
    .replace(/[\u200B\u2060\uFEFF]/g, "");
}
