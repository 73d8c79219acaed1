// checkZipBounds and checkPdfBounds (server/documents/containers.ts, ADR 019): a ZIP-based upload or a PDF
// is measured by streaming its compressed parts through inflate before any extractor reads it; declared
// sizes are never trusted.
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { ArchiveLimitError, checkPdfBounds, checkZipBounds, type ZipBounds } from "../../server/documents/containers";
import { ANALYSIS_LIMITS } from "../../server/documents/analysis";
import { makeDocx, makePdf, makeZip, pdfBomb } from "../helpers/fixtures";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zip-bounds-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const BOUNDS: ZipBounds = { maxEntries: 5, maxTotalBytes: 1_000_000, maxXmlBytes: 500_000, maxRatio: 50, ratioFloorBytes: 100_000 };

async function check(zip: Buffer, bounds = BOUNDS): Promise<void> {
  const file = path.join(dir, `${randomBytes(4).toString("hex")}.zip`);
  await fsp.writeFile(file, zip);
  const fh = await fsp.open(file, "r");
  try {
    await checkZipBounds(fh, zip.length, bounds);
  } finally {
    await fh.close();
  }
}

/** Incompressible bytes as base64 text: inflates about 1.3× at most. */
const noise = (bytes: number) => randomBytes(bytes).toString("base64");

describe("checkZipBounds", () => {
  it("lets a real .docx through the analysis limits", async () => {
    await expect(check(await makeDocx("A short manuscript.\nSecond line."), ANALYSIS_LIMITS.zip)).resolves.toBeUndefined();
  });

  it("refuses too many entries", async () => {
    const entries = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`f${i}.txt`, "x"]));
    await expect(check(makeZip(entries, { deflate: true }))).rejects.toBeInstanceOf(ArchiveLimitError);
    await expect(check(makeZip(Object.fromEntries(Object.entries(entries).slice(0, 5)), { deflate: true }))).resolves.toBeUndefined();
  });

  it("refuses more inflated bytes in all, or in XML parts, than allowed", async () => {
    await expect(check(makeZip({ "a.bin": noise(400_000), "b.bin": noise(400_000) }, { deflate: true }))).rejects.toThrow(
      ArchiveLimitError,
    );
    await expect(check(makeZip({ "word/document.xml": noise(450_000) }, { deflate: true }))).rejects.toThrow(ArchiveLimitError);
    await expect(check(makeZip({ "a.bin": noise(300_000) }, { deflate: true }))).resolves.toBeUndefined();
  });

  it("refuses an entry that inflates past the ratio, however small its declared size", async () => {
    const bomb = makeZip({ "word/document.xml": "a".repeat(400_000) }, { deflate: true });
    await expect(check(bomb)).rejects.toThrow(/inflates more than 50×/);
    // An archive lying about its sizes (declares 10 bytes, inflates to 1.2 MB) is measured, not believed.
    const liar = makeZip({ "word/document.xml": "a".repeat(1_200_000) }, { deflate: true });
    liar.writeUInt32LE(10, 22);
    const central = liar.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    liar.writeUInt32LE(10, central + 24);
    await expect(check(liar, { ...BOUNDS, maxRatio: 10_000 })).rejects.toThrow(ArchiveLimitError);
  });
});

describe("checkPdfBounds", () => {
  it("lets a real PDF through the analysis limits", async () => {
    await expect(checkPdfBounds(await makePdf("A short manuscript. ".repeat(200)), ANALYSIS_LIMITS.pdf)).resolves.toBeUndefined();
  });

  // How fast it is refused is measured in the faults lane (tests/faults/bounds-timing.test.ts): no clocks here.
  it("refuses a content stream that inflates past the ratio or the total", async () => {
    await expect(checkPdfBounds(pdfBomb(50), ANALYSIS_LIMITS.pdf)).rejects.toThrow(/inflates more than 100×/);
    await expect(checkPdfBounds(pdfBomb(50), { ...ANALYSIS_LIMITS.pdf, maxRatio: 1e9, maxTotalBytes: 8 * 1024 * 1024 })).rejects.toThrow(
      ArchiveLimitError,
    );
  });

  it("leaves image streams alone (text extraction never decodes them; flat areas compress a thousandfold)", async () => {
    await expect(checkPdfBounds(pdfBomb(5, { image: true }), ANALYSIS_LIMITS.pdf)).resolves.toBeUndefined();
  });
});
