// Build assets compressed ahead of time (vite.config.ts writes x.js.br and x.js.gz beside x.js at the highest
// levels): sent as they are when the browser accepts them, instead of compressing on every request at the
// compression middleware's brotli level 4. ~13 % less first-load JavaScript (issue 26 §4, ADR 080).
import fs from "node:fs";
import path from "node:path";
import type { RequestHandler } from "express";

const TYPES: Record<string, string> = { ".js": "application/javascript; charset=UTF-8", ".css": "text/css; charset=UTF-8" };
const ENCODINGS = [
  { token: "br", suffix: ".br" },
  { token: "gzip", suffix: ".gz" },
] as const;

/** Serves `<dir>/<name>.br|.gz` for GET/HEAD of `<name>` (.js, .css) when it exists and the request accepts it. */
export function precompressedAssets(dir: string, options: { maxAge: string }): RequestHandler {
  // Which compressed files the build wrote, read once (the build does not change while the process runs).
  const present = new Set(fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  const cacheControl = `public, max-age=${options.maxAge}, immutable`;
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const name = req.path.slice(1);
    const type = TYPES[path.extname(name)];
    if (!type || name.includes("/")) return next();
    const accepted = acceptedEncodings(String(req.headers["accept-encoding"] ?? ""));
    const encoding = ENCODINGS.find((e) => accepted.has(e.token) && present.has(name + e.suffix));
    res.vary("Accept-Encoding");
    if (!encoding) return next();
    res.setHeader("Content-Type", type);
    res.setHeader("Content-Encoding", encoding.token);
    res.setHeader("Cache-Control", cacheControl);
    res.sendFile(path.join(dir, name + encoding.suffix), { dotfiles: "deny", cacheControl: false, lastModified: true }, (err) => {
      if (err && !res.headersSent) next();
    });
  };
}

/** The encodings an Accept-Encoding header accepts (those with q=0 refused). */
export function acceptedEncodings(header: string): Set<string> {
  const accepted = new Set<string>();
  for (const part of header.split(",")) {
    const [token, ...params] = part.split(";").map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    if (token && !(q && Number(q.slice(2)) === 0)) accepted.add(token);
  }
  return accepted;
}
