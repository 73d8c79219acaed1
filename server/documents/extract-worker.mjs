// One text extraction (docx, doc, pdf) in a worker thread under the heap cap its parent sets
// (resourceLimits; analysis.ts): the DOM-building extractors are where a crafted upload turns a few
// kilobytes into gigabytes, and a worker that runs out of memory dies alone, not the web process (ADR 019).
// Plain JavaScript so it starts without a TypeScript loader, in the tests, `tsx` and a bundle alike.
import fsp from "node:fs/promises";
import { parentPort, workerData } from "node:worker_threads";

/** @param {string} filePath @param {string} family */
async function extract(filePath, family) {
  if (family === "docx") {
    const mammoth = (await import("mammoth")).default;
    return (await mammoth.extractRawText({ path: filePath })).value;
  }
  if (family === "doc") {
    const WordExtractor = (await import("word-extractor")).default;
    const doc = await new WordExtractor().extract(filePath);
    return [doc.getBody(), doc.getFootnotes(), doc.getEndnotes()].filter(Boolean).join("\n");
  }
  if (family === "pdf") {
    const { getDocumentProxy, extractText } = await import("unpdf");
    const pdf = await getDocumentProxy(new Uint8Array(await fsp.readFile(filePath)));
    try {
      return (await extractText(pdf, { mergePages: true })).text;
    } finally {
      await pdf.destroy();
    }
  }
  throw new Error(`no text extractor for ${family}`);
}

const { filePath, family, maxChars } = workerData;
extract(filePath, family).then(
  (text) => parentPort.postMessage(text.length > maxChars ? { tooLong: text.length } : { text }),
  (error) => parentPort.postMessage({ error: String(error?.message ?? error).slice(0, 500) }),
);
