// Minimal, bounded readers for the two container formats uploads come in: ZIP (OOXML, ODF, .zip)
// and OLE compound files (.doc, .xls, .ppt). They read only the directories (and, for ZIP, one
// small entry at a time) through positional reads, so a 50 MB upload is never loaded whole.
import type { FileHandle } from "node:fs/promises";
import { Readable } from "node:stream";
import zlib from "node:zlib";

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buffer, 0, length, position);
  return bytesRead === length ? buffer : buffer.subarray(0, bytesRead);
}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const MAX_ZIP_ENTRIES = 50_000;
const MAX_CENTRAL_DIRECTORY = 16 * 1024 * 1024;

/** The entries of a ZIP file's central directory, or null when it is not a readable ZIP. */
export async function listZipEntries(fh: FileHandle, size: number): Promise<ZipEntry[] | null> {
  if (size < 22) return null;
  const tailLength = Math.min(size, 22 + 0xffff);
  const tail = await readAt(fh, size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  let count = tail.readUInt16LE(eocd + 10);
  let cdSize = tail.readUInt32LE(eocd + 12);
  let cdOffset = tail.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    // ZIP64: the locator sits right before the end record.
    const locatorAt = eocd - 20;
    if (locatorAt < 0 || tail.readUInt32LE(locatorAt) !== 0x07064b50) return null;
    const zip64At = Number(tail.readBigUInt64LE(locatorAt + 8));
    const record = await readAt(fh, zip64At, 56);
    if (record.length < 56 || record.readUInt32LE(0) !== 0x06064b50) return null;
    count = Number(record.readBigUInt64LE(32));
    cdSize = Number(record.readBigUInt64LE(40));
    cdOffset = Number(record.readBigUInt64LE(48));
  }
  if (count > MAX_ZIP_ENTRIES || cdSize > MAX_CENTRAL_DIRECTORY || cdOffset + cdSize > size) return null;
  const cd = await readAt(fh, cdOffset, cdSize);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== 0x02014b50) return null;
    const method = cd.readUInt16LE(p + 10);
    let compressedSize = cd.readUInt32LE(p + 20);
    let uncompressedSize = cd.readUInt32LE(p + 24);
    const nameLength = cd.readUInt16LE(p + 28);
    const extraLength = cd.readUInt16LE(p + 30);
    const commentLength = cd.readUInt16LE(p + 32);
    let localHeaderOffset = cd.readUInt32LE(p + 42);
    const name = cd.toString("utf8", p + 46, p + 46 + nameLength);
    // ZIP64 sizes and offset live in the extra field (id 1) when the 32-bit ones are saturated.
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd && e + 4 <= cd.length) {
      const id = cd.readUInt16LE(e);
      const len = cd.readUInt16LE(e + 2);
      if (id === 1) {
        let q = e + 4;
        if (uncompressedSize === 0xffffffff && q + 8 <= e + 4 + len) {
          uncompressedSize = Number(cd.readBigUInt64LE(q));
          q += 8;
        }
        if (compressedSize === 0xffffffff && q + 8 <= e + 4 + len) {
          compressedSize = Number(cd.readBigUInt64LE(q));
          q += 8;
        }
        if (localHeaderOffset === 0xffffffff && q + 8 <= e + 4 + len) localHeaderOffset = Number(cd.readBigUInt64LE(q));
      }
      e += 4 + len;
    }
    entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset });
    p = extraEnd + commentLength;
  }
  return entries;
}

/** The bytes of one entry (stored or deflated), at most `maxBytes` uncompressed; null when unreadable or larger. */
export async function readZipEntry(fh: FileHandle, entry: ZipEntry, maxBytes: number): Promise<Buffer | null> {
  if (entry.uncompressedSize > maxBytes) return null;
  const header = await readAt(fh, entry.localHeaderOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) return null;
  const dataAt = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const data = await readAt(fh, dataAt, entry.compressedSize);
  if (data.length !== entry.compressedSize) return null;
  try {
    if (entry.method === 0) return data.subarray(0, maxBytes);
    if (entry.method === 8) return zlib.inflateRawSync(data, { maxOutputLength: maxBytes });
  } catch {
    return null;
  }
  return null;
}

/** What a ZIP-based upload may inflate to before its text is read (decompression bombs; ADR 019). */
export interface ZipBounds {
  /** Entries in the central directory. */
  maxEntries: number;
  /** Bytes all entries inflate to, together (measured, not declared). */
  maxTotalBytes: number;
  /** Bytes the XML parts (`*.xml`, `*.rels`) inflate to, together: what a DOM-building extractor parses. */
  maxXmlBytes: number;
  /** Inflated ÷ compressed bytes of one entry, checked once the entry is past `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
}

/** An upload past one of the bounds: the analysis fails with `document-too-large`, nothing more is read. */
export class ArchiveLimitError extends Error {
  readonly code = "document-too-large";
}

const INFLATE_CHUNK = 64 * 1024;

/**
 * Checks a ZIP against `bounds` by streaming every entry through inflate and counting what comes out,
 * keeping none of it: memory stays at one chunk whatever the archive claims, and a bomb is stopped as
 * soon as its ratio or the running total gives it away. Declared sizes are checked first (cheap), but
 * never trusted. Throws ArchiveLimitError past a bound, a plain Error when the archive is unreadable.
 */
export async function checkZipBounds(fh: FileHandle, size: number, bounds: ZipBounds): Promise<void> {
  const entries = await listZipEntries(fh, size);
  if (!entries) throw new Error("not a readable zip");
  if (entries.length > bounds.maxEntries) throw new ArchiveLimitError(`${entries.length} entries`);
  const isXml = (e: ZipEntry) => /\.(xml|rels)$/i.test(e.name);
  const declared = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  const declaredXml = entries.filter(isXml).reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (declared > bounds.maxTotalBytes || declaredXml > bounds.maxXmlBytes) throw new ArchiveLimitError(`declares ${declared} bytes`);
  let total = 0;
  let xml = 0;
  for (const entry of entries) {
    const inflated = await inflatedSize(fh, entry, (n) => {
      if (total + n > bounds.maxTotalBytes) return `inflates past ${bounds.maxTotalBytes} bytes`;
      if (isXml(entry) && xml + n > bounds.maxXmlBytes) return `XML inflates past ${bounds.maxXmlBytes} bytes`;
      if (n > bounds.ratioFloorBytes && n / Math.max(1, entry.compressedSize) > bounds.maxRatio)
        return `${entry.name} inflates more than ${bounds.maxRatio}×`;
      return null;
    });
    total += inflated;
    if (isXml(entry)) xml += inflated;
  }
}

/** Inflates one entry chunk by chunk, asking `tooMuch(bytesSoFar)` after each chunk; the output is dropped. */
async function inflatedSize(fh: FileHandle, entry: ZipEntry, tooMuch: (n: number) => string | null): Promise<number> {
  const header = await readAt(fh, entry.localHeaderOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) throw new Error("bad local header");
  const dataAt = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (entry.method === 0) {
    const reason = tooMuch(entry.compressedSize);
    if (reason) throw new ArchiveLimitError(reason);
    return entry.compressedSize;
  }
  if (entry.method !== 8) throw new Error(`compression method ${entry.method}`);
  async function* compressed() {
    for (let at = 0; at < entry.compressedSize; at += INFLATE_CHUNK) {
      const chunk = await readAt(fh, dataAt + at, Math.min(INFLATE_CHUNK, entry.compressedSize - at));
      if (!chunk.length) return;
      yield chunk;
    }
  }
  return countInflated(compressed(), zlib.createInflateRaw({ chunkSize: INFLATE_CHUNK }), tooMuch);
}

/** Pushes `compressed` through `inflate`, counting what comes out and dropping it; `tooMuch` may stop it after any chunk. */
async function countInflated(
  compressed: AsyncIterable<Buffer> | Iterable<Buffer>,
  inflate: zlib.Inflate | zlib.InflateRaw,
  tooMuch: (n: number) => string | null,
): Promise<number> {
  const input = Readable.from(compressed);
  input.on("error", (e) => inflate.destroy(e));
  input.pipe(inflate);
  let n = 0;
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      n += chunk.length;
      const reason = tooMuch(n);
      if (reason) throw new ArchiveLimitError(reason);
    }
  } finally {
    input.destroy();
    inflate.destroy();
  }
  return n;
}

/** What a PDF's text-bearing streams may inflate to before pdf.js reads them (ADR 019). */
export interface PdfBounds {
  maxStreams: number;
  /** Bytes the Flate streams other than images inflate to, together. */
  maxTotalBytes: number;
  maxRatio: number;
  ratioFloorBytes: number;
}

/** The dictionary of the stream starting at `at`: the text back to its object's start, at most 4 KiB. */
function streamDictionary(text: string, at: number): string {
  const from = Math.max(0, at - 4096);
  const head = text.slice(from, at);
  const obj = head.lastIndexOf(" obj");
  return obj >= 0 ? head.slice(obj) : head;
}

/**
 * Checks a PDF against `bounds`: every Flate-encoded stream but images (which text extraction never
 * decodes, and whose flat areas compress a thousandfold legitimately) is streamed through inflate and
 * counted, as ZIP entries are. A content stream that inflates to hundreds of megabytes (a 600 KB PDF
 * made pdf.js use a gigabyte and a minute before its heap cap stopped it) is refused here in milliseconds.
 * Throws ArchiveLimitError past a bound; streams that are not valid zlib data are left to pdf.js.
 */
export async function checkPdfBounds(pdf: Buffer, bounds: PdfBounds): Promise<void> {
  // latin1 keeps one character per byte, so string offsets are byte offsets.
  const text = pdf.toString("latin1");
  const start = /stream\r?\n/g;
  let total = 0;
  let streams = 0;
  for (let m = start.exec(text); m; m = start.exec(text)) {
    if (text.slice(Math.max(0, m.index - 3), m.index) === "end") continue;
    const dataAt = m.index + m[0].length;
    const end = text.indexOf("endstream", dataAt);
    if (end < 0) break;
    start.lastIndex = end + 9;
    if (++streams > bounds.maxStreams) throw new ArchiveLimitError(`${streams} streams`);
    const dictionary = streamDictionary(text, m.index);
    if (!/\/FlateDecode/.test(dictionary) || /\/Subtype\s*\/Image/.test(dictionary)) continue;
    const data = pdf.subarray(dataAt, end);
    const chunks = function* () {
      for (let at = 0; at < data.length; at += INFLATE_CHUNK) yield data.subarray(at, at + INFLATE_CHUNK);
    };
    try {
      total += await countInflated(chunks(), zlib.createInflate({ chunkSize: INFLATE_CHUNK }), (n) => {
        if (total + n > bounds.maxTotalBytes) return `PDF streams inflate past ${bounds.maxTotalBytes} bytes`;
        if (n > bounds.ratioFloorBytes && n / Math.max(1, data.length) > bounds.maxRatio)
          return `a PDF stream inflates more than ${bounds.maxRatio}×`;
        return null;
      });
    } catch (error) {
      if (error instanceof ArchiveLimitError) throw error;
      // Not zlib data after all (or truncated): pdf.js decides what it makes of it.
    }
  }
}

const CFB_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ENDOFCHAIN = 0xfffffffe;
const MAX_DIRECTORY_SECTORS = 4096;

export function isCfb(head: Buffer): boolean {
  return head.length >= 8 && head.subarray(0, 8).equals(CFB_SIGNATURE);
}

/** Names of the entries (streams and storages) of an OLE compound file, or null when it is not one. */
export async function listCfbEntries(fh: FileHandle, size: number): Promise<string[] | null> {
  const header = await readAt(fh, 0, 512);
  if (header.length < 512 || !isCfb(header)) return null;
  const sectorShift = header.readUInt16LE(0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) return null;
  const sectorSize = 1 << sectorShift;
  const perSector = sectorSize / 4;
  const firstDirSector = header.readUInt32LE(0x30);
  let difatSector = header.readUInt32LE(0x44);
  const difatCount = header.readUInt32LE(0x48);
  const sectorOffset = (sector: number) => (sector + 1) * sectorSize;

  // The FAT sector list (DIFAT): 109 entries in the header, the rest in a chain of DIFAT sectors.
  const difat: number[] = [];
  for (let i = 0; i < 109; i++) difat.push(header.readUInt32LE(0x4c + i * 4));
  for (let n = 0; n < difatCount && difatSector < ENDOFCHAIN && n < 1024; n++) {
    const sector = await readAt(fh, sectorOffset(difatSector), sectorSize);
    if (sector.length < sectorSize) return null;
    for (let i = 0; i < perSector - 1; i++) difat.push(sector.readUInt32LE(i * 4));
    difatSector = sector.readUInt32LE(sectorSize - 4);
  }
  const nextSector = async (sector: number): Promise<number | null> => {
    const fatSector = difat[Math.floor(sector / perSector)];
    if (fatSector === undefined || fatSector >= ENDOFCHAIN) return null;
    const at = sectorOffset(fatSector) + (sector % perSector) * 4;
    if (at + 4 > size) return null;
    return (await readAt(fh, at, 4)).readUInt32LE(0);
  };

  const names: string[] = [];
  let sector = firstDirSector;
  for (let n = 0; sector < ENDOFCHAIN; n++) {
    if (n >= MAX_DIRECTORY_SECTORS || sectorOffset(sector) + sectorSize > size) return null;
    const data = await readAt(fh, sectorOffset(sector), sectorSize);
    for (let i = 0; i + 128 <= data.length; i += 128) {
      const type = data.readUInt8(i + 0x42);
      const nameLength = data.readUInt16LE(i + 0x40);
      if (type === 0 || nameLength < 2 || nameLength > 64) continue;
      names.push(data.toString("utf16le", i, i + nameLength - 2));
    }
    const next = await nextSector(sector);
    if (next === null) return null;
    sector = next;
  }
  return names;
}
