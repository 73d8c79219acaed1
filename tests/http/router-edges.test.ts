// Request shapes no router reads (issue 20 §3, ADR 047), each a 500 before: a path that decodes to a backslash
// or a control character (`/%5C/login`: Remix's `new URL("/\\")` threw), an asterisk or absolute-form request
// target, TRACE on a page (fetch's Request refuses it), a compressed body (read as the form itself), and a
// client hanging up mid-body (Node's "aborted", code ECONNRESET, taken for a database outage: every page 503).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPortal, type TestPortal } from "../helpers/portal";
import { sendRaw, type RawRequest } from "../helpers/raw-socket";

let portal: TestPortal;
let port: number;
beforeAll(async () => {
  portal = await startTestPortal();
  port = Number(new URL(portal.url).port);
});
afterAll(async () => portal?.stop());

const raw = (method: string, target: string, headers: Record<string, string> = {}, body = "", then: RawRequest["then"] = "answer") =>
  sendRaw(port, {
    method,
    target,
    headers: { host: `127.0.0.1:${port}`, connection: "close", "content-length": String(Buffer.byteLength(body)), ...headers },
    body: Buffer.from(body),
    then,
  });

describe("paths that decode to a backslash or a control character", () => {
  it.each(["/%5C/login", "/%5C", "/%5c%5c", "/%09/login", "/%0A", "/%0d/en", "/en/%5C", "/%7F"])("%s is a translated 400", async (path) => {
    const r = await raw("GET", path, { "accept-language": "zh-CN" });
    expect(r.status).toBe(400);
    expect(r.headers["content-type"]).toMatch(/html/);
    // The path's language, else the visitor's.
    expect(r.text).toContain(path.startsWith("/en/") ? "Bad request" : "请求无效");
  });

  it("is a JSON 400 under /api", async () => {
    const r = await raw("GET", "/api/%5C");
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toEqual({ error: "invalid-path" });
  });
});

describe("request targets", () => {
  it.each(["GET", "POST", "HEAD"])("%s * is a 400", async (method) => {
    const r = await raw(method, "*", { "accept-language": "ja" });
    expect(r.status).toBe(400);
    if (method !== "HEAD") expect(r.text).toContain("無効なリクエスト");
  });

  it("OPTIONS * is told the methods", async () => {
    const r = await raw("OPTIONS", "*");
    expect(r.status).toBe(204);
    expect(r.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE");
  });

  it("an absolute-form target naming this host is read as its path; another host is a 400", async () => {
    const own = await raw("GET", `http://127.0.0.1:${port}/en/login`);
    expect(own.status).toBe(200);
    expect(own.text).toContain("<html");
    const other = await raw("GET", "http://elsewhere.example/en/login");
    expect(other.status).toBe(400);
    expect((await raw("GET", "mailto:a@b.example")).status).toBe(400);
  });
});

describe("methods no page takes", () => {
  it.each(["TRACE", "PROPFIND", "MKCOL", "OPTIONS"])("%s on a page is a translated 405 with Allow", async (method) => {
    const r = await raw(method, "/es/login");
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE");
    expect(r.text).toContain("Las páginas del portal no responden a solicitudes de este tipo");
  });

  it("TRACE on the home page, /healthz and a static file is a 405 too", async () => {
    for (const path of ["/", "/healthz", "/favicon.ico"]) expect((await raw("TRACE", path)).status, path).toBe(405);
  });

  it("the API answers its own paths' methods: TRACE is its 405 with Allow", async () => {
    const r = await raw("TRACE", "/api/account");
    expect(r.status).toBe(405);
    expect(r.headers.allow).toContain("GET");
    expect(JSON.parse(r.text)).toEqual({ error: "method-not-allowed" });
  });
});

describe("compressed bodies", () => {
  const login = JSON.stringify({ email: "nobody@example.com", password: "x" });

  it.each(["gzip", "deflate", "br", "x-foo", "gzip, identity"])(
    "Content-Encoding %s is a 415 on the API and on a page",
    async (encoding) => {
      const api = await raw("POST", "/api/auth/login", { "content-type": "application/json", "content-encoding": encoding }, login);
      expect(api.status).toBe(415);
      expect(api.headers["accept-encoding"]).toBe("identity");
      expect(JSON.parse(api.text)).toEqual({ error: "unsupported-content-encoding" });
      const page = await raw(
        "POST",
        "/br/login",
        { "content-type": "application/x-www-form-urlencoded", "content-encoding": encoding },
        "email=a%40b.example&password=x",
      );
      expect(page.status).toBe(415);
      expect(page.text).toContain("Este formulário foi enviado compactado");
    },
  );

  it("identity, or an encoding without a body, changes nothing", async () => {
    const r = await raw("POST", "/api/auth/login", { "content-type": "application/json", "content-encoding": "identity" }, login);
    expect(r.status).toBe(401);
    expect((await raw("GET", "/en/login", { "content-encoding": "gzip" })).status).toBe(200);
  });
});

describe("a client that hangs up mid-body", () => {
  it("is not a database outage: the next visitor gets the page, not a 503", async () => {
    const hangUp = await raw(
      "POST",
      "/api/auth/login",
      { "content-type": "application/json", "content-length": "1000" },
      '{"email":"a@b.example",',
      "destroy",
    );
    expect(hangUp.end).toBe("hung-up");
    // The server has read the cut body by now (the hang-up waits 30 ms): its "aborted" error has been handled.
    await new Promise((r) => setTimeout(r, 100));
    expect((await raw("GET", "/en/login")).status).toBe(200);
    expect((await raw("GET", "/api/application")).status).toBe(200);
  });
});
