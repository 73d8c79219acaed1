// A small S3-compatible server for the tests (ADR 078): what @aws-sdk/client-s3 and lib-storage's Upload call,
// path-style (`/bucket/key`) — PUT/GET/HEAD/DELETE object (GET with Range), multipart create / upload part /
// complete / abort, create bucket. Objects are files in a folder of its own, streamed in and out, so a test can
// push hundreds of megabytes through it. Every request must carry a SigV4 Authorization header for the configured
// access key (the signature itself is the SDK's business: the production path is the real SDK against a real
// store). npm has no S3 server that handles SigV4 and multipart from the v3 SDK without a network install.
import fs from "node:fs";
import fsp from "node:fs/promises";
import http from "node:http";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import { createHash, randomBytes } from "node:crypto";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import type { AddressInfo } from "node:net";

export interface S3TestServer {
  url: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  dir: string;
  /** Requests by kind (`PutObject`, `UploadPart`, `GetObject`…), to check what the client did. */
  counts: Record<string, number>;
  /** Requests refused for a missing or foreign signature. */
  unsigned: number;
  /** Keys stored now. */
  keys(): Promise<string[]>;
  /** Bytes of one object, or null. */
  object(key: string): Promise<Buffer | null>;
  close(): Promise<void>;
}

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Starts the server on 127.0.0.1 (`port` 0: a free one); objects live under a new temporary folder. */
export async function startS3TestServer(options: { port?: number; bucket?: string; dir?: string } = {}): Promise<S3TestServer> {
  const bucket = options.bucket ?? "portal-test";
  const accessKeyId = "TESTACCESSKEY";
  const secretAccessKey = "test-secret-key";
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "s3-test-"));
  const objects = path.join(dir, "objects");
  const uploads = path.join(dir, "uploads");
  await fsp.mkdir(objects, { recursive: true });
  await fsp.mkdir(uploads, { recursive: true });
  const counts: Record<string, number> = {};
  const state = { unsigned: 0 };
  // Keys are stored as one file each, named by their hex (no folders to walk, any key is a valid name).
  const fileOf = (key: string) => path.join(objects, Buffer.from(key).toString("hex"));
  const count = (op: string) => (counts[op] = (counts[op] ?? 0) + 1);

  const send = (res: http.ServerResponse, status: number, body = "", headers: Record<string, string> = {}) => {
    res.writeHead(status, { "Content-Type": "application/xml", "Content-Length": String(Buffer.byteLength(body)), ...headers });
    res.end(body);
  };
  const error = (res: http.ServerResponse, status: number, code: string, message: string, head = false) =>
    send(res, status, head ? "" : xml(`<Error><Code>${code}</Code><Message>${esc(message)}</Message></Error>`));

  /** Streams the request body into `file`, returning its MD5 (the ETag S3 gives a single-part object). */
  async function receive(req: http.IncomingMessage, file: string): Promise<string> {
    const md5 = createHash("md5");
    const tap = new Transform({
      transform(chunk: Buffer, _enc, done) {
        md5.update(chunk);
        done(null, chunk);
      },
    });
    const part = `${file}.${randomBytes(4).toString("hex")}.tmp`;
    await pipeline(req, tap, fs.createWriteStream(part));
    await fsp.rename(part, file);
    return md5.digest("hex");
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://s3.test");
    const method = req.method ?? "GET";
    const auth = String(req.headers.authorization ?? "");
    if (
      !auth.startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/`) ||
      !/Signature=[0-9a-f]{64}/.test(auth) ||
      !req.headers["x-amz-date"]
    ) {
      state.unsigned++;
      req.resume();
      return error(res, 403, "AccessDenied", "a SigV4 signature of the test key is required", method === "HEAD");
    }
    // Bodies sent in aws-chunked encoding (the SDK's checksum trailers) are not understood here; the portal's
    // client asks for checksums only where S3 requires them, so none should arrive.
    if (String(req.headers["x-amz-content-sha256"] ?? "").startsWith("STREAMING-") || req.headers["content-encoding"] === "aws-chunked") {
      req.resume();
      return error(res, 501, "NotImplemented", "aws-chunked bodies are not supported by the test server");
    }
    const [, b, ...rest] = url.pathname.split("/");
    const key = decodeURIComponent(rest.join("/"));
    if (b !== bucket) {
      req.resume();
      return error(res, 404, "NoSuchBucket", `no bucket ${b}`);
    }
    if (!key) {
      req.resume();
      count(method === "PUT" ? "CreateBucket" : "Bucket");
      return send(res, 200);
    }
    const q = url.searchParams;
    if (method === "POST" && q.has("uploads")) {
      count("CreateMultipartUpload");
      const id = randomBytes(12).toString("hex");
      await fsp.mkdir(path.join(uploads, id));
      req.resume();
      return send(
        res,
        200,
        xml(
          `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${esc(key)}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
        ),
      );
    }
    const uploadId = q.get("uploadId");
    if (uploadId !== null) {
      const updir = path.join(uploads, uploadId.replace(/[^0-9a-f]/g, ""));
      if (!fs.existsSync(updir)) {
        req.resume();
        return error(res, 404, "NoSuchUpload", "no such upload");
      }
      if (method === "PUT") {
        count("UploadPart");
        const n = Number(q.get("partNumber"));
        const etag = await receive(req, path.join(updir, String(n).padStart(5, "0")));
        return send(res, 200, "", { ETag: `"${etag}"` });
      }
      if (method === "DELETE") {
        count("AbortMultipartUpload");
        req.resume();
        await fsp.rm(updir, { recursive: true, force: true });
        return send(res, 204);
      }
      if (method === "POST") {
        count("CompleteMultipartUpload");
        let body = "";
        for await (const chunk of req) body += String(chunk);
        const numbers = [...body.matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
        const target = fileOf(key);
        const part = `${target}.${randomBytes(4).toString("hex")}.tmp`;
        const out = fs.createWriteStream(part);
        for (const n of numbers)
          for await (const chunk of fs.createReadStream(path.join(updir, String(n).padStart(5, "0"))))
            if (!out.write(chunk)) await once(out, "drain");
        await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
        await fsp.rename(part, target);
        await fsp.rm(updir, { recursive: true, force: true });
        return send(
          res,
          200,
          xml(
            `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${esc(key)}</Key><ETag>"${randomBytes(16).toString("hex")}-${numbers.length}"</ETag></CompleteMultipartUploadResult>`,
          ),
        );
      }
    }
    const file = fileOf(key);
    if (method === "PUT") {
      count("PutObject");
      const etag = await receive(req, file);
      return send(res, 200, "", { ETag: `"${etag}"` });
    }
    req.resume();
    if (method === "DELETE") {
      count("DeleteObject");
      await fsp.rm(file, { force: true });
      return send(res, 204);
    }
    if (method === "GET" || method === "HEAD") {
      count(method === "GET" ? "GetObject" : "HeadObject");
      const stat = await fsp.stat(file).catch(() => null);
      if (!stat) return error(res, 404, method === "GET" ? "NoSuchKey" : "NotFound", "no such key", method === "HEAD");
      let start = 0;
      let end = stat.size - 1;
      let status = 200;
      const headers: Record<string, string> = { "Content-Type": "application/octet-stream", ETag: `"${stat.size}-${stat.mtimeMs}"` };
      const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ""));
      if (method === "GET" && range) {
        start = Number(range[1]);
        end = range[2] ? Math.min(Number(range[2]), stat.size - 1) : stat.size - 1;
        status = 206;
        headers["Content-Range"] = `bytes ${start}-${end}/${stat.size}`;
      }
      headers["Content-Length"] = String(Math.max(0, end - start + 1));
      res.writeHead(status, headers);
      if (method === "HEAD" || stat.size === 0) return void res.end();
      await pipeline(fs.createReadStream(file, { start, end }), res);
      return;
    }
    return error(res, 405, "MethodNotAllowed", `${method} is not supported`);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: Error) => {
      if (!res.headersSent) error(res, 500, "InternalError", e.message);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId,
    secretAccessKey,
    dir,
    counts,
    get unsigned() {
      return state.unsigned;
    },
    async keys() {
      return (await fsp.readdir(objects)).filter((n) => !n.endsWith(".tmp")).map((n) => Buffer.from(n, "hex").toString());
    },
    async object(key: string) {
      return fsp.readFile(fileOf(key)).catch(() => null);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!options.dir) await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

/** The portal's variables for this server (STORAGE=s3 and the rest). */
export function s3Env(s3: Pick<S3TestServer, "url" | "bucket" | "accessKeyId" | "secretAccessKey">): Record<string, string> {
  return {
    STORAGE: "s3",
    S3_ENDPOINT: s3.url,
    S3_BUCKET: s3.bucket,
    S3_REGION: "us-east-1",
    S3_FORCE_PATH_STYLE: "true",
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
}
