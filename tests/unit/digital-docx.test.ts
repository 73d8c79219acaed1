// Digital engines without the engines (issue 24, ADR 072): the .docx writer (tracked revisions and clean copy,
// read back with the documents area's zip helpers), the reader (.docx styles, revisions, .doc), the choice of
// safe suggestions from planted lints, and the sandbox translator.
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from "docx";
import { listZipEntries, readZipEntry } from "../../server/documents/containers";
import { paragraphsOfDocumentXml, readDocument, styleNames } from "../../server/digital/docx/read";
import { batchesOf, PROOFREADING_AUTHOR, runsWithChanges, writeProofread } from "../../server/digital/edit";
import { SANDBOX_MARK, sandboxTranslate } from "../../server/digital/translate/sandbox";
import { applySuggestions, selectSafe } from "../../server/grammar-check/engine/suggest";
import type { RawLint } from "../../server/grammar-check/engine/report";
import { DigitalEngineError, type DocParagraph, type ProofreadChange } from "../../server/digital/types";
import { makeDoc } from "../helpers/fixtures";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "digital-docx-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
async function saved(buffer: Buffer, ext = "docx"): Promise<string> {
  const file = path.join(dir, `f${n++}.${ext}`);
  await fsp.writeFile(file, buffer);
  return file;
}

/** One part of a .docx, through the project's zip helpers. */
async function part(docx: Buffer, name: string): Promise<string> {
  const fh = await fsp.open(await saved(docx), "r");
  try {
    const entries = await listZipEntries(fh, (await fh.stat()).size);
    const entry = entries?.find((e) => e.name === name);
    expect(entry, name).toBeDefined();
    const bytes = await readZipEntry(fh, entry!, 32 * 1024 * 1024);
    return bytes!.toString("utf8");
  } finally {
    await fh.close();
  }
}

const texts = (xml: string, tag: "w:ins" | "w:del") =>
  [...xml.matchAll(new RegExp(`<${tag} [^>]*>([\\s\\S]*?)</${tag}>`, "g"))].map((m) =>
    [...m[1].matchAll(/<w:(?:t|delText)[^>]*>([^<]*)</g)].map((t) => t[1]).join(""),
  );

const PARAGRAPHS: DocParagraph[] = [
  { style: "title", text: "A study of teh moon" },
  { style: "heading1", text: "Methods" },
  { style: "normal", text: "We measured a a sample. The results , however, were clear." },
  { style: "listItem", text: "Their is no doubt." },
];
const CHANGES: ProofreadChange[] = [
  { paragraph: 0, start: 11, end: 14, original: "teh", replacement: "the", rule: "spelling" },
  { paragraph: 2, start: 12, end: 15, original: "a a", replacement: "a", rule: "repeated-word" },
  { paragraph: 2, start: 35, end: 36, original: " ", replacement: "", rule: "punctuation" },
  { paragraph: 3, start: 0, end: 5, original: "Their", replacement: "There", rule: "word-choice" },
];

describe("proofreading writer", () => {
  it("writes each change as w:del (original) + w:ins (replacement) by Automated proofreading, keeping order and headings", async () => {
    const { tracked } = await writeProofread(PARAGRAPHS, CHANGES, new Date("2026-11-29T12:00:00.123Z"));
    const xml = await part(tracked, "word/document.xml");
    expect(texts(xml, "w:del")).toEqual(["teh", "a a", " ", "Their"]);
    expect(texts(xml, "w:ins")).toEqual(["the", "a", "There"]);
    for (const m of xml.matchAll(/<w:(?:ins|del) ([^>]*)>/g)) {
      expect(m[1]).toContain(`w:author="${PROOFREADING_AUTHOR}"`);
      expect(m[1]).toContain('w:date="2026-11-29T12:00:00Z"');
    }
    // Revision ids are unique.
    const ids = [...xml.matchAll(/<w:(?:ins|del) w:id="(\d+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(7);
    // Headings and paragraph order kept; text outside the changes kept.
    const styles = [...xml.matchAll(/<w:p>(?:<w:pPr>([\s\S]*?)<\/w:pPr>)?/g)].map(
      (m) => /w:pStyle w:val="(\w+)"/.exec(m[1] ?? "")?.[1] ?? null,
    );
    expect(styles.slice(0, 2)).toEqual(["Title", "Heading1"]);
    expect(xml).toContain(">A study of <");
    expect(xml).toContain("> sample. The results<");
    expect(xml).toContain(">, however, were clear.<");
    // No note paragraph: the first paragraph is the researcher's title. The properties say what made it.
    expect(xml.indexOf("A study of")).toBeLessThan(xml.indexOf("Methods"));
    expect(xml).not.toContain("Automated proofreading</w:t>");
    const core = await part(tracked, "docProps/core.xml");
    expect(core).toContain(`<dc:creator>${PROOFREADING_AUTHOR}</dc:creator>`);
    expect(core).toMatch(/<dc:description>Automated proofreading/);
  });

  it("writes the clean version with the changes applied and no revisions; the reader reads both back", async () => {
    const { tracked, clean } = await writeProofread(PARAGRAPHS, CHANGES);
    const xml = await part(clean, "word/document.xml");
    expect(xml).not.toMatch(/<w:ins\b|<w:del\b|w:delText/);
    const expected: DocParagraph[] = [
      { style: "title", text: "A study of the moon" },
      { style: "heading1", text: "Methods" },
      { style: "normal", text: "We measured a sample. The results, however, were clear." },
      { style: "listItem", text: "There is no doubt." },
    ];
    expect(await readDocument(await saved(clean), "docx")).toEqual(expected);
    // Reading the tracked copy shows the text as it stands with its revisions accepted (w:del skipped).
    expect(await readDocument(await saved(tracked), "docx")).toEqual(expected);
  });

  it("runs of a paragraph: tracked pieces in order, clean text applied", () => {
    const text: DocParagraph = { style: "normal", text: "We measured a a sample." };
    const changes: ProofreadChange[] = [{ paragraph: 0, start: 12, end: 15, original: "a a", replacement: "a", rule: "repeated-word" }];
    expect(runsWithChanges(text, changes, true)).toEqual([
      { text: "We measured " },
      { deleted: "a a" },
      { inserted: "a" },
      { text: " sample." },
    ]);
    expect(runsWithChanges(text, changes, false)).toEqual([{ text: "We measured a sample." }]);
  });

  it("keeps character formatting around and inside changes (bold, superscript), in both versions", async () => {
    const paragraph: DocParagraph = {
      style: "normal",
      text: "Teh dose was 10-3 mol.",
      runs: [{ text: "Teh dose", bold: true }, { text: " was 10" }, { text: "-3", vertAlign: "superscript" }, { text: " mol." }],
    };
    const changes: ProofreadChange[] = [{ paragraph: 0, start: 0, end: 3, original: "Teh", replacement: "The", rule: "spelling" }];
    expect(runsWithChanges(paragraph, changes, true)).toEqual([
      { deleted: "Teh", format: { bold: true } },
      { inserted: "The", format: { bold: true } },
      { text: " dose", format: { bold: true } },
      { text: " was 10", format: {} },
      { text: "-3", format: { vertAlign: "superscript" } },
      { text: " mol.", format: {} },
    ]);
    const { tracked, clean } = await writeProofread([paragraph], changes);
    const xml = await part(tracked, "word/document.xml");
    expect(xml).toMatch(/<w:del [^>]*><w:r><w:rPr><w:b\/>[\s\S]*?<w:delText[^>]*>Teh</);
    expect(xml).toMatch(/<w:vertAlign w:val="superscript"\/><\/w:rPr><w:t[^>]*>-3</);
    expect(await readDocument(await saved(clean), "docx")).toEqual([
      {
        style: "normal",
        text: "The dose was 10-3 mol.",
        runs: [{ text: "The dose", bold: true }, { text: " was 10" }, { text: "-3", vertAlign: "superscript" }, { text: " mol." }],
      },
    ]);
  });
});

describe("writer safety", () => {
  it("drops characters XML cannot hold (a .doc's control characters), so Word opens the file", async () => {
    const { clean } = await writeProofread([{ style: "normal", text: "Bell\u0007 and\u0001 nul\u0000 and \uD800 tab\tok" }], []);
    const xml = await part(clean, "word/document.xml");
    expect(xml).toContain(">Bell and nul and  tab\tok<");
    expect(xml).not.toMatch(/[\u0000-\u0008]/);
  });
});

describe("proofreading batches", () => {
  it("puts paragraphs with words one per line into batches of at most 20,000 characters, long ones cut at a sentence", () => {
    const long = "A sentence of words. ".repeat(1500).trim(); // 31,499 characters
    const paragraphs: DocParagraph[] = [
      { style: "heading1", text: "Methods" },
      { style: "normal", text: "" },
      { style: "normal", text: "Short one." },
      { style: "normal", text: long },
      { style: "normal", text: "Last." },
    ];
    const batches = batchesOf(paragraphs);
    for (const batch of batches) {
      const joined = batch.map((p) => p.text).join("\n");
      expect(joined.length).toBeLessThanOrEqual(20_000);
      // Each piece sits at its offset in the joined text and is its paragraph's text from `from`.
      for (const piece of batch) {
        expect(joined.slice(piece.at, piece.at + piece.text.length)).toBe(piece.text);
        expect(paragraphs[piece.paragraph].text.slice(piece.from, piece.from + piece.text.length)).toBe(piece.text);
      }
    }
    const pieces = batches.flat();
    expect(pieces.map((p) => p.paragraph)).toEqual([0, 2, 3, 3, 4]);
    expect(pieces[2].text.endsWith("words. ")).toBe(true);
    expect(pieces[2].text.length + pieces[3].text.length).toBe(long.length);
  });
});

describe("document reader", () => {
  it("reads headings, titles and lists of a Word-made .docx by style name; skips deleted text and field codes", () => {
    const styles = styleNames(
      '<w:styles><w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/></w:style>' +
        '<w:style w:type="paragraph" w:styleId="Titel"><w:name w:val="Title"/></w:style></w:styles>',
    );
    const xml =
      '<?xml version="1.0"?><w:document><w:body>' +
      '<w:p><w:pPr><w:pStyle w:val="Titel"/></w:pPr><w:r><w:t>Rock &amp; roll</w:t></w:r></w:p>' +
      '<w:p><w:pPr><w:pStyle w:val="berschrift1"/><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs><w:rPr><w:b/></w:rPr></w:pPr>' +
      '<w:r><w:t xml:space="preserve">Intro </w:t></w:r></w:p>' +
      '<w:p><w:r><w:t>a</w:t></w:r><w:r><w:tab/><w:t>b</w:t></w:r><w:del w:id="1"><w:r><w:delText>gone</w:delText></w:r></w:del>' +
      '<w:r><w:instrText> PAGE </w:instrText></w:r><w:ins w:id="2"><w:r><w:t>c</w:t></w:r></w:ins></w:p>' +
      '<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>item</w:t></w:r></w:p>' +
      '<w:p><w:r><w:rPr><w:i/><w:b w:val="0"/></w:rPr><w:t>E. coli</w:t></w:r><w:r><w:t xml:space="preserve"> grew </w:t></w:r></w:p>' +
      "<w:p/>" +
      '<w:p><w:pPr><w:pStyle w:val="Heading3"/></w:pPr><w:r><w:t>Deep</w:t><w:br/><w:t>er</w:t></w:r></w:p>' +
      "</w:body></w:document>";
    expect(paragraphsOfDocumentXml(xml, styles)).toEqual([
      { style: "title", text: "Rock & roll" },
      { style: "heading1", text: "Intro" },
      { style: "normal", text: "a\tbc" },
      { style: "listItem", text: "item" },
      { style: "normal", text: "E. coli grew", runs: [{ text: "E. coli", italics: true }, { text: " grew" }] },
      { style: "normal", text: "" },
      { style: "heading3", text: "Deep er" },
    ]);
  });

  it("reads a .docx made by the docx package (headings by HeadingLevel)", async () => {
    const doc = new Document({
      sections: [
        {
          children: [
            new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun("Results")] }),
            new Paragraph({ children: [new TextRun("First "), new TextRun({ text: "bold", bold: true }), new TextRun(" words.")] }),
          ],
        },
      ],
    });
    expect(await readDocument(await saved(await Packer.toBuffer(doc)), "docx")).toEqual([
      { style: "heading2", text: "Results" },
      { style: "normal", text: "First bold words.", runs: [{ text: "First " }, { text: "bold", bold: true }, { text: " words." }] },
    ]);
  });

  it("reads a .doc as unstyled paragraphs", async () => {
    const file = await saved(makeDoc("Primer párrafo del estudio.\nSegundo párrafo."), "doc");
    const paragraphs = await readDocument(file, "doc");
    expect(paragraphs.filter((p) => p.text !== "")).toEqual([
      { style: "normal", text: "Primer párrafo del estudio." },
      { style: "normal", text: "Segundo párrafo." },
    ]);
  });

  it("refuses what it cannot read: not a zip, a zip without a document, no words", async () => {
    const reason = (p: Promise<unknown>) =>
      p.then(
        () => "read",
        (e: unknown) => (e instanceof DigitalEngineError ? e.reason : String(e)),
      );
    expect(await reason(readDocument(await saved(Buffer.from("not a word file at all")), "docx"))).toBe("unreadable");
    expect(await reason(readDocument(await saved(Buffer.from("not a word file at all"), "doc"), "doc"))).toBe("unreadable");
    expect(await reason(readDocument(path.join(dir, "missing.docx"), "docx"))).toBe("unreadable");
    const empty = new Document({ sections: [{ children: [new Paragraph({ children: [new TextRun("  ")] })] }] });
    expect(await reason(readDocument(await saved(await Packer.toBuffer(empty)), "docx"))).toBe("empty");
  });
});

describe("safe suggestions (the choice, from planted lints)", () => {
  const lint = (text: string, problem: string, kind: string, replacements: string[], extra: Partial<RawLint> = {}, from = 0): RawLint => {
    const start = text.indexOf(problem, from);
    return { kind, start, end: start + problem.length, message: "", replacements, ...extra };
  };

  it("applies dictionary spellings, spacing, repeated words and the agreed confusables", () => {
    const text = "Teh data , a a test. Their is more then one. It will effect us.";
    const lints = [
      lint(text, "Teh", "Typo", ["The"], { dictionaryWord: false, replacementWords: [true] }),
      lint(text, " ", "Punctuation", [""], {}, 8),
      lint(text, "a a", "Repetition", ["a"]),
      lint(text, "Their", "Grammar", ["There", "There's"]),
      lint(text, "then", "Miscellaneous", ["than"]),
      lint(text, "effect", "WordChoice", ["affect"]),
    ];
    const chosen = selectSafe(text, lints, new Set());
    expect(chosen.map((c) => c.rule)).toEqual(["spelling", "punctuation", "repeated-word", "word-choice", "word-choice", "word-choice"]);
    expect(applySuggestions(text, chosen)).toBe("The data, a test. There is more than one. It will affect us.");
  });

  it("never applies a word split, a non-dictionary word, a name mid-sentence, other word choices or overlapping changes", () => {
    const text = "The corelation with Smiht was agian loose and analyses were cheked.";
    const lints = [
      lint(text, "corelation", "Typo", ["co relation"], { dictionaryWord: false, replacementWords: [true] }),
      lint(text, "Smiht", "Spelling", ["Smith"], { dictionaryWord: false, replacementWords: [true] }),
      lint(text, "agian", "Spelling", ["agan", "again"], { dictionaryWord: false, replacementWords: [false, true] }),
      lint(text, "loose", "WordChoice", ["lose"]),
      lint(text, "cheked", "Spelling", ["che-ked"], { dictionaryWord: false, replacementWords: [true] }),
      // Overlaps "agian": the later one is dropped.
      lint(text, "agian loose", "Grammar", ["its"]),
    ];
    const chosen = selectSafe(text, lints, new Set());
    expect(chosen).toEqual([{ start: text.indexOf("agian"), end: text.indexOf("agian") + 5, replacement: "again", rule: "spelling" }]);
  });

  it("of two valid changes that overlap, keeps the earlier", () => {
    const text = "It was the the the end.";
    const lints = [lint(text, "the the", "Repetition", ["the"]), lint(text, "the the", "Repetition", ["the"], {}, 11)];
    expect(lints[1].start).toBe(11);
    const chosen = selectSafe(text, lints, new Set());
    expect(chosen).toEqual([{ start: 7, end: 14, replacement: "the", rule: "repeated-word" }]);
    expect(applySuggestions(text, chosen)).toBe("It was the the end.");
  });
});

describe("sandbox translator", () => {
  it("is deterministic, marks every paragraph and turns common words into English", () => {
    expect(sandboxTranslate("Los resultados del estudio", "es_ES")).toBe(`${SANDBOX_MARK} The results of the study`);
    expect(sandboxTranslate("Os resultados do estudo", "pt_BR")).toBe(`${SANDBOX_MARK} The results of the study`);
    expect(sandboxTranslate("研究结果", "zh_CN")).toBe(`${SANDBOX_MARK} research results`);
    expect(sandboxTranslate("", "zh_CN")).toBe("");
  });
});
