// Completed orders with delivered files, for the tests of downloads and certificates (issue 11 §5, §6), and a
// small reader of store-only zips (the format server/orders/downloads.ts writes).
import { Readable } from "node:stream";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { AppContext } from "../../server/context";
import { storedKey } from "../../server/documents/files";
import { issueCertificate } from "../../server/certificates";
import { createCompletedOrder, type TestUser } from "./factories";

/** A small file the store accepts as a PDF, different each time. */
export function pdfBytes(text = randomBytes(8).toString("hex")): Uint8Array {
  return new Uint8Array(Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`));
}

export interface CompletedOrder {
  externalId: string;
  orderId: number;
  staff: TestUser;
}

/**
 * A placed order of `user` taken by staff to completed with `files` delivered (through addDeliverable: the same
 * content checks as uploads). `paid` (default true) marks it paid, which makes its files downloadable.
 */
export async function completedOrder(
  ctx: AppContext,
  user: Pick<TestUser, "id">,
  files: { name: string; bytes: Uint8Array }[],
  options: { paid?: boolean; staff?: TestUser; complete?: boolean } = {},
): Promise<CompletedOrder> {
  const order = await createCompletedOrder(ctx, user, { ...options, files });
  return { externalId: order.externalId, orderId: order.orderId, staff: order.staff };
}

/** completedOrder, then its certificate issued (and, when given, its authors set directly). */
export async function certifiedOrder(
  ctx: AppContext,
  user: Pick<TestUser, "id">,
  files: { name: string; bytes: Uint8Array }[],
  options: { paid?: boolean; authors?: string; title?: string } = {},
): Promise<CompletedOrder & { code: string }> {
  const order = await completedOrder(ctx, user, files, options);
  const issued = await issueCertificate(ctx, { userId: order.staff.id }, order.orderId);
  if (!issued.ok) throw new Error(`issueCertificate: ${issued.error}`);
  if (options.authors !== undefined || options.title !== undefined)
    await ctx.db
      .updateTable("certificates")
      .set({
        ...(options.authors !== undefined ? { authors: options.authors } : {}),
        ...(options.title !== undefined ? { title: options.title } : {}),
      })
      .where("code", "=", issued.value.code)
      .execute();
  return { ...order, code: issued.value.code };
}

/**
 * A large delivered file of `sizeBytes` random bytes written straight into the store (past the upload size limit:
 * benchmarks and the memory test), with its files and deliverables rows. Written 1 MiB at a time.
 */
export async function storeLargeDeliverable(
  ctx: AppContext,
  orderId: number,
  ownerUserId: number,
  name: string,
  sizeBytes: number,
): Promise<{ key: string; sha256: string }> {
  const storedName = randomBytes(16).toString("hex");
  const hash = createHash("sha256");
  const chunk = randomBytes(1024 * 1024);
  // Through the file store (ADR 078), whichever it is: generated a MiB at a time as the store takes it.
  async function* bytes() {
    for (let written = 0; written < sizeBytes;) {
      const n = Math.min(chunk.length, sizeBytes - written);
      // Vary each MiB a little so the file is not one block repeated.
      chunk.writeUInt32BE(written >>> 0, 0);
      const part = Buffer.from(chunk.subarray(0, n));
      hash.update(part);
      yield part;
      written += n;
    }
  }
  await ctx.storage.put(storedKey(storedName), Readable.from(bytes()));
  const sha256 = hash.digest("hex");
  const id = randomUUID();
  await ctx.db
    .insertInto("files")
    .values({
      id,
      owner_user_id: ownerUserId,
      kind: "deliverable",
      original_name: name,
      stored_name: storedName,
      size_bytes: sizeBytes,
      content_type: "application/pdf",
      sha256,
    })
    .execute();
  const key = randomBytes(8).toString("base64url").slice(0, 10);
  await ctx.db
    .insertInto("deliverables")
    .values({ order_id: orderId, key, file_id: id, name, size_bytes: sizeBytes, sha256, content_type: "application/pdf" })
    .execute();
  return { key, sha256 };
}

export interface ZipEntry {
  name: string;
  method: number;
  crc32: number;
  data: Buffer;
}

/** The entries of a zip, read from its central directory (stored entries only: what the portal writes). */
export function readZip(zip: Buffer): ZipEntry[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error("no end of central directory");
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error("bad central header");
    const method = zip.readUInt16LE(at + 10);
    const crc32 = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error("bad local header");
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    entries.push({ name, method, crc32, data: zip.subarray(dataAt, dataAt + size) });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
