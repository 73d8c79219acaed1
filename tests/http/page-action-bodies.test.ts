// What the fuzz suite (tests/fuzz, ADR 043) found answering 500, each pinned here (issue 14):
// - staff "view as" (POST /{lang}/staff?index) with an identity that is no UUID: PostgreSQL refused to compare
//   it with the uuid column, so every malformed staff post (empty, 10,000 fields, script, numbers) was a 500;
// - a staff form of 10,000 fields is a 413 like a 5 MB or a 2 MB chunked one, with a translated page;
// - a JSON body nested 10,000 deep overflowed the call stack of the API's character check.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, type SignedInUser, type TestPortal } from "../helpers/portal";

let portal: TestPortal;
let staff: SignedInUser;
beforeAll(async () => {
  portal = await startRelaxedPortal();
  staff = await portal.staff();
}, 60_000);
afterAll(async () => portal?.stop());

/** A raw POST (node:http: a chunked body, no fetch normalisation); the status and the answer's text. */
function post(path: string, type: string, body: Buffer | Buffer[], cookie = ""): Promise<{ status: number; text: string }> {
  const url = new URL(portal.url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "content-type": type, cookie };
    if (Buffer.isBuffer(body)) headers["content-length"] = String(body.length);
    const req = http.request({ host: url.hostname, port: url.port, method: "POST", path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (d: Buffer) => chunks.push(d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
    });
    // The server answers a large body early and closes; the answer already came.
    req.on("error", (e) => (Buffer.isBuffer(body) && body.length > 1024 * 1024 ? undefined : reject(e)));
    if (Buffer.isBuffer(body)) req.end(body);
    else {
      const next = (i: number) => (i >= body.length || req.destroyed ? req.end() : req.write(body[i], () => next(i + 1)));
      next(0);
    }
  });
}

const FORM = "application/x-www-form-urlencoded";

describe("page actions the fuzz suite broke", () => {
  it("staff 'view as' with an identity that is no UUID is the page's translated not-found, not a 500", async () => {
    const cookie = staff.client.cookieHeader();
    for (const identity of ["", "x", "' OR 1=1; --", "9007199254740993", "<script>alert(1)</script>"]) {
      const r = await post("/br/staff?index", FORM, Buffer.from(new URLSearchParams({ identity }).toString()), cookie);
      expect(r.status, identity).toBe(404);
      expect(r.text).toContain("Esse pesquisador não foi encontrado ou não está ativo.");
      expect(r.text).not.toContain("<script>alert(1)</script>");
    }
    // A body without the field at all, and one that is not a form: a 404 and a translated 400.
    expect((await post("/en/staff?index", FORM, Buffer.from(""), cookie)).status).toBe(404);
    const notForm = await post("/es/staff?index", "application/json", Buffer.from('{"identity":"x"}'), cookie);
    expect(notForm.status).toBe(400);
    expect(notForm.text).toContain("Solicitud no válida");
    // The staff member was not signed out or switched: the staff console still opens.
    expect((await staff.client.get("/en/staff")).status).toBe(200);
  });

  it("an oversized staff form (10,000 fields, 5 MB, 2 MB chunked) is a translated 413", async () => {
    const cookie = staff.client.cookieHeader();
    const many = Buffer.from(Array.from({ length: 10_000 }, (_, i) => `f${i}=${i}`).join("&"));
    const r = await post("/es/staff?index", FORM, many, cookie);
    expect(r.status).toBe(413);
    expect(r.text).toContain("Solicitud demasiado grande");
    expect((await post("/en/staff?index", FORM, Buffer.from(`identity=${"x".repeat(5 * 1024 * 1024)}`), cookie)).status).toBe(413);
    const chunks = [Buffer.from("identity="), ...Array.from({ length: 32 }, () => Buffer.alloc(64 * 1024, "a"))];
    const chunked = await post("/jp/staff?index", FORM, chunks, cookie);
    expect(chunked.status).toBe(413);
    expect(chunked.text).toContain("リクエストが大きすぎます");
    // A form of ordinary size still works: the cap is on the count, not on staff forms.
    expect((await post("/en/staff?index", FORM, Buffer.from("identity=x"), cookie)).status).toBe(404);
  });

  it("a JSON body nested 10,000 deep is a 400, not a stack overflow", async () => {
    for (const body of ['{"a":'.repeat(10_000) + "1" + "}".repeat(10_000), `{"email":${"[".repeat(10_000)}${"]".repeat(10_000)}}`]) {
      const r = await post("/api/auth/login", "application/json", Buffer.from(body));
      expect(r.status).toBe(400);
      expect(JSON.parse(r.text)).toMatchObject({ error: expect.any(String) });
    }
  });
});
