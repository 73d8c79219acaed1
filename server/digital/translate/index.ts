// Offline translation (issue 24, ADR 072): a .doc/.docx in Spanish, Portuguese or Chinese → an English .docx
// that keeps the paragraphs and headings and starts with a note "Machine translation, draft quality".
// Engines: Apertium when installed (Spanish; Portuguese through Spanish); otherwise, and for Chinese, the
// sandbox — only in test mode (TRANSLATION_MODE=sandbox, like PAYMENTS_MODE: a missing setting never turns it
// on). In live mode with no engine, translationEngineFor answers null and the domain refuses or fails the item.
import type { TranslationLanguage } from "#common/digital/constants";
import { readDocument, wordsOf } from "../docx/read";
import { writeDocx, type WritableParagraph } from "../docx/write";
import { DigitalEngineError, type TranslationOutput } from "../types";
import { TRANSLATION_CREATOR, TRANSLATION_NOTE, type TranslationAdapter } from "./adapter";
import { apertiumAdapter } from "./apertium";
import { sandboxAdapter } from "./sandbox";

export { TRANSLATION_NOTE, type TranslationAdapter } from "./adapter";
export { apertiumInstallation } from "./apertium";
export { SANDBOX_MARK } from "./sandbox";

/**
 * The mode the caller reads from the environment (translationOptionsFromEnv): `sandbox` true only when
 * TRANSLATION_MODE=sandbox. `production` (NODE_ENV=production) changes nothing by itself: like the payment
 * sandboxes, an installation that explicitly asks for test mode gets it, and one that does not never does.
 */
export interface TranslationModeOptions {
  production?: boolean;
  sandbox?: boolean;
}

/** The options from the parsed environment (server/env.ts TRANSLATION_MODE). */
export const translationOptionsFromEnv = (env: { TRANSLATION_MODE: "live" | "sandbox"; NODE_ENV?: string }): TranslationModeOptions => ({
  production: env.NODE_ENV === "production",
  sandbox: env.TRANSLATION_MODE === "sandbox",
});

function adapterFor(language: TranslationLanguage, options?: TranslationModeOptions): TranslationAdapter | null {
  if (apertiumAdapter.supports(language)) return apertiumAdapter;
  if (options?.sandbox === true) return sandboxAdapter;
  return null;
}

/** Which engine would translate `language` now; null: none (the domain refuses the create / fails the item). */
export function translationEngineFor(language: TranslationLanguage, options?: TranslationModeOptions): "apertium" | "sandbox" | null {
  return adapterFor(language, options)?.name ?? null;
}

export async function translateDocument(
  filePath: string,
  ext: "doc" | "docx",
  language: TranslationLanguage,
  options?: TranslationModeOptions,
): Promise<TranslationOutput> {
  const adapter = adapterFor(language, options);
  if (!adapter) throw new DigitalEngineError("engine", `no translation engine for ${language} here`);
  const paragraphs = await readDocument(filePath, ext);
  const english = await adapter.translate(
    paragraphs.map((p) => p.text),
    language,
  );
  if (english.length !== paragraphs.length) throw new DigitalEngineError("engine", "the engine lost paragraphs");
  const note = TRANSLATION_NOTE[adapter.name];
  const out: WritableParagraph[] = [
    { style: "normal", note: true, runs: [{ text: note }] },
    ...paragraphs.map((p, i) => ({ style: p.style, runs: [{ text: english[i] }] })),
  ];
  const docx = await writeDocx(out, { creator: TRANSLATION_CREATOR, description: note });
  return { docx, engine: adapter.name, words: wordsOf(paragraphs) };
}

/** Words of a document, with the same reader as the translation (the word-limit check at create time). */
export async function countDocumentWords(filePath: string, ext: "doc" | "docx"): Promise<number> {
  return wordsOf(await readDocument(filePath, ext));
}
