// The translation adapter (issue 24, ADR 072): what an engine does, paragraph for paragraph.
import type { TranslationLanguage } from "#common/digital/constants";

export interface TranslationAdapter {
  name: "apertium" | "sandbox";
  /** Can translate this language into English here. */
  supports(language: TranslationLanguage): boolean;
  /**
   * The English of each paragraph, in order (as many out as in; an empty paragraph stays empty). Rejects with a
   * DigitalEngineError ("timeout" when past its time limit, "engine" otherwise).
   */
  translate(paragraphs: readonly string[], from: TranslationLanguage): Promise<string[]>;
}

/** The note that starts every translated document (the file is an English document: English only). */
export const TRANSLATION_NOTE = {
  apertium: "Machine translation, draft quality (Apertium, offline). Review it before use.",
  sandbox: "TEST MODE — sandbox translation, not a real translation. Machine translation, draft quality (sandbox).",
} as const;
/** The document properties of a translated document. */
export const TRANSLATION_CREATOR = "Digital translation";
