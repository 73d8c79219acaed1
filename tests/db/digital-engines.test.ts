// The digital engines for real (issue 24, ADR 072): automated proofreading through harper's child process, and
// translation through Apertium (Spanish; Portuguese via Spanish) or the labelled sandbox (Chinese). In the db
// lane because they are slow (harper's first lint takes seconds); they need no database. Apertium is installed
// by scripts/setup-apertium.sh: in CI (CI=true) its absence FAILS this file; elsewhere the translation tests
// check the behaviour without it (live mode refuses, the sandbox translates) instead of being skipped.
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from "docx";
import { listZipEntries, readZipEntry } from "../../server/documents/containers";
import { readDocument } from "../../server/digital/docx/read";
import { proofreadDocument, PROOFREADING_AUTHOR } from "../../server/digital/edit";
import {
  countDocumentWords,
  SANDBOX_MARK,
  TRANSLATION_NOTE,
  translateDocument,
  translationEngineFor,
  translationOptionsFromEnv,
} from "../../server/digital/translate";
import { apertiumAdapter, APERTIUM_LIMITS } from "../../server/digital/translate/apertium";
import { DigitalEngineError } from "../../server/digital/types";
import { stopEngine, warmEngine } from "../../server/grammar-check/engine";
import { readEnv } from "../../server/env";
import { makeDoc } from "../helpers/fixtures";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "digital-engines-"));
let n = 0;
async function docxFile(paragraphs: Array<[HeadingLevel_ | null, string]>): Promise<string> {
  const doc = new Document({
    sections: [
      {
        children: paragraphs.map(
          ([heading, text]) => new Paragraph({ ...(heading ? { heading: HeadingLevel[heading] } : {}), children: [new TextRun(text)] }),
        ),
      },
    ],
  });
  const file = path.join(dir, `f${n++}.docx`);
  await fsp.writeFile(file, await Packer.toBuffer(doc));
  return file;
}
type HeadingLevel_ = "TITLE" | "HEADING_1" | "HEADING_2";

async function documentXml(docx: Buffer): Promise<string> {
  const file = path.join(dir, `out${n++}.docx`);
  await fsp.writeFile(file, docx);
  const fh = await fsp.open(file, "r");
  try {
    const entry = (await listZipEntries(fh, (await fh.stat()).size))!.find((e) => e.name === "word/document.xml")!;
    return (await readZipEntry(fh, entry, 32 * 1024 * 1024))!.toString("utf8");
  } finally {
    await fh.close();
  }
}
const revisions = (xml: string) =>
  [...xml.matchAll(/<w:(ins|del) [^>]*>([\s\S]*?)<\/w:\1>/g)].map((m) => ({
    kind: m[1],
    text: [...m[2].matchAll(/<w:(?:t|delText)[^>]*>([^<]*)</g)].map((t) => t[1]).join(""),
  }));
const reasonOf = (p: Promise<unknown>) =>
  p.then(
    () => "done",
    (e: unknown) => (e instanceof DigitalEngineError ? e.reason : String(e)),
  );

const CLEAN =
  "The observations of the thermal radio emission of the moon are consistent with a very low thermal conductivity " +
  "of the surface layer. When sufficiently accurate and complete measurements are available, it will be possible to " +
  "set limits on the thermal and electrical characteristics of the surface materials.";

afterAll(() => {
  stopEngine();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("automated proofreading (harper)", () => {
  beforeAll(async () => {
    await warmEngine();
  }, 60_000);

  it("fixes the planted errors as tracked revisions, never splits a word, and writes a clean copy", async () => {
    const file = await docxFile([
      ["TITLE", "Thermal emission of the moon"],
      ["HEADING_1", "Methods"],
      [null, "Teh samples were dried and weighed. We measured a a second sample. The results , however, were clear."],
      [null, "Their is no evidence that the corelation changed the absorption."],
      [null, CLEAN],
    ]);
    const out = await proofreadDocument(file, "docx", "American English");
    const xml = await documentXml(out.tracked);
    const found = revisions(xml);
    // Each planted error: its deletion, followed by the insertion that fixes it (a removed space has none).
    const pairs: Array<[string, string | null]> = [
      ["Teh", "The"],
      ["a a", "a"],
      [" ", null],
      ["Their", "There"],
    ];
    let at = 0;
    for (const [deleted, inserted] of pairs) {
      const i = found.findIndex((r, k) => k >= at && r.kind === "del" && r.text === deleted);
      expect(i, deleted).toBeGreaterThanOrEqual(0);
      if (inserted !== null) expect(found[i + 1]).toEqual({ kind: "ins", text: inserted });
      at = i + 1;
    }
    expect(out.changes.map((c) => [c.original, c.replacement, c.rule])).toEqual([
      ["Teh", "The", "spelling"],
      ["a a", "a", "repeated-word"],
      [" ", "", "punctuation"],
      ["Their", "There", "word-choice"],
    ]);
    // No word split: "corelation" is left alone (harper suggests "co relation"), and no insertion adds a space or
    // hyphen to a one-word original.
    expect(xml).not.toMatch(/co relation/);
    for (const c of out.changes) if (!/[\s-]/.test(c.original)) expect(c.replacement).not.toMatch(/[\s-]/);
    expect(xml).toMatch(new RegExp(`w:author="${PROOFREADING_AUTHOR}"`));
    // Headings kept, clean copy has the fixes and no revisions.
    expect(xml).toContain('<w:pStyle w:val="Title"/>');
    expect(xml).toContain('<w:pStyle w:val="Heading1"/>');
    expect(await documentXml(out.clean)).not.toMatch(/<w:ins\b|<w:del\b/);
    const cleanFile = path.join(dir, "clean.docx");
    await fsp.writeFile(cleanFile, out.clean);
    expect(await readDocument(cleanFile, "docx")).toEqual([
      { style: "title", text: "Thermal emission of the moon" },
      { style: "heading1", text: "Methods" },
      { style: "normal", text: "The samples were dried and weighed. We measured a second sample. The results, however, were clear." },
      { style: "normal", text: "There is no evidence that the corelation changed the absorption." },
      { style: "normal", text: CLEAN },
    ]);
    expect(out.words).toBeGreaterThan(60);
  });

  it("checks in the chosen style of English: British spelling is not 'corrected' in a British document", async () => {
    const file = await docxFile([[null, "The organisation analysed the colour of the tumour at the centre of the sample."]]);
    const out = await proofreadDocument(file, "docx", "British English");
    expect(out.changes).toEqual([]);
    expect(revisions(await documentXml(out.tracked))).toEqual([]);
  });

  it("proofreads a .doc (paragraphs without styles)", async () => {
    const file = path.join(dir, "planted.doc");
    await fsp.writeFile(file, makeDoc("We measured a a second sample.\nThe results were clear."));
    const out = await proofreadDocument(file, "doc", "American English");
    expect(out.changes.map((c) => [c.original, c.replacement])).toEqual([["a a", "a"]]);
  });

  it("fails an unreadable file with DigitalEngineError('unreadable')", async () => {
    const file = path.join(dir, "junk.docx");
    await fsp.writeFile(file, "this is not a word document");
    expect(await reasonOf(proofreadDocument(file, "docx", "American English"))).toBe("unreadable");
  });
});

describe("translation engines", () => {
  const installed = apertiumAdapter.supports("es_ES") && apertiumAdapter.supports("pt_BR");
  const live = translationOptionsFromEnv(readEnv({ DATA_DIR: ".tmp/test-data" }));
  const sandbox = translationOptionsFromEnv(readEnv({ DATA_DIR: ".tmp/test-data", TRANSLATION_MODE: "sandbox" }));

  it("Apertium is installed where CI runs (scripts/setup-apertium.sh); without CI its absence is reported", () => {
    if (process.env.CI === "true") expect(installed, "Apertium (apertium-eng-spa, apertium-es-pt) must be installed in CI").toBe(true);
    expect(translationEngineFor("es_ES", live)).toBe(installed ? "apertium" : null);
  });

  it("TRANSLATION_MODE defaults to live: Chinese has no engine there; sandbox mode gives the sandbox", async () => {
    expect(live.sandbox).toBe(false);
    expect(sandbox.sandbox).toBe(true);
    expect(translationEngineFor("zh_CN", live)).toBeNull();
    expect(translationEngineFor("zh_CN")).toBeNull();
    expect(translationEngineFor("zh_CN", sandbox)).toBe("sandbox");
    const file = await docxFile([[null, "研究结果表明治疗有影响。"]]);
    expect(await reasonOf(translateDocument(file, "docx", "zh_CN", live))).toBe("engine");
  });

  it("translates a Spanish .docx into English, keeping paragraphs and headings, under the draft-quality note", async () => {
    const file = await docxFile([
      ["HEADING_1", "Introducción"],
      [null, "Los resultados de este estudio son importantes para la comunidad científica."],
      [null, ""],
      [null, "Se midieron las muestras de los pacientes y los datos fueron analizados."],
    ]);
    const out = await translateDocument(file, "docx", "es_ES", sandbox);
    const outFile = path.join(dir, "es-en.docx");
    await fsp.writeFile(outFile, out.docx);
    const paragraphs = await readDocument(outFile, "docx");
    expect(out.words).toBe(24);
    expect(paragraphs).toHaveLength(5);
    expect(paragraphs.map((p) => p.style)).toEqual(["normal", "heading1", "normal", "normal", "normal"]);
    expect(paragraphs[3].text).toBe("");
    if (installed) {
      expect(out.engine).toBe("apertium");
      expect(paragraphs[0].text).toBe(TRANSLATION_NOTE.apertium);
      expect(paragraphs[0].text).toMatch(/^Machine translation, draft quality/);
      expect(paragraphs[1].text).toBe("Introduction");
      const english = `${paragraphs[2].text} ${paragraphs[4].text}`.toLowerCase().split(/\W+/);
      for (const word of ["the", "of", "results", "this", "important", "scientific", "patients", "data"]) expect(english).toContain(word);
      expect(paragraphs[2].text).not.toContain("*");
    } else {
      expect(out.engine).toBe("sandbox");
      expect(paragraphs[0].text).toBe(TRANSLATION_NOTE.sandbox);
    }
  });

  it("translates Portuguese through Spanish (pt-es, then spa-eng), a .doc too", async () => {
    const file = path.join(dir, "pt.doc");
    await fsp.writeFile(file, makeDoc("Os resultados deste estudo são importantes.\nAs amostras dos pacientes foram medidas."));
    const out = await translateDocument(file, "doc", "pt_BR", sandbox);
    const outFile = path.join(dir, "pt-en.docx");
    await fsp.writeFile(outFile, out.docx);
    const texts = (await readDocument(outFile, "docx")).map((p) => p.text).filter(Boolean);
    if (installed) {
      expect(out.engine).toBe("apertium");
      expect(texts[1]).toMatch(/^The results of this \w+ are important\.$/);
      expect(texts[2]).toMatch(/samples of the patients were measured/);
    } else expect(out.engine).toBe("sandbox");
  });

  it("Chinese goes to the sandbox, labelled TEST MODE at the top of the file and on every paragraph", async () => {
    const file = await docxFile([
      ["HEADING_1", "摘要"],
      [null, "我们的研究结果表明治疗有影响。"],
    ]);
    const out = await translateDocument(file, "docx", "zh_CN", sandbox);
    expect(out.engine).toBe("sandbox");
    const outFile = path.join(dir, "zh-en.docx");
    await fsp.writeFile(outFile, out.docx);
    const paragraphs = await readDocument(outFile, "docx");
    expect(paragraphs[0].text).toMatch(/^TEST MODE — sandbox translation, not a real translation/);
    expect(paragraphs.slice(1)).toEqual([
      { style: "heading1", text: `${SANDBOX_MARK} abstract` },
      { style: "normal", text: `${SANDBOX_MARK} we of research results indicate treatment have effect.` },
    ]);
    expect(await countDocumentWords(file, "docx")).toBe(out.words);
  });

  it("a call past its time limit is killed and fails with DigitalEngineError('timeout')", async () => {
    const file = await docxFile([[null, "Los resultados de este estudio son importantes."]]);
    const saved = { ...APERTIUM_LIMITS };
    APERTIUM_LIMITS.callTimeoutMs = 1;
    APERTIUM_LIMITS.msPer1000Chars = 0;
    try {
      expect(await reasonOf(translateDocument(file, "docx", "es_ES", live))).toBe(installed ? "timeout" : "engine");
    } finally {
      Object.assign(APERTIUM_LIMITS, saved);
    }
  });

  it("counts the words of a document with the same reader (the word limit at create time)", async () => {
    const file = await docxFile([
      ["TITLE", "Título del trabajo"],
      [null, "Uno dos tres cuatro cinco."],
    ]);
    expect(await countDocumentWords(file, "docx")).toBe(8);
  });
});
