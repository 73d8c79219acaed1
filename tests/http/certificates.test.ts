// Certificates over HTTP (issue 11 §6): the verification page without JavaScript (empty code, unknown code, the
// details table, the file check), its rate limit, the API (good, unknown, another user's save), the PDF, the
// owner's edit route (POST → 303 → GET) and the files opened by a code.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, startTestPortal, Client, RELAXED_RATE_LIMITS, type TestPortal } from "../helpers/portal";
import { createResearcher } from "../helpers/factories";
import { certifiedOrder, pdfBytes, readZip } from "../helpers/deliverables";
import { sendJson } from "../helpers/api";

let portal: TestPortal;
beforeAll(async () => {
  // Lookups relaxed too: this file makes many from one address; the limit has its own portal below.
  portal = await startRelaxedPortal({
    CONFIG_RATE_LIMITS: JSON.stringify({ ...RELAXED_RATE_LIMITS, certificateLookupsPer10Minutes: 1000 }),
  });
});
afterAll(async () => portal.stop());

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const dashed = (code: string) => code.match(/.{4}/g)!.join("-");

function upload(code: string, file: Uint8Array, name = "check.pdf") {
  const form = new FormData();
  form.append("code", code);
  form.append("file", new Blob([Buffer.from(file)]), name);
  return form;
}

describe("the verification page without JavaScript", () => {
  it("asks for a code, refuses an unknown one and shows a known one's details", async () => {
    const visitor = new Client(portal.url);
    const page = await visitor.get("/en/certificate/verify");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Enter the verification code printed on the certificate.");

    const empty = await visitor.get("/en/certificate/verify?code=");
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Please enter a verification code.");

    const unknown = await visitor.get("/en/certificate/verify?code=ABCD-EFGH-JKLM-NPQR");
    expect(unknown.status).toBe(404);
    const unknownHtml = await unknown.text();
    expect(unknownHtml).toContain('data-error="certificate-verification-error"');
    expect(unknownHtml).toContain("We could not find a certificate with this code.");

    const owner = await createResearcher(portal.ctx);
    const { code, externalId } = await certifiedOrder(portal.ctx, owner, [{ name: "edited.pdf", bytes: pdfBytes() }], {
      authors: "Ana Souza, Li Ming",
      title: "Drought and soil bacteria",
    });
    const known = await visitor.get(`/en/certificate/verify?code=${dashed(code).toLowerCase()}`);
    expect(known.status).toBe(200);
    const html = await known.text();
    expect(html).toContain(externalId);
    expect(html).toContain("Drought and soil bacteria");
    expect(html).toContain("Ana Souza, Li Ming");
    expect(html).toContain(dashed(code));
    expect(html).toContain(`/api/certificate/${code}/pdf`);
    expect(html).toContain(`/api/certificate/${code}/deliverables.zip`);

    // Other languages too.
    const jp = await visitor.get(`/jp/certificate/verify?code=${code}`);
    expect(await jp.text()).toContain("証明書の詳細");
    expect((await visitor.get("/cn/certificate")).status).toBe(200);
  });

  it("says whether an uploaded file is the delivered one (POST → 303 → GET), keeping nothing", async () => {
    const owner = await createResearcher(portal.ctx);
    const delivered = pdfBytes("the delivered one");
    const { code } = await certifiedOrder(portal.ctx, owner, [{ name: "edited.pdf", bytes: delivered }], { authors: "A. Author" });
    const visitor = new Client(portal.url);
    const files = await portal.ctx.db.selectFrom("files").select("id").execute();

    const r = await visitor.request("/en/certificate/verify", { method: "POST", body: upload(code, delivered) });
    expect(r.status).toBe(303);
    const location = r.headers.get("location")!;
    expect(location).toContain(`sha256=${sha(delivered)}`);
    const result = await (await visitor.get(location)).text();
    expect(result).toContain('data-file-check="match"');
    expect(result).toContain("edited.pdf");

    const other = pdfBytes("something else");
    const r2 = await visitor.request("/en/certificate/verify", { method: "POST", body: upload(code, other) });
    const result2 = await (await visitor.get(r2.headers.get("location")!)).text();
    expect(result2).toContain('data-file-check="no-match"');
    expect(result2).toContain("This file is not one of the files delivered with this certificate.");
    expect((await portal.ctx.db.selectFrom("files").select("id").execute()).length).toBe(files.length);

    // The API does the same.
    const api = await visitor.request(`/api/certificate/${code}/check-file`, { method: "POST", body: upload(code, delivered) });
    expect(api.status).toBe(200);
    expect(await api.json()).toMatchObject({ match: { name: "edited.pdf", sha256: sha(delivered) }, sha256: sha(delivered) });
  });
});

describe("the certificate API", () => {
  it("reads by code, saves for the owner only, and serves the PDF once it has authors", async () => {
    const owner = await portal.researcher();
    const { code, externalId } = await certifiedOrder(portal.ctx, owner, [{ name: "edited.pdf", bytes: pdfBytes() }]);
    const visitor = new Client(portal.url);

    const got = await visitor.get(`/api/certificate/${dashed(code)}`);
    expect(got.status).toBe(200);
    expect((await got.json()).certificate).toMatchObject({ code, externalId, authors: "", viewable: false });
    const bad = await visitor.get("/api/certificate/ABCDEFGHJKLMNPQR");
    expect(bad.status).toBe(404);
    expect(await bad.json()).toEqual({ error: "certificate-verification-error" });

    const noAuthors = await visitor.get(`/api/certificate/${code}/pdf`);
    expect(noAuthors.status).toBe(409);
    expect(await noAuthors.json()).toEqual({ error: "certificate-not-viewable" });

    // Saving: signed out 401, another user 404, missing fields 400, the owner 200.
    expect((await sendJson(visitor, "PUT", `/api/certificate/save/${code}`, { title: "T", authors: "A" })).status).toBe(401);
    const other = await portal.researcher();
    expect((await sendJson(other.client, "PUT", `/api/certificate/save/${code}`, { title: "T", authors: "A" })).status).toBe(404);
    const missing = await sendJson(owner.client, "PUT", `/api/certificate/save/${code}`, { title: "" });
    expect(missing.status).toBe(400);
    expect((await missing.json()).fieldErrors).toEqual({ title: "title-required", authors: "authors-required" });
    const saved = await sendJson(owner.client, "PUT", `/api/certificate/save/${code}`, { title: "土壤细菌", authors: "李明" });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({
      certificateDetails: { title: "土壤细菌", authors: "李明", viewable: true },
      messages: ["certificate-details-updated"],
    });

    const pdf = await visitor.get(`/api/certificate/${code}/pdf?display=inline`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toMatch(/^inline;/);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  });

  it("opens the certified files with the code only while the order's files are downloadable", async () => {
    const owner = await createResearcher(portal.ctx);
    const file = pdfBytes("certified");
    const paid = await certifiedOrder(portal.ctx, owner, [{ name: "edited.pdf", bytes: file }], { authors: "A" });
    const visitor = new Client(portal.url);
    const list = await visitor.get(`/api/certificate/${paid.code}/deliverables`);
    expect(list.status).toBe(200);
    const body = await list.json();
    expect(body).toMatchObject({ externalId: paid.externalId, companyName: "Researcher Services" });
    expect(body.files[0].path).toBe(`/api/certificate/${paid.code}/deliverables/${body.files[0].key}`);
    expect(sha(new Uint8Array(await (await visitor.get(body.files[0].path)).arrayBuffer()))).toBe(sha(file));
    const zip = await visitor.get(`/api/certificate/${paid.code}/deliverables.zip`);
    expect(zip.status).toBe(200);
    expect(readZip(Buffer.from(await zip.arrayBuffer())).map((e) => sha(e.data))).toEqual([sha(file)]);

    const unpaid = await certifiedOrder(portal.ctx, owner, [{ name: "edited.pdf", bytes: pdfBytes() }], { paid: false });
    expect((await visitor.get(`/api/certificate/${unpaid.code}/deliverables`)).status).toBe(403);
    expect((await visitor.get(`/api/certificate/${unpaid.code}/deliverables.zip`)).status).toBe(403);
    const page = await (await visitor.get(`/en/certificate/verify?code=${unpaid.code}`)).text();
    expect(page).toContain("The files of this order cannot be downloaded at the moment.");
  });
});

describe("the owner's edit route", () => {
  it("saves the title and authors without JavaScript and goes back; refuses empty fields and other users", async () => {
    const owner = await portal.researcher();
    const { code, externalId } = await certifiedOrder(portal.ctx, owner, [{ name: "edited.pdf", bytes: pdfBytes() }]);
    const back = `/en/researcher/index/details/${externalId}`;
    const refused = await owner.client.post(`/en/certificate/edit/${code}`, { title: "", authors: "", redirect: back });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Please enter your project title.");
    expect(html).toContain("Please enter your project authors.");

    const saved = await owner.client.post(`/en/certificate/edit/${code}`, { title: "Soil", authors: "Ana Souza", redirect: back });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe(`${back}?certificate=updated`);
    // An address off the site is not followed.
    const offsite = await owner.client.post(`/en/certificate/edit/${code}`, { title: "Soil", authors: "Ana", redirect: "//evil.example" });
    expect(offsite.headers.get("location")).toBe(`${back}?certificate=updated`);

    const other = await portal.researcher();
    expect((await other.client.post(`/en/certificate/edit/${code}`, { title: "X", authors: "Y", redirect: back })).status).toBe(404);
    expect((await other.client.get(`/en/certificate/edit/${code}`)).status).toBe(404);
    expect((await owner.client.get(`/en/certificate/edit/${code}`)).status).toBe(200);
  });
});

describe("the lookup limit", () => {
  it("answers 429 with Retry-After past the limit per address, on the page and the API", async () => {
    const limited = await startTestPortal({
      CONFIG_RATE_LIMITS: JSON.stringify({ ...RELAXED_RATE_LIMITS, certificateLookupsPer10Minutes: 3 }),
    });
    try {
      const visitor = new Client(limited.url);
      for (let i = 0; i < 3; i++) expect((await visitor.get("/api/certificate/ABCDEFGHJKLMNPQR")).status).toBe(404);
      const api = await visitor.get("/api/certificate/ABCDEFGHJKLMNPQR");
      expect(api.status).toBe(429);
      expect(Number(api.headers.get("retry-after"))).toBeGreaterThan(0);
      const page = await visitor.get("/en/certificate/verify?code=ABCDEFGHJKLMNPQR");
      expect(page.status).toBe(429);
      expect(page.headers.get("retry-after")).toBeTruthy();
      expect(await page.text()).toContain("Too many certificate lookups from your address.");
    } finally {
      await limited.stop();
    }
  });
});
