// The file store (issue 26 §5, ADR 078): both implementations behind one interface — write, read (whole and a
// range), stat, delete, withLocalCopy, a missing object — a 200 MB object streamed through the S3 store with
// bounded memory, and uploads, downloads, analysis and deletion of the portal going to the S3 store (not DATA_DIR).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppContext } from "../../server/context";
import { createTestContext, testEnv, type TestContext } from "../helpers/context";
import { createResearcher } from "../helpers/factories";
import { makeDocx } from "../helpers/fixtures";
import { startS3TestServer, s3Env, type S3TestServer } from "../helpers/s3-server";
import { createFileStore, LocalFileStore, S3FileStore, StoredObjectMissing, type FileStore } from "../../server/storage";
import { deleteFile, openFile, saveUpload, storedKey } from "../../server/documents/storage";
import { analyseFile } from "../../server/documents/analysis";
import { readEnv } from "../../server/env";

let s3: S3TestServer;
let dataDir: string;
const stores: Record<"local" | "s3", FileStore> = {} as never;

beforeAll(async () => {
  s3 = await startS3TestServer();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-storage-"));
  stores.local = createFileStore({ DATA_DIR: dataDir, STORAGE: "local" });
  stores.s3 = createFileStore({ ...readEnv({ ...s3Env(s3), DATA_DIR: dataDir, NODE_ENV: "test" }) });
});

afterAll(async () => {
  stores.s3?.close();
  await s3?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe.each(["local", "s3"] as const)("the %s store", (kind) => {
  const store = () => stores[kind];

  it("is the kind the variables name", () => {
    expect(store().kind).toBe(kind);
    expect(store()).toBeInstanceOf(kind === "local" ? LocalFileStore : S3FileStore);
    expect(store().spoolDir).toBe(path.join(dataDir, "files", "tmp"));
  });

  it("writes, reads whole and in part, stats and deletes an object", async () => {
    const body = randomBytes(300_000);
    const key = `files/ab/${randomBytes(16).toString("hex")}`;
    await store().put(key, Readable.from([body.subarray(0, 1000), body.subarray(1000)]));
    expect(await store().stat(key)).toEqual({ size: body.length });
    expect((await bytesOf(await store().read(key))).equals(body)).toBe(true);
    expect((await bytesOf(await store().read(key, { start: 10, end: 19 }))).equals(body.subarray(10, 20))).toBe(true);
    await store().delete(key);
    expect(await store().stat(key)).toBeNull();
    await store().delete(key); // not there: no error
    await expect(store().read(key)).rejects.toBeInstanceOf(StoredObjectMissing);
    await expect(store().read(key)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("moves a spooled file in, and lends a local copy that is gone afterwards (local: the file itself)", async () => {
    fs.mkdirSync(store().spoolDir, { recursive: true });
    const spooled = path.join(store().spoolDir, `${randomBytes(8).toString("hex")}.part`);
    fs.writeFileSync(spooled, "spooled bytes");
    const key = `files/cd/${randomBytes(16).toString("hex")}`;
    await store().putFile(key, spooled);
    expect(fs.existsSync(spooled)).toBe(false);
    let seen = "";
    const out = await store().withLocalCopy(key, async (file) => {
      seen = file;
      return fs.readFileSync(file, "utf8");
    });
    expect(out).toBe("spooled bytes");
    if (kind === "local") expect(seen).toBe(path.join(dataDir, key));
    else {
      expect(seen.startsWith(store().spoolDir)).toBe(true);
      expect(fs.existsSync(seen)).toBe(false);
    }
    // The copy is removed when fn throws too.
    await expect(
      store().withLocalCopy(key, async (file) => {
        seen = file;
        throw new Error("reader failed");
      }),
    ).rejects.toThrow("reader failed");
    expect(fs.existsSync(seen)).toBe(kind === "local");
    await expect(store().withLocalCopy(`files/cd/${"0".repeat(32)}`, async () => 1)).rejects.toBeInstanceOf(StoredObjectMissing);
  });

  it("refuses keys that could leave the store", async () => {
    for (const key of ["../secrets.json", "/etc/passwd", "files/../../x", "files/./x", "Files/A", ""])
      await expect(store().put(key, Readable.from([Buffer.from("x")]))).rejects.toThrow(/invalid storage key/);
  });
});

describe("a 200 MB object through the S3 store", () => {
  it("is streamed both ways in parts, never held whole in memory", async () => {
    const size = 200 * 1024 * 1024;
    const block = randomBytes(1024 * 1024);
    const sent = createHash("sha256");
    async function* generate() {
      for (let i = 0; i < size / block.length; i++) {
        block.writeUInt32BE(i, 0);
        const chunk = Buffer.from(block);
        sent.update(chunk);
        yield chunk;
      }
    }
    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const before = { ...s3.counts };
    const key = `files/ee/${randomBytes(16).toString("hex")}`;
    try {
      await stores.s3.put(key, Readable.from(generate()));
      const got = createHash("sha256");
      let length = 0;
      for await (const chunk of await stores.s3.read(key)) {
        got.update(chunk as Buffer);
        length += (chunk as Buffer).length;
      }
      expect(length).toBe(size);
      expect(got.digest("hex")).toBe(sent.digest("hex"));
    } finally {
      clearInterval(sampler);
    }
    // 8 MiB parts, two in flight: 25 parts through the multipart calls, not one PutObject of 200 MB.
    expect((s3.counts.UploadPart ?? 0) - (before.UploadPart ?? 0)).toBe(25);
    expect((s3.counts.CompleteMultipartUpload ?? 0) - (before.CompleteMultipartUpload ?? 0)).toBe(1);
    // The test server shares this process, so the bound covers both ends of the stream, and garbage is collected
    // when V8 pleases (measured: 30–50 MB with collections forced, about 100 MB without): below the 200 MB that a
    // buffered upload alone would hold, let alone an upload and a download (ADR 078).
    expect(peak - base).toBeLessThan(160 * 1024 * 1024);
    await stores.s3.delete(key);
  }, 180_000);
});

describe("the portal on the S3 store", () => {
  let t: TestContext;
  let portalDir: string;
  beforeAll(async () => {
    portalDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-s3-ctx-"));
    t = await createTestContext({ ...s3Env(s3), DATA_DIR: portalDir, SESSION_SECRET: "shared-by-every-machine" });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(portalDir, { recursive: true, force: true });
  });

  it("stores an upload in the bucket, serves it, analyses a copy of it and deletes it there", async () => {
    expect(t.ctx.storage.kind).toBe("s3");
    const user = await createResearcher(t.ctx);
    const docx = Buffer.from(await makeDocx("The results were clear and the method was sound. ".repeat(20)));
    const file = await saveUpload(t.ctx, Readable.from([docx]), { ownerUserId: user.id, kind: "main", originalName: "paper.docx" });
    const row = await t.ctx.db.selectFrom("files").select("stored_name").where("id", "=", file.id).executeTakeFirstOrThrow();
    const key = storedKey(row.stored_name);
    expect((await s3.object(key))?.equals(docx)).toBe(true);
    // Nothing of it on this machine's disk: no shard folder, an empty spool.
    expect(fs.readdirSync(path.join(portalDir, "files")).filter((d) => d !== "tmp")).toEqual([]);
    expect(fs.readdirSync(path.join(portalDir, "files", "tmp"))).toEqual([]);

    const opened = await openFile(t.ctx, file.id, { ownerUserId: user.id });
    expect((await bytesOf(opened!.stream())).equals(docx)).toBe(true);
    const analysed = await analyseFile(t.ctx, file.id);
    expect(analysed).toMatchObject({ status: "done", wordCount: 180 });
    expect(fs.readdirSync(path.join(portalDir, "files", "tmp"))).toEqual([]);

    expect(await deleteFile(t.ctx, file.id, { ownerUserId: user.id })).toBe(true);
    expect(await s3.object(key)).toBeNull();
    expect(s3.unsigned).toBe(0);
  });

  it("a refused upload leaves nothing in the bucket", async () => {
    const user = await createResearcher(t.ctx);
    const keys = (await s3.keys()).length;
    await expect(
      saveUpload(t.ctx, Readable.from([Buffer.from("not a word document")]), {
        ownerUserId: user.id,
        kind: "main",
        originalName: "x.docx",
      }),
    ).rejects.toMatchObject({ code: "file-type-not-allowed" });
    expect((await s3.keys()).length).toBe(keys);
  });

  it("a context can be given its own store (tests, tools)", () => {
    const ctx = createAppContext({ ...t.ctx, storage: stores.local });
    expect(ctx.storage).toBe(stores.local);
  });
});

describe("the storage variables", () => {
  const base = { DATA_DIR: "/tmp/x", NODE_ENV: "test" };
  it("refuse S3 without a bucket, with one key, or S3 settings without STORAGE=s3", () => {
    expect(() => readEnv({ ...base, STORAGE: "s3" })).toThrow(/S3_BUCKET must be set when STORAGE=s3/);
    expect(() => readEnv({ ...base, STORAGE: "s3", S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k" })).toThrow(/S3_SECRET_ACCESS_KEY must be set/);
    expect(() => readEnv({ ...base, S3_BUCKET: "b" })).toThrow(/STORAGE must be s3/);
    expect(() => readEnv({ ...base, STORAGE: "disk" })).toThrow(/STORAGE must be local or s3/);
    expect(readEnv({ ...base, STORAGE: "s3", S3_BUCKET: "b" })).toMatchObject({ STORAGE: "s3", S3_BUCKET: "b" });
    expect(testEnv().STORAGE).toBe("local");
  });
  it("in production, a shared store needs a shared SESSION_SECRET", () => {
    const prod = { ...base, NODE_ENV: "production", SEED_DEMO: "false", PUBLIC_URL: "https://portal.example.com" };
    expect(() => readEnv({ ...prod, STORAGE: "s3", S3_BUCKET: "b" })).toThrow(/SESSION_SECRET must be set when STORAGE=s3/);
    expect(readEnv({ ...prod, STORAGE: "s3", S3_BUCKET: "b", SESSION_SECRET: "same-on-every-machine" }).STORAGE).toBe("s3");
  });
});
