// Requests as a broken or hostile client sends them, over a plain socket: a body that stops short of its
// Content-Length, a client that goes away after any number of bytes, a body that stalls (issue 20 §1).
import net from "node:net";

export interface RawOutcome {
  /** The status line's code, or null when the server closed the connection without answering. */
  status: number | null;
  /** Everything the server sent. */
  response: string;
  /** How the exchange ended: the server answered or closed, the client hung up, or the wait ran out. */
  ended: "answered" | "closed" | "client-left" | "timeout";
}

export interface RawRequest {
  port: number;
  method?: string;
  path: string;
  headers: Record<string, string>;
  /** The bytes that are sent after the headers (a whole body, or the start of one). */
  body: Buffer | string;
  /** Content-Length to declare; default the length of `body`. */
  contentLength?: number;
  /** After sending: wait for the answer ("wait"), hang up at once ("leave"), or half-close and wait ("end"). */
  then?: "wait" | "leave" | "end";
  /** How long to wait for an answer. */
  timeoutMs?: number;
}

/** Sends one request over its own connection and reports how it ended. */
export function rawRequest(r: RawRequest): Promise<RawOutcome> {
  const body = Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body, "utf8");
  const headers = {
    Host: `127.0.0.1:${r.port}`,
    Connection: "close",
    ...r.headers,
    "Content-Length": String(r.contentLength ?? body.length),
  };
  const head = `${r.method ?? "POST"} ${r.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\r\n")}\r\n\r\n`;
  return new Promise((resolve) => {
    const socket = net.connect(r.port, "127.0.0.1");
    let response = "";
    let done = false;
    const finish = (ended: RawOutcome["ended"]) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(response);
      resolve({ status: m ? Number(m[1]) : null, response, ended: m && ended === "closed" ? "answered" : ended });
    };
    const timer = setTimeout(() => finish("timeout"), r.timeoutMs ?? 10_000);
    socket.on("data", (d) => (response += d.toString("latin1")));
    socket.on("error", () => finish("closed"));
    socket.on("close", () => finish("closed"));
    socket.on("connect", () => {
      socket.write(head);
      if (body.length) socket.write(body);
      if (r.then === "leave") setTimeout(() => finish("client-left"), 20);
      else if (r.then === "end") socket.end();
    });
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
