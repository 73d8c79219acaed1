// The S3-compatible store (AWS S3, MinIO, Alibaba Cloud OSS; ADR 078), through the real SDK. Streamed both ways,
// never buffered whole: uploads go through lib-storage's Upload (one PutObject below a part, else a multipart
// upload that holds at most `queueSize` parts of `partSize` in memory at once), downloads pipe GetObject's body.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import { checkKey, StoredObjectMissing, type FileStore, type PutOptions } from "./types";

export interface S3Settings {
  bucket: string;
  region: string;
  /** A non-AWS endpoint (MinIO, OSS, a test server); AWS when unset. */
  endpoint?: string;
  forcePathStyle: boolean;
  /** Both or neither: without them the SDK's default chain (instance role, AWS_* variables, profile) is used. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Prepended to every key (one bucket shared by several portals), e.g. `portal/`. */
  prefix: string;
  /** Bytes of one multipart part (at least 5 MiB, S3's minimum). */
  partSize: number;
  /** Parts uploaded at once: memory per upload is about partSize × queueSize. */
  queueSize: number;
}

const MiB = 1024 * 1024;
export const S3_PART_SIZE = 8 * MiB;
export const S3_QUEUE_SIZE = 2;

// The SDK (~0.3 s to load) is loaded when an S3 store is made, not by every process that imports the storage area
// (each test file's, a local-disk portal's).
type Sdk = typeof import("@aws-sdk/client-s3") & typeof import("@aws-sdk/lib-storage");
const loadSdk = async (): Promise<Sdk> => ({ ...(await import("@aws-sdk/client-s3")), ...(await import("@aws-sdk/lib-storage")) });

const isMissing = (sdk: Sdk, error: unknown) =>
  error instanceof sdk.S3ServiceException &&
  (error.name === "NoSuchKey" || error.name === "NotFound" || error.$metadata?.httpStatusCode === 404);

export class S3FileStore implements FileStore {
  readonly kind = "s3" as const;
  private readonly ready: Promise<{ sdk: Sdk; client: S3Client }>;
  private closed = false;
  constructor(
    private readonly settings: S3Settings,
    readonly spoolDir: string,
  ) {
    this.ready = loadSdk().then((sdk) => ({ sdk, client: this.clientOf(sdk) }));
    // A failure to load is reported by the first call that awaits it, not as an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  private clientOf(sdk: Sdk): S3Client {
    return new sdk.S3Client({
      region: this.settings.region,
      endpoint: this.settings.endpoint,
      forcePathStyle: this.settings.forcePathStyle,
      credentials:
        this.settings.accessKeyId && this.settings.secretAccessKey
          ? { accessKeyId: this.settings.accessKeyId, secretAccessKey: this.settings.secretAccessKey }
          : undefined,
      // Checksums only where S3 demands them: the SDK's newer default (CRC32 trailers on every upload, validated
      // on every download) is not understood by MinIO releases before 2025 nor by Alibaba Cloud OSS.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  private keyOf(key: string): string {
    return this.settings.prefix + checkKey(key);
  }

  async put(key: string, source: Readable, options: PutOptions = {}): Promise<void> {
    const { sdk, client } = await this.ready;
    const upload = new sdk.Upload({
      client,
      params: { Bucket: this.settings.bucket, Key: this.keyOf(key), Body: source, ContentType: options.contentType },
      partSize: Math.max(5 * MiB, this.settings.partSize),
      queueSize: this.settings.queueSize,
      // A failed multipart upload is aborted, so no orphan parts are billed.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      source.destroy();
      throw error;
    }
  }

  async putFile(key: string, localPath: string, options?: PutOptions): Promise<void> {
    await this.put(key, fs.createReadStream(localPath, { highWaterMark: 256 * 1024 }), options);
    await fsp.rm(localPath, { force: true });
  }

  async read(key: string, range?: { start: number; end?: number }): Promise<Readable> {
    const { sdk, client } = await this.ready;
    try {
      const out = await client.send(
        new sdk.GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: this.keyOf(key),
          Range: range ? `bytes=${range.start}-${range.end ?? ""}` : undefined,
        }),
      );
      // In Node the body is the response's IncomingMessage: a stream read as the caller reads it.
      return out.Body as Readable;
    } catch (error) {
      if (isMissing(sdk, error)) throw new StoredObjectMissing(key);
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const { sdk, client } = await this.ready;
    try {
      const out = await client.send(new sdk.HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(key) }));
      return { size: Number(out.ContentLength ?? 0) };
    } catch (error) {
      if (isMissing(sdk, error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const { sdk, client } = await this.ready;
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(key) }));
  }

  async withLocalCopy<T>(key: string, fn: (path: string) => Promise<T>): Promise<T> {
    await fsp.mkdir(this.spoolDir, { recursive: true, mode: 0o700 });
    // The name keeps the key's extension: some readers go by it.
    const ext = path.extname(key).replace(/[^.a-z0-9]/g, "");
    const copy = path.join(this.spoolDir, `${randomBytes(16).toString("hex")}.copy${ext}`);
    try {
      await pipeline(await this.read(key), fs.createWriteStream(copy, { flags: "wx", mode: 0o600 }));
      return await fn(copy);
    } finally {
      await fsp.rm(copy, { force: true });
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    void this.ready.then(
      ({ client }) => client.destroy(),
      () => undefined,
    );
  }
}
