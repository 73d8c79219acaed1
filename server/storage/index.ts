// The file store (issue 26 §5, ADR 078): one interface, the local disk or an S3-compatible object store, chosen by
// STORAGE. It loads no other area (scripts/check-imports.ts): every area that keeps files stands on it.
import path from "node:path";
import { LocalFileStore } from "./local";
import { S3FileStore, S3_PART_SIZE, S3_QUEUE_SIZE, type S3Settings } from "./s3";
import type { FileStore } from "./types";

export { checkKey, StoredObjectMissing, type FileStore, type PutOptions } from "./types";
export { LocalFileStore } from "./local";
export { S3FileStore, type S3Settings } from "./s3";
export { LazyReadable, lazyStreamStats } from "./lazy";

/** The variables the store is made from (server/env.ts checks them: STORAGE=s3 without a bucket stops the start). */
export interface StorageEnv {
  DATA_DIR: string;
  STORAGE: "local" | "s3";
  S3_BUCKET?: string;
  S3_REGION?: string;
  S3_ENDPOINT?: string;
  S3_FORCE_PATH_STYLE?: boolean;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_PREFIX?: string;
}

export function s3SettingsOf(env: StorageEnv): S3Settings {
  // readEnv refuses STORAGE=s3 without a bucket; a hand-built env must not get past here either.
  if (!env.S3_BUCKET) throw new Error("STORAGE=s3 needs S3_BUCKET");
  return {
    bucket: env.S3_BUCKET,
    region: env.S3_REGION ?? "us-east-1",
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? false,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    prefix: env.S3_PREFIX ?? "",
    partSize: S3_PART_SIZE,
    queueSize: S3_QUEUE_SIZE,
  };
}

/** The store the variables name: DATA_DIR on this disk (the default), or the S3 bucket. */
export function createFileStore(env: StorageEnv): FileStore {
  if (env.STORAGE === "s3") return new S3FileStore(s3SettingsOf(env), path.join(env.DATA_DIR, "files", "tmp"));
  return new LocalFileStore(env.DATA_DIR);
}
