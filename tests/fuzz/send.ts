// Raw HTTP for the fuzzer: node:http rather than fetch, which would add a Content-Type to a text body,
// normalise the path and refuse some headers. A case's answer: status, time, and the body's start.
import http from "node:http";
import type { Case } from "./inputs";

export interface Answer {
  /** 0: no answer within the timeout, -1: the connection failed before any answer. */
  status: number;
  ms: number;
  type: string;
  /** The answer's first 2 MB, as text. */
  text: string;
  setCookie: string[];
  error?: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const TIMEOUT_MS = 15_000;

export function send(base: URL, c: Case, cookie: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = (a: Omit<Answer, "ms">) => {
      if (done) return;
      done = true;
      resolve({ ...a, ms: Math.round(performance.now() - started) });
    };
    const headers: Record<string, string> = { ...c.headers };
    if (cookie) headers.cookie = cookie;
    if (Buffer.isBuffer(c.body)) headers["content-length"] = String(c.body.length);
    const req = http.request({ host: base.hostname, port: base.port, method: c.method, path: c.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (d: Buffer) => {
        if (size < 2 * 1024 * 1024) chunks.push(d);
        size += d.length;
      });
      const end = () =>
        finish({
          status: res.statusCode ?? -1,
          type: String(res.headers["content-type"] ?? ""),
          text: Buffer.concat(chunks).toString("utf8"),
          setCookie: res.headers["set-cookie"] ?? [],
        });
      res.on("end", end);
      res.on("error", end);
      res.on("close", end);
    });
    req.setTimeout(TIMEOUT_MS, () => {
      finish({ status: 0, type: "", text: "", setCookie: [], error: "timeout" });
      req.destroy();
    });
    // An answer already received wins over a write error (the server closed after answering early).
    req.on("error", (e) => finish({ status: -1, type: "", text: "", setCookie: [], error: e.message }));
    if (Buffer.isBuffer(c.body)) req.end(c.body);
    else if (c.body) {
      const chunks = (c.body as { chunks: Buffer[] }).chunks;
      const next = (i: number) => {
        if (i >= chunks.length) return void req.end();
        if (req.destroyed) return;
        req.write(chunks[i], () => next(i + 1));
      };
      next(0);
    } else req.end();
  });
}

/** Runs `work` over `items`, `limit` at a time. */
export async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
