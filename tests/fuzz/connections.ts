// The fuzz suite's connection inputs (issue 20 §3, ADR 047): for every target that reads a body, the ways a
// client breaks the body or the connection rather than the content: a multipart part that never closes, a body
// shorter than its Content-Length (the client then hangs up, or stalls), a hang-up after 1 byte, after a part's
// headers and in the middle of a file, compressed bodies (gzip, deflate) and an encoding nobody takes. And the
// request shapes no router reads: odd methods on pages, an asterisk target, an absolute-form target, a path
// that decodes to a backslash or a control character.
import zlib from "node:zlib";
import type { Target } from "./targets";
import type { RawRequest, Then } from "../helpers/raw-socket";

export type Identity = "anonymous" | "researcher" | "staff";

/** What the portal process holds for the cases: filled in at send time (a restarted portal has new ones). */
export interface PortalInfo {
  url: string;
  port: number;
  researcher: string;
  staff: string;
  identity: string;
  formId: string;
}

/** What an answer must be. */
export type Expect =
  /** Any answer below 500, or the connection closed by the server (nothing to read: the body never came). */
  | "no-5xx"
  /** A 4xx: a compressed body is refused (415) or, were it decoded, its content refused; never read as a form. */
  | "4xx"
  /** 400, 404 or 405 (a 405 with Allow): a request shape no page reads. */
  | "refused"
  /** Only the health check afterwards: the client hung up, no answer is to be had. */
  | "none";

export interface ConnectionCase {
  kind: string;
  who: Identity;
  /** The target it aims at; undefined for the portal-wide shapes (asterisk, `/%5C`). */
  target?: Target;
  expect: Expect;
  /** The request, for the portal as it now is. */
  request(p: PortalInfo): RawRequest;
}

/** Values for path parameters that reach the handlers: the researcher's own draft and identity, a certificate code's shape. */
export function fillPath(pattern: string, p: PortalInfo): string {
  const [pathPart, search] = pattern.split("?");
  const filled = pathPart
    .split("/")
    .map((seg) => {
      if (seg === "*") return "x";
      if (!seg.startsWith(":")) return seg;
      const name = seg.replace(/^:|\?$/g, "");
      if (seg.endsWith("?")) return null;
      if (name === "lang") return "en";
      if (name === "id" && pathPart.startsWith("/api/order-form")) return p.formId;
      if (name === "identity") return p.identity;
      // Certificate codes are 16 letters of this alphabet (the check-file form reads its body for any such code).
      if (name === "code") return "ABCDEFGHJKLMNPQR";
      if (/id$|number|Number/i.test(name)) return "1";
      return "x";
    })
    .filter((s) => s !== null)
    .join("/");
  return search ? `${filled}?${search}` : filled;
}

/** Who sends a target's connection inputs: whoever its body is read for (the API checks auth before the body). */
export function identitiesFor(t: Target): Identity[] {
  if (t.kind === "api") {
    if (t.auth === "staff") return ["staff"];
    if (t.auth === "none") return ["anonymous"];
    // Optional (the certificate file check, payment returns): read for anyone, so both.
    return t.auth === "optional" ? ["anonymous", "researcher"] : ["researcher"];
  }
  if (t.pattern.includes("/staff")) return ["staff"];
  if (/\/(researcher|account)\b/.test(t.pattern)) return ["researcher"];
  // Public pages (sign-in, registration, certificates, support): as a visitor and as a signed-in researcher.
  return ["anonymous", "researcher"];
}

const BOUNDARY = "X";
const FILE_PART_HEAD = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n`;
/** A whole multipart form: a field and a 64 kB text file. */
const FILE_BYTES = Buffer.alloc(64 * 1024, "manuscript text ");
const MULTIPART_FULL = Buffer.concat([
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n` + FILE_PART_HEAD),
  FILE_BYTES,
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);
const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const FORM = Buffer.from("intent=save&email=a%40b.example&name=x&title=x");
const JSON_BODY = Buffer.from('{"intent":"save","email":"a@b.example","name":"x","title":"x"}');

/** The body a target reads, whole: a form for pages, JSON or a multipart upload for the API. */
function natural(t: Target): { type: string; body: Buffer } {
  if (t.body === "json") return { type: "application/json", body: JSON_BODY };
  if (t.body === "stream") return { type: MULTIPART_TYPE, body: MULTIPART_FULL };
  return { type: "application/x-www-form-urlencoded", body: FORM };
}

export interface ConnectionOptions {
  /** Whether this target also gets the stalled body (about a second each: sampled). */
  stall: boolean;
}

/** The connection inputs of one target, as `who`. */
export function connectionCases(t: Target, who: Identity, options: ConnectionOptions): ConnectionCase[] {
  const headers = (p: PortalInfo, type: string, length: number, extra: Record<string, string> = {}) => {
    const h: Record<string, string> = {
      host: `127.0.0.1:${p.port}`,
      // The portal's own origin: the cross-site check lets the request reach its handler.
      origin: p.url,
      "content-type": type,
      "content-length": String(length),
      connection: "close",
      ...extra,
    };
    const cookie = who === "anonymous" ? "" : who === "researcher" ? p.researcher : p.staff;
    if (cookie) h.cookie = cookie;
    return h;
  };
  const make = (kind: string, expect: Expect, build: (p: PortalInfo) => Omit<RawRequest, "method" | "target">): ConnectionCase => ({
    kind,
    who,
    target: t,
    expect,
    request: (p) => ({ method: t.method, target: fillPath(t.pattern, p), ...build(p) }),
  });
  /** `sent` bytes of a body whose Content-Length says `declared`, then `then`. */
  const cut = (kind: string, type: string, sent: Buffer, declared: number, then: Then, expect: Expect) =>
    make(kind, expect, (p) => ({ headers: headers(p, type, declared), body: sent, then }));

  const { type, body } = natural(t);
  const unclosed = Buffer.from(FILE_PART_HEAD + "hello");
  const partHeadEnd = MULTIPART_FULL.indexOf(FILE_PART_HEAD) + FILE_PART_HEAD.length;
  const cases: ConnectionCase[] = [
    // The 120 bytes: the body is all there (Content-Length is right), the part never closes.
    cut("unclosed-part", MULTIPART_TYPE, unclosed, unclosed.length, "answer", "no-5xx"),
    cut("short-body", type, body.subarray(0, Math.floor(body.length / 2)), body.length, "end", "no-5xx"),
    cut("disconnect-1-byte", type, body.subarray(0, 1), body.length, "destroy", "none"),
    cut("disconnect-part-headers", MULTIPART_TYPE, MULTIPART_FULL.subarray(0, partHeadEnd), MULTIPART_FULL.length, "destroy", "none"),
    cut(
      "disconnect-mid-file",
      MULTIPART_TYPE,
      MULTIPART_FULL.subarray(0, partHeadEnd + FILE_BYTES.length / 2),
      MULTIPART_FULL.length,
      "destroy",
      "none",
    ),
  ];
  if (options.stall)
    cases.push(cut("short-body-stall", type, body.subarray(0, Math.floor(body.length / 2)), body.length, "stall", "no-5xx"));
  // Compressed bodies of each kind the portal reads, and encodings nobody takes.
  const plain: [string, string, Buffer][] = [
    ["form", "application/x-www-form-urlencoded", FORM],
    ["json", "application/json", JSON_BODY],
    ["multipart", MULTIPART_TYPE, MULTIPART_FULL],
  ];
  for (const [name, encode] of [
    ["gzip", zlib.gzipSync],
    ["deflate", zlib.deflateSync],
  ] as const) {
    for (const [what, ctype, bytes] of plain) {
      const encoded = encode(bytes);
      cases.push(
        make(`${name}-${what}`, "4xx", (p) => ({
          headers: headers(p, ctype, encoded.length, { "content-encoding": name }),
          body: encoded,
          then: "answer",
        })),
      );
    }
  }
  for (const encoding of ["br", "x-foo"])
    cases.push(
      make(`encoding-${encoding}`, "4xx", (p) => ({
        headers: headers(p, type, body.length, { "content-encoding": encoding }),
        body,
        then: "answer",
      })),
    );
  // Methods no page takes (TRACE, which fetch's Request refuses outright, and a WebDAV one).
  if (t.kind === "page")
    for (const method of ["TRACE", "PROPFIND"])
      cases.push({
        kind: `method-${method.toLowerCase()}`,
        who,
        target: t,
        expect: "refused",
        request: (p) => ({ method, target: fillPath(t.pattern, p), headers: headers(p, type, 0), body: Buffer.alloc(0), then: "answer" }),
      });
  return cases;
}

/** Request shapes no router reads, once for the portal: asterisk and absolute-form targets, paths that decode to `\` or a control. */
export function oddRequestCases(): ConnectionCase[] {
  const odd = (kind: string, method: string, target: string | ((p: PortalInfo) => string), expect: Expect = "refused"): ConnectionCase => ({
    kind,
    who: "anonymous",
    expect,
    request: (p) => ({
      method,
      target: typeof target === "string" ? target : target(p),
      headers: { host: `127.0.0.1:${p.port}`, origin: p.url, "content-length": "0", connection: "close" },
      body: Buffer.alloc(0),
      then: "answer",
    }),
  });
  return [
    odd("asterisk", "GET", "*"),
    odd("asterisk", "POST", "*"),
    odd("asterisk", "OPTIONS", "*", "no-5xx"),
    odd("absolute-form", "GET", (p) => `${p.url}/en/login`, "no-5xx"),
    odd("absolute-form", "GET", "http://elsewhere.example/en/login"),
    ...["/%5C/login", "/%5C", "/%5c%5c", "/%09/login", "/%0A", "/en/%5C", "/api/%5C"].map((path) => odd("odd-path", "GET", path)),
    odd("method-trace", "TRACE", "/en/login"),
    odd("method-trace", "TRACE", "/"),
    odd("method-trace", "TRACE", "/healthz"),
  ];
}
