// The S3-compatible store (AWS S3, MinIO, Alibaba Cloud OSS; ADR 078), through the real SDK. Streamed both ways,
// never buffered whole: uploads go through lib-storage's Upload (one PutObject below a part, else a multipart
// upload that holds at most `queueSize` parts of `partSize` in memory at once), downloads pipe GetObject's body.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
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

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === "NoSuchKey" || error.name === "NotFound" || error.$metadata?.httpStatusCode === 404);

export class S3FileStore implements FileStore {
  readonly kind = "s3" as const;
  readonly client: S3Client;
  constructor(
    private readonly settings: S3Settings,
    readonly spoolDir: string,
  ) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
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
    const upload = new Upload({
      client: this.client,
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
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: this.keyOf(key),
          Range: range ? `bytes=${range.start}-${range.end ?? ""}` : undefined,
        }),
      );
      // In Node the body is the response's IncomingMessage: a stream read as the caller reads it.
      return out.Body as Readable;
    } catch (error) {
      if (isMissing(error)) throw new StoredObjectMissing(key);
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(key) }));
      return { size: Number(out.ContentLength ?? 0) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(key) }));
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
    this.client.destroy();
  }
}
