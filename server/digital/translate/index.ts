// Offline translation (issue 24, ADR 072): a .doc/.docx in Spanish, Portuguese or Chinese → an English .docx.
import type { TranslationLanguage } from "#common/digital/constants";
import { DigitalEngineError, type TranslationOutput } from "../types";

/**
 * The mode the caller reads from the environment: `sandbox` true only when TRANSLATION_MODE=sandbox (test mode).
 * In live mode the sandbox is never used. `production` is informative (NODE_ENV=production).
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

/** Which engine would translate `language` now; null: none (the domain refuses the create / fails the item). */
export function translationEngineFor(language: TranslationLanguage, options?: TranslationModeOptions): "apertium" | "sandbox" | null {
  void language;
  void options;
  return null;
}

export async function translateDocument(
  filePath: string,
  ext: "doc" | "docx",
  language: TranslationLanguage,
  options?: TranslationModeOptions,
): Promise<TranslationOutput> {
  void filePath;
  void ext;
  void language;
  void options;
  throw new DigitalEngineError("engine", "not built yet");
}

/** Words of a document, with the same reader as the translation (the word-limit check at create time). */
export async function countDocumentWords(filePath: string, ext: "doc" | "docx"): Promise<number> {
  void filePath;
  void ext;
  throw new DigitalEngineError("engine", "not built yet");
}
