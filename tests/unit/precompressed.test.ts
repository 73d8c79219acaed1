import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { AddressInfo } from "node:net";
import express from "express";
import compression from "compression";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptedEncodings, precompressedAssets } from "../../server/http/precompressed";

describe("precompressed build assets (ADR 080)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "precompressed-"));
  const source = "export const x = 1;\n".repeat(200);
  let base = "";
  let server: ReturnType<ReturnType<typeof express>["listen"]>;
  beforeAll(async () => {
    fs.writeFileSync(path.join(dir, "a.js"), source);
    fs.writeFileSync(path.join(dir, "a.js.br"), zlib.brotliCompressSync(source));
    fs.writeFileSync(path.join(dir, "a.js.gz"), zlib.gzipSync(source));
    fs.writeFileSync(path.join(dir, "b.js"), source);
    const app = express();
    app.use(compression());
    app.use("/assets", precompressedAssets(dir, { maxAge: "31536000" }));
    app.use("/assets", express.static(dir));
    await new Promise<void>((resolve) => (server = app.listen(0, "127.0.0.1", resolve)));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/assets`;
  });
  afterAll(() => server.close());

  const get = (name: string, encoding: string) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      // node:http, not fetch: fetch would decode the body and hide what was sent.
      import("node:http").then(({ get: httpGet }) =>
        httpGet(`${base}/${name}`, { headers: { "accept-encoding": encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        }).on("error", reject),
      );
    });

  it("sends the brotli file to a browser that accepts br, with the script's type and an immutable cache", async () => {
    const r = await get("a.js", "gzip, deflate, br, zstd");
    expect(r.status).toBe(200);
    expect(r.headers["content-encoding"]).toBe("br");
    expect(r.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(r.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(r.headers["vary"]).toMatch(/Accept-Encoding/i);
    expect(zlib.brotliDecompressSync(r.body).toString()).toBe(source);
  });

  it("sends the gzip file when br is not accepted, and the plain file when nothing is", async () => {
    const gz = await get("a.js", "gzip, br;q=0");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).toString()).toBe(source);
    const plain = await get("a.js", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(source);
  });

  it("leaves a file without a compressed copy to the compression middleware", async () => {
    const r = await get("b.js", "br");
    expect(r.status).toBe(200);
    expect(r.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(r.body).toString()).toBe(source);
  });

  it("reads Accept-Encoding with q values", () => {
    expect([...acceptedEncodings("gzip, deflate, br, zstd")]).toEqual(["gzip", "deflate", "br", "zstd"]);
    expect([...acceptedEncodings("br;q=0, gzip;q=0.5")]).toEqual(["gzip"]);
    expect(acceptedEncodings("").size).toBe(0);
  });
});
