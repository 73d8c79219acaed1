// Real documents built in memory for tests: .docx (docx), .pdf (pdfkit), .doc (a minimal Word 97
// binary in an OLE compound file, via cfb), ZIP containers, PNG, RTF. Use them wherever a test needs
// an upload that passes the content checks.
import zlib from "node:zlib";
import { Document, Packer, Paragraph, TextRun } from "docx";
import PDFDocument from "pdfkit";
import CFB from "cfb";

/** A Word .docx with one paragraph per line of `text`. */
export async function makeDocx(text: string): Promise<Buffer> {
  const doc = new Document({
    sections: [{ children: text.split("\n").map((line) => new Paragraph({ children: [new TextRun(line)] })) }],
  });
  return Packer.toBuffer(doc);
}

/** A PDF with `text` set in Helvetica (Latin script only: CJK text needs a font passed as `font`). */
export async function makePdf(text: string, options: { font?: string } = {}): Promise<Buffer> {
  const doc = new PDFDocument({ size: "A4", compress: true, info: { Title: "Test manuscript" } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  if (options.font) doc.font(options.font);
  doc.fontSize(11).text(text);
  doc.end();
  return done;
}

/**
 * A Word 97–2003 .doc: an OLE compound file with a WordDocument stream (FIB, Unicode text at 0x800)
 * and a 1Table stream holding the piece table. Minimal, but a real binary Word file that word
 * processors and word-extractor read.
 */
export function makeDoc(text: string): Buffer {
  const body = `${text.replace(/\r?\n/g, "\r")}\r`;
  const textBytes = Buffer.from(body, "utf16le");
  const fcText = 0x800;
  const word = Buffer.alloc(Math.max(4096, fcText + textBytes.length + 512));
  word.writeUInt16LE(0xa5ec, 0x00); // wIdent
  word.writeUInt16LE(0x00c1, 0x02); // nFib: Word 97
  word.writeUInt16LE(0x0409, 0x06); // lid: en-US
  word.writeUInt16LE(0x0200, 0x0a); // fWhichTblStm: the table stream is 1Table
  word.writeUInt16LE(0x00bf, 0x0c); // nFibBack
  word.writeUInt32LE(fcText, 0x18); // fcMin
  word.writeUInt32LE(fcText + textBytes.length, 0x1c); // fcMac
  word.writeUInt16LE(14, 0x20); // csw
  word.writeUInt16LE(22, 0x3e); // cslw
  word.writeUInt32LE(word.length, 0x40); // cbMac
  word.writeUInt32LE(body.length, 0x4c); // ccpText
  word.writeUInt16LE(93, 0x98); // cbRgFcLcb (Word 97)
  textBytes.copy(word, fcText);
  // Clx: one Pcdt holding a PlcPcd with a single Unicode piece covering all the text.
  const clx = Buffer.alloc(1 + 4 + 8 + 8);
  clx.writeUInt8(0x02, 0);
  clx.writeUInt32LE(16, 1);
  clx.writeUInt32LE(0, 5); // CP 0
  clx.writeUInt32LE(body.length, 9); // CP end
  clx.writeUInt16LE(0, 13); // PCD flags
  clx.writeUInt32LE(fcText, 15); // fc (bit 30 clear: UTF-16LE)
  clx.writeUInt16LE(0, 19); // prm
  const table = Buffer.alloc(4096);
  clx.copy(table, 0);
  word.writeUInt32LE(0, 0x1a2); // fcClx
  word.writeUInt32LE(clx.length, 0x1a6); // lcbClx
  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, "/WordDocument", word);
  CFB.utils.cfb_add(cfb, "/1Table", table);
  try {
    CFB.utils.cfb_del(cfb, "/\u0001Sh33tJ5");
  } catch {
    /* the placeholder stream is optional */
  }
  return Buffer.from(CFB.write(cfb, { type: "buffer", fileType: "cfb" }) as Uint8Array);
}

/** An OLE compound file that is not a Word, Excel or PowerPoint file (like an .msi installer). */
export function makeOtherCfb(): Buffer {
  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, "/SummaryInformation", Buffer.alloc(4096, 1));
  return Buffer.from(CFB.write(cfb, { type: "buffer", fileType: "cfb" }) as Uint8Array);
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A ZIP with the given entries, in order (stored, or deflated with `deflate`). */
export function makeZip(entries: Record<string, string | Buffer>, options: { deflate?: boolean } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content, "utf8");
    const method = options.deflate && name !== "mimetype" ? 8 : 0;
    const stored = method === 8 ? zlib.deflateRawSync(data) : data;
    const nameBytes = Buffer.from(name, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, stored);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + stored.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** An OOXML package whose main part is a spreadsheet (an .xlsx as far as content checks go). */
export function makeXlsx(): Buffer {
  return makeZip(
    {
      "[Content_Types].xml":
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
      "xl/workbook.xml": '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>',
    },
    { deflate: true },
  );
}

/** An OpenDocument text file with one paragraph per line. */
export function makeOdt(text: string): Buffer {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const paragraphs = text
    .split("\n")
    .map((line) => `<text:p>${esc(line)}</text:p>`)
    .join("");
  return makeZip(
    {
      mimetype: "application/vnd.oasis.opendocument.text",
      "content.xml":
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
        `xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>${paragraphs}</office:text></office:body></office:document-content>`,
      "META-INF/manifest.xml":
        '<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>',
    },
    { deflate: true },
  );
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32LE(0);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 1×1 white PNG. */
export function makePng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", zlib.deflateSync(Buffer.from([0, 255, 255, 255]))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** An RTF document (paragraphs per line; non-ASCII written as \uN escapes). */
export function makeRtf(text: string): Buffer {
  const body = text
    .split("\n")
    .map((line) =>
      [...line]
        .map((ch) => {
          const code = ch.codePointAt(0)!;
          if (ch === "\\" || ch === "{" || ch === "}") return `\\${ch}`;
          if (code < 128) return ch;
          if (code > 0xffff) return "?";
          return `\\u${code > 32767 ? code - 65536 : code}?`;
        })
        .join(""),
    )
    .join("\\par\n");
  return Buffer.from(
    `{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Times New Roman;}}{\\*\\generator Test;}\\f0\\fs24 ${body}\\par\n}`,
    "latin1",
  );
}

/** A Windows executable's first bytes (for "renamed file" checks). */
export function makeExe(): Buffer {
  const buf = Buffer.alloc(1024);
  buf.write("MZ", 0, "ascii");
  buf.write("This program cannot be run in DOS mode.", 0x4e, "ascii");
  return buf;
}

/** A one-page PDF whose content stream inflates to `mb` MB of text operators (and an image stream that inflates as much). */
export function pdfBomb(mb: number, { image = false } = {}): Buffer {
  const block = Buffer.from("BT /F1 12 Tf 72 712 Td (hello world) Tj ET\n".repeat(Math.ceil(1048576 / 43)));
  const deflate = (n: number) => {
    // One zlib stream of `n` sync-flushed blocks (its checksum left out: the bounds stop reading long before it).
    const out: Buffer[] = [];
    for (let i = 0; i < n; i++) out.push(zlib.deflateRawSync(block, { finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    out.push(zlib.deflateRawSync(Buffer.alloc(0)));
    return Buffer.concat([Buffer.from([0x78, 0x9c]), ...out]);
  };
  const stream = deflate(mb);
  const dict = image
    ? `<</Type/XObject/Subtype/Image/Width 100/Height 100/BitsPerComponent 8/ColorSpace/DeviceGray/Length ${stream.length}/Filter/FlateDecode>>`
    : `<</Length ${stream.length}/Filter/FlateDecode>>`;
  return Buffer.concat([
    Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"),
    Buffer.from(`4 0 obj${dict}stream\n`),
    stream,
    Buffer.from("\nendstream endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"),
  ]);
}
