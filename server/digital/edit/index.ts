// Automated proofreading (issue 24, ADR 072): a .doc/.docx in, two .docx out (tracked revisions and clean).
import type { StyleOfEnglish } from "#common/digital/constants";
import { DigitalEngineError, type ProofreadOutput } from "../types";

export async function proofreadDocument(filePath: string, ext: "doc" | "docx", style: StyleOfEnglish): Promise<ProofreadOutput> {
  void filePath;
  void ext;
  void style;
  throw new DigitalEngineError("engine", "not built yet");
}
