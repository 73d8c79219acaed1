// Requests over a raw socket (node:net): node:http cannot send an asterisk target, a Content-Length longer
// than the body, or hang up after a given byte (the fuzz suite's connection inputs, ADR 047; tests/http).
import http from "node:http";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/** What the client does once the bytes are written. */
export type Then =
  /** Reads the answer (the request is complete). */
  | "answer"
  /** Half-closes (FIN) and reads whatever comes back: a body cut short, then the client gone. */
  | "end"
  /** Waits with the body incomplete: the server's request deadline (a 408) or an early answer must end it. */
  | "stall"
  /** Hangs up at once: a client that disconnects after these bytes. */
  | "destroy";

export interface RawRequest {
  method: string;
  /** The request target as sent: `/en/login`, `*`, `http://host/path`. */
  target: string;
  headers: Record<string, string>;
  /** The body bytes actually sent (the Content-Length header, if any, is in `headers`). */
  body: Buffer;
  then: Then;
}

export interface RawAnswer {
  /** The status code; 0 when nothing came back before the client gave up or hung up; -1 for a connection error. */
  status: number;
  /** How the exchange ended: `answered`, `closed` (by the server, no answer), `timeout`, `hung-up` (by the client), `error`. */
  end: "answered" | "closed" | "timeout" | "hung-up" | "error";
  headers: Record<string, string>;
  text: string;
  ms: number;
  error?: string;
}

const WAIT_MS = { answer: 10_000, end: 5_000, stall: 6_000, destroy: 0 } as const;

/** Sends one request over a fresh connection to 127.0.0.1:`port` and does what `then` says. */
export function sendRaw(port: number, r: RawRequest): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    const socket = net.connect(port, "127.0.0.1");
    const finish = (end: RawAnswer["end"], error?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const bytes = Buffer.concat(chunks);
      const split = bytes.indexOf("\r\n\r\n");
      const head = (split < 0 ? bytes : bytes.subarray(0, split)).toString("latin1");
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      const headers: Record<string, string> = {};
      for (const line of head.split("\r\n").slice(1)) {
        const i = line.indexOf(":");
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const status = m ? Number(m[1]) : end === "error" ? -1 : 0;
      resolve({
        status,
        end: m ? "answered" : end,
        headers,
        text: split < 0 ? "" : bytes.subarray(split + 4).toString("utf8"),
        ms: Math.round(performance.now() - started),
        error,
      });
    };
    let timer: NodeJS.Timeout | undefined;
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("end", () => finish("closed"));
    socket.on("close", () => finish("closed"));
    socket.on("error", (e) => finish(chunks.length ? "closed" : "error", e.message));
    socket.on("connect", async () => {
      const head = [`${r.method} ${r.target} HTTP/1.1`, ...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`), "", ""].join("\r\n");
      socket.write(head);
      if (r.body.length) socket.write(r.body);
      if (r.then === "destroy") {
        // Long enough for the server to read what was sent (a part's headers reach busboy) before the hang-up.
        await sleep(30);
        return finish("hung-up");
      }
      if (r.then === "end") socket.end();
      timer = setTimeout(() => finish("timeout"), WAIT_MS[r.then]);
    });
  });
}

export interface Health {
  ok: boolean;
  pid?: number;
  error?: string;
}

/** GET /healthz on a fresh connection: whether the process answers, and its pid. */
export function health(port: number, timeoutMs = 5_000): Promise<Health> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/healthz", agent: false, timeout: timeoutMs }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => {
        try {
          const body = JSON.parse(text) as { pid?: number };
          resolve({ ok: res.statusCode === 200, pid: body.pid });
        } catch {
          resolve({ ok: false, error: `${res.statusCode} ${text.slice(0, 100)}` });
        }
      });
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 5 s")));
    req.on("error", (e) => resolve({ ok: false, error: e.message }));
  });
}

/** A multipart body of one file part (and text fields before it), optionally cut off or left unclosed. */
export function multipartBody(boundary: string, fields: Record<string, string>, file: { field: string; name: string; content: string }) {
  const texts = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join("");
  const partHead = `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const whole = `${texts}${partHead}${file.content}\r\n--${boundary}--\r\n`;
  return {
    /** Everything, closed properly. */
    whole,
    /** The part never closes: no closing boundary ever comes (Content-Length matches what is sent). */
    unclosed: `${texts}${partHead}${file.content}`,
    /** Up to the end of the file part's headers. */
    throughPartHeaders: `${texts}${partHead}`,
    /** Up to the middle of the file's content. */
    midFile: `${texts}${partHead}${file.content.slice(0, Math.floor(file.content.length / 2))}`,
  };
}
