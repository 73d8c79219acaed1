// The grammar-check API over HTTP (spec 3 §7, issue 23, ADR 070): each endpoint with good and bad input, another
// user's identity (404), visitors (bound to the draft cookie, 401 when anonymous use is off, the captcha with its
// replay refused), the cross-site check, and 'Get Started' (from-language-assessment) attaching the file once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { createResearcher } from "../helpers/factories";
import { makeDocx, makePdf } from "../helpers/fixtures";

let portal: TestPortal;
let docx: Uint8Array<ArrayBuffer>;

const TEXT =
  "The samples were recieved from three laboratories in the northern region between 2019 and 2021. " +
  "Each sample was stored at minus eighty degrees until the analysis began, and no sample was thawed more than once. " +
  "The researchers measured the concentration of the protein in every sample using a standard assay and reported the results. " +
  "The experiment was repeated twice to confirm that the observed differences were not caused by handling or storage. " +
  "Statistical analysis was performed with a mixed model that accounted for the laboratory as a random effect in all cases.";

beforeAll(async () => {
  portal = await startRelaxedPortal();
  docx = new Uint8Array(await makeDocx(TEXT));
});
afterAll(async () => {
  await portal?.stop();
});

function form(files: { name: string; bytes: Uint8Array<ArrayBuffer> }[], fields: Record<string, string> = {}) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  for (const f of files) body.append("file", new File([f.bytes], f.name));
  return body;
}

const create = (c: Client, body: FormData, headers: Record<string, string> = {}) =>
  c.request("/api/grammar-check/create", { method: "POST", body, headers });

async function createOne(c: Client, name = "manuscript.docx"): Promise<string> {
  const r = await create(c, form([{ name, bytes: docx }]));
  expect(r.status).toBe(201);
  const body = (await r.json()) as { languageAssessments: { identity: string; scoreStatus: string }[] };
  expect(body.languageAssessments).toHaveLength(1);
  expect(body.languageAssessments[0].scoreStatus).toBe("processing");
  return body.languageAssessments[0].identity;
}

describe("POST /api/grammar-check/create", () => {
  it("takes one .docx; refuses another type, two files and no file as { error, jsonEncodedParams }", async () => {
    const { client } = await portal.researcher();
    await createOne(client);

    const pdf = await create(client, form([{ name: "figure.pdf", bytes: new Uint8Array(await makePdf("Some text.")) }]));
    expect(pdf.status).toBe(415);
    const pdfBody = (await pdf.json()) as { error: string; jsonEncodedParams: string };
    expect(pdfBody.error).toBe("file-type-not-allowed");
    expect(JSON.parse(pdfBody.jsonEncodedParams)).toEqual({ fileName: "figure.pdf" });

    // A .docx name on bytes that are not a Word document is refused by content.
    const fake = await create(client, form([{ name: "fake.docx", bytes: new TextEncoder().encode("plain text, not a docx") }]));
    expect(fake.status).toBe(415);

    const two = await create(
      client,
      form([
        { name: "a.docx", bytes: docx },
        { name: "b.docx", bytes: docx },
      ]),
    );
    expect(two.status).toBe(413);
    expect(await two.json()).toMatchObject({ error: "too-many-files", jsonEncodedParams: "{}" });

    const none = await create(client, form([], { note: "x" }));
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ error: "file-required" });

    const json = await client.request("/api/grammar-check/create", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(json.status).toBe(400);
  });

  it("refuses a cross-site POST", async () => {
    const { client } = await portal.researcher();
    const r = await create(client, form([{ name: "m.docx", bytes: docx }]), { origin: "https://evil.example" });
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ error: "cross-site-request-refused" });
  });
});

describe("search, archive, delete", () => {
  it("lists one's own, polls identities, and hides another user's (404 on archive and delete)", async () => {
    const { client } = await portal.researcher();
    const a = await createOne(client, "a.docx");
    const b = await createOne(client, "b.docx");
    const page = await client.get("/api/grammar-check/search?page=1");
    expect(page.status).toBe(200);
    const body = (await page.json()) as {
      results: { identity: string }[];
      pagination: unknown;
      percentiles: unknown[];
      reference: { source: string };
    };
    expect(body.results.map((r) => r.identity)).toEqual([b, a]);
    expect(body.pagination).toEqual({ page: 1, pageSize: 30, total: 2, pages: 1 });
    expect(Array.isArray(body.percentiles)).toBe(true);
    expect(body.reference.source).toBe("brown-learned");

    const poll = await client.get(`/api/grammar-check/search?identities[]=${a}`);
    expect(((await poll.json()) as { results: { identity: string }[] }).results.map((r) => r.identity)).toEqual([a]);
    const comma = await client.get(`/api/grammar-check/search?identities=${a},${b}`);
    expect(((await comma.json()) as { results: unknown[] }).results).toHaveLength(2);

    for (const bad of ["page=0", "page=abc", "page=-1", "page=99999999"]) {
      const r = await client.get(`/api/grammar-check/search?${bad}`);
      expect(r.status, bad).toBe(400);
    }

    const { client: other } = await portal.researcher();
    const theirs = await other.get(`/api/grammar-check/search?identities[]=${a}`);
    expect(((await theirs.json()) as { results: unknown[] }).results).toEqual([]);
    expect((await other.request(`/api/grammar-check/${a}/archive`, { method: "POST" })).status).toBe(404);
    expect((await other.request(`/api/grammar-check/${a}/delete`, { method: "POST" })).status).toBe(404);
    expect((await client.request(`/api/grammar-check/not-an-id/archive`, { method: "POST" })).status).toBe(404);

    const del = await client.request(`/api/grammar-check/${a}/delete`, { method: "POST" });
    expect(del.status).toBe(409);
    expect(await del.json()).toEqual({ error: "assessment-not-failed" });

    const archived = await client.request(`/api/grammar-check/${a}/archive`, { method: "POST" });
    expect(archived.status).toBe(200);
    expect(await archived.json()).toEqual({ fileName: "a.docx" });
    const after = (await (await client.get("/api/grammar-check/search")).json()) as { results: { identity: string }[] };
    expect(after.results.map((r) => r.identity)).toEqual([b]);

    await portal.ctx.db
      .updateTable("language_assessments")
      .set({ score_status: "failed", error_count_status: "failed" })
      .where("id", "=", b)
      .execute();
    const deleted = await client.request(`/api/grammar-check/${b}/delete`, { method: "POST" });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ fileName: "b.docx" });
  });
});

describe("visitors", () => {
  it("get a draft cookie with their first check, keep it to this browser, and find it after signing in", async () => {
    const browser = new Client(portal.url);
    const identity = await createOne(browser);
    expect(browser.cookies.size).toBeGreaterThan(0);
    const mine = (await (await browser.get("/api/grammar-check/search")).json()) as { results: { identity: string }[] };
    expect(mine.results.map((r) => r.identity)).toEqual([identity]);
    const stranger = (await (await new Client(portal.url).get("/api/grammar-check/search")).json()) as { results: unknown[] };
    expect(stranger.results).toEqual([]);
    // Visitors cannot archive (spec 3 §2).
    expect((await browser.request(`/api/grammar-check/${identity}/archive`, { method: "POST" })).status).toBe(401);

    const user = await createResearcher(portal.ctx);
    const login = await browser.request("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(login.status).toBe(200);
    const claimed = (await (await browser.get("/api/grammar-check/search")).json()) as { results: { identity: string }[] };
    expect(claimed.results.map((r) => r.identity)).toEqual([identity]);
  });

  it("are refused with 401 while anonymous checks are off", async () => {
    await portal.ctx.config.setConfig("allowsAnonymousLanguageAssessment", false);
    try {
      const browser = new Client(portal.url);
      const r = await create(browser, form([{ name: "m.docx", bytes: docx }]));
      expect(r.status).toBe(401);
      expect((await browser.get("/api/grammar-check/search")).status).toBe(401);
    } finally {
      await portal.ctx.config.setConfig("allowsAnonymousLanguageAssessment", true);
    }
  });

  it("pass the captcha once: missing, wrong and replayed answers are refused", async () => {
    await portal.ctx.config.setFlag("captcha", true);
    try {
      const browser = new Client(portal.url);
      const challenge = await browser.get("/api/grammar-check/captcha");
      expect(challenge.status).toBe(200);
      const { captcha, required } = (await challenge.json()) as {
        captcha: { question: { a: number; b: number; token: string } };
        required: boolean;
      };
      expect(required).toBe(true);
      const { a, b, token } = captcha.question;

      const missing = await create(browser, form([{ name: "m.docx", bytes: docx }]));
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({ error: "captcha-required" });
      const wrong = await create(
        browser,
        form([{ name: "m.docx", bytes: docx }], { captchaToken: token, captchaAnswer: String(a + b + 1) }),
      );
      expect(await wrong.json()).toMatchObject({ error: "captcha-invalid" });
      const right = await create(browser, form([{ name: "m.docx", bytes: docx }], { captchaToken: token, captchaAnswer: String(a + b) }));
      expect(right.status).toBe(201);
      const replay = await create(browser, form([{ name: "m.docx", bytes: docx }], { captchaToken: token, captchaAnswer: String(a + b) }));
      expect(replay.status).toBe(400);
      expect(await replay.json()).toMatchObject({ error: "captcha-invalid" });
      // Signed-in researchers are not asked.
      const { client } = await portal.researcher();
      await createOne(client);
    } finally {
      await portal.ctx.config.setFlag("captcha", false);
    }
  });
});

describe("GET /api/order-form/from-language-assessment/{identity}", () => {
  it("answers the same draft with the file attached once; a browser gets 303 to the wizard; another user 404", async () => {
    const { client } = await portal.researcher();
    const identity = await createOne(client);
    const first = await client.get(`/api/order-form/from-language-assessment/${identity}`, { headers: { accept: "application/json" } });
    expect(first.status).toBe(200);
    const { orderFormId } = (await first.json()) as { orderFormId: string };
    const browser = await client.get(`/api/order-form/from-language-assessment/${identity}`, {
      headers: { accept: "text/html,application/xhtml+xml" },
    });
    expect(browser.status).toBe(303);
    expect(browser.headers.get("location")).toBe("/researcher/submit/get-started");
    const again = await client.get(`/api/order-form/from-language-assessment/${identity}`, { headers: { accept: "application/json" } });
    expect(await again.json()).toEqual({ orderFormId });
    const files = await portal.ctx.db
      .selectFrom("files")
      .select(["kind", "original_name"])
      .where("order_form_id", "=", orderFormId)
      .where("deleted_at", "is", null)
      .execute();
    expect(files).toEqual([{ kind: "main", original_name: "manuscript.docx" }]);
    const loaded = await client.get(`/api/order-form/${orderFormId}/document-details`);
    expect(loaded.status).toBe(200);

    const { client: other } = await portal.researcher();
    expect((await other.get(`/api/order-form/from-language-assessment/${identity}`)).status).toBe(404);
    expect((await other.get(`/api/order-form/from-language-assessment/not-an-id`)).status).toBe(404);
  });
});
