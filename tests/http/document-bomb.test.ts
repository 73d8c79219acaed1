// A small .docx that inflates to a hundred megabytes of text (a decompression bomb) must fail its analysis
// with `document-too-large`, keep the portal's memory bounded and leave it answering (issue 9 §5, ADR 019).
// The analysis runs in the portal's own process here (WORKERS=inline, the default), as in a plain `npm start`.
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, type TestPortal } from "../helpers/portal";
import { makeDocx } from "../helpers/fixtures";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal({ WORKER_POLL_MS: "100" });
});
afterAll(async () => portal?.stop());

interface Part {
  name: string;
  /** Deflated bytes, CRC-32 and inflated size, computed chunk by chunk. */
  data: Buffer;
  crc: number;
  size: number;
}

/**
 * Deflates `chunk` repeated `times` times without ever holding the inflated whole: each ~1 MB block is
 * deflated on its own and sync-flushed (no final bit), and an empty final block closes the stream.
 */
function deflatedRepeat(name: string, head: string, chunk: string, times: number, tail: string): Part {
  const out: Buffer[] = [];
  let crc = 0;
  let size = 0;
  const write = (b: Buffer) => {
    crc = zlib.crc32(b, crc);
    size += b.length;
    out.push(zlib.deflateRawSync(b, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH }));
  };
  write(Buffer.from(head));
  const perBlock = Math.ceil((1024 * 1024) / chunk.length);
  const block = Buffer.from(chunk.repeat(perBlock));
  for (let i = 0; i < Math.ceil(times / perBlock); i++) write(block);
  write(Buffer.from(tail));
  out.push(zlib.deflateRawSync(Buffer.alloc(0)));
  return { name, data: Buffer.concat(out), crc, size };
}

/** A ZIP of already deflated parts (method 8). */
function zipOf(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(p.crc, 14);
    local.writeUInt32LE(p.data.length, 18);
    local.writeUInt32LE(p.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(p.crc, 16);
    central.writeUInt32LE(p.data.length, 20);
    central.writeUInt32LE(p.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, p.data);
    centrals.push(central, name);
    offset += 30 + name.length + p.data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A real .docx (its content types and relations) whose word/document.xml is ~100 MB of repeated paragraphs. */
async function docxBomb(): Promise<Buffer> {
  const { listZipEntries } = await import("../../server/documents/containers");
  const real = await makeDocx("x");
  // Take every part but the main document from a real package, so the upload passes the content checks.
  const fsp = await import("node:fs/promises");
  const os = await import("node:os");
  const path = await import("node:path");
  const tmp = path.join(os.tmpdir(), `bomb-src-${process.pid}.docx`);
  await fsp.writeFile(tmp, real);
  const fh = await fsp.open(tmp, "r");
  const { readZipEntry } = await import("../../server/documents/containers");
  const parts: Part[] = [];
  for (const entry of (await listZipEntries(fh, real.length))!) {
    if (entry.name === "word/document.xml") continue;
    const raw = (await readZipEntry(fh, entry, 1024 * 1024))!;
    parts.push({ name: entry.name, data: zlib.deflateRawSync(raw), crc: zlib.crc32(raw), size: raw.length });
  }
  await fh.close();
  await fsp.rm(tmp);
  const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  parts.push(
    deflatedRepeat(
      "word/document.xml",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${ns}><w:body>`,
      "<w:p><w:r><w:t>The results suggest a strong effect of temperature on growth.</w:t></w:r></w:p>",
      1_250_000,
      "</w:body></w:document>",
    ),
  );
  return zipOf(parts);
}

describe("decompression bomb", () => {
  it("fails the analysis with document-too-large, memory stays bounded and the portal keeps answering", async () => {
    const bomb = await docxBomb();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const { client: c } = await portal.researcher();
    const id = (await (await c.get("/api/order-form/new")).json()).orderForm.identity;
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const fd = new FormData();
      fd.append("mainFiles", new Blob([new Uint8Array(bomb)]), "thesis.docx");
      const r = await c.request(`/api/order-form/${id}/files`, { method: "POST", body: fd });
      expect(r.status).toBe(201);
      const fileId = (await r.json()).files[0].identity as string;

      let row: { status: string; error: string | null } | undefined;
      const started = Date.now();
      while (Date.now() - started < 30_000) {
        row = await portal.ctx.db
          .selectFrom("document_analyses")
          .select(["status", "error"])
          .where("file_id", "=", fileId)
          .executeTakeFirst();
        if (row && row.status !== "pending") break;
        // The portal answers while the bomb is being dealt with.
        expect((await fetch(`${portal.url}/healthz`)).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(row?.status).toBe("failed");
      expect(row?.error).toMatch(/^document-too-large/);
      const { documentDetails } = await import("../../server/documents/analysis");
      expect(await documentDetails(portal.ctx, [fileId])).toMatchObject({
        analysisFailed: true,
        analysisError: "document-too-large",
      });
      // The order form says why: the API and the get-started page carry the translated reason.
      expect(await (await c.get(`/api/order-form/${id}/document-details`)).json()).toMatchObject({
        documentDetailsReceived: false,
        analysisFailed: true,
        analysisError: "document-too-large",
      });
      const page = await (await c.get("/en/researcher/submit/get-started")).text();
      expect(page).toContain("it expands to far more text than a manuscript has");
      expect((await fetch(`${portal.url}/healthz`)).status).toBe(200);
    } finally {
      clearInterval(sampler);
    }
    const grewMb = (peak - rssBefore) / 1024 / 1024;
    console.info(
      `document bomb: ${bomb.length} bytes uploaded, RSS ${Math.round(rssBefore / 1048576)} MB → peak +${Math.round(grewMb)} MB`,
    );
    expect(grewMb).toBeLessThan(300);
  }, 60_000);
});
