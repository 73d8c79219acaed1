// The grammar check pages over HTTP without JavaScript (issue 23 §3, spec 3 §2, §4, §8; ADR 071): the list and its
// upload (POST → 303 → the report), 'Filetype not allowed' on the file input, the archive and delete confirmations
// (GET asks and changes nothing, POST does it → 303 → the list with its notice), the access redirects, unknown and
// other people's identities going back to the list, and the meta refresh present only while something is processing.
// Jobs run nowhere here (WORKERS=external): each test sets the states it needs on the row, so nothing races.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal, type SignedInUser } from "../helpers/portal";
import { makeDocx, makePdf } from "../helpers/fixtures";
import { invalidateUser } from "../../server/accounts/user-cache";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal({ WORKERS: "external" });
});
afterAll(async () => portal.stop());

const LIST = "/en/researcher/grammar-check";
const REFRESH = /<noscript><meta http-equiv="refresh" content="30"\/?><\/noscript>/;

async function upload(client: Client, bytes: Buffer, name: string, lang = "en") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), name);
  return client.request(`/${lang}/researcher/grammar-check`, { method: "POST", body: form });
}

/** Uploads a small manuscript as `client`; its identity from the 303 to its report. */
async function uploaded(client: Client, name = "manuscript.docx"): Promise<string> {
  const r = await upload(client, await makeDocx("Their results was clear , and the the method worked."), name);
  expect(r.status, r.status === 303 ? "" : (await r.clone().text()).slice(0, 300)).toBe(303);
  const location = r.headers.get("location")!;
  expect(location).toMatch(/^\/en\/researcher\/grammar-check\/details\/[0-9a-f-]{36}$/);
  return location.split("/").pop()!;
}

async function complete(identity: string) {
  await portal.ctx.db
    .updateTable("language_assessments")
    .set({
      score_status: "completed",
      error_count_status: "completed",
      score_tenths: 47,
      percentile: 22,
      words: 412,
      dialect: "american",
      error_count: JSON.stringify({ consistencySpellingTypos: 2, grammarMechanics: 1, phrasing: 0, punctuation: 3, wordChoice: 1 }),
      issues: JSON.stringify([
        {
          category: "punctuation",
          kind: "Punctuation",
          message: "Remove the space before this comma.",
          suggestion: ",",
          sentence: "Their results was clear , and the method worked.",
          start: 23,
          end: 25,
        },
        {
          category: "consistencySpellingTypos",
          kind: "Spelling",
          message: "Did you mean “protein”?",
          suggestion: "protein",
          sentence: "The protien bound to the receptor.",
          start: 4,
          end: 11,
        },
      ]),
      completed_at: new Date(),
    })
    .where("id", "=", identity)
    .execute();
}

async function failed(identity: string) {
  await portal.ctx.db
    .updateTable("language_assessments")
    .set({ score_status: "failed", error_count_status: "failed", failure_reason: "test" })
    .where("id", "=", identity)
    .execute();
}

describe("the list and the upload without JavaScript", () => {
  let user: SignedInUser;
  beforeAll(async () => {
    user = await portal.researcher();
  });

  it("shows the badge, the welcome text and an upload form whose button the server never disables", async () => {
    const r = await user.client.get(LIST);
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain("Free tool");
    expect(html).toContain("Welcome to the grammar check");
    expect(html).toContain('accept=".doc,.docx"');
    const form = html.match(/<form[^>]*gc-upload[^>]*>/)?.[0] ?? html.match(/<form[^>]*multipart[^>]*>/i)?.[0];
    expect(form, "the upload form").toMatch(/enctype="multipart\/form-data"/i);
    expect(html).toMatch(/<button type="submit" class="button button-primary"[^>]*>Begin Check<\/button>/);
    expect(html).not.toMatch(/<button[^>]*disabled[^>]*>Begin Check/);
    expect(html).toContain("nothing leaves the portal");
    expect(html).not.toMatch(REFRESH);
  });

  it("lands on the report after one upload (303); list and report refresh themselves only while processing", async () => {
    const identity = await uploaded(user.client, "processing.docx");
    const report = await user.client.get(`${LIST}/details/${identity}`);
    expect(report.status).toBe(200);
    const reportHtml = await report.text();
    expect(reportHtml).toContain("Language Quality Report");
    expect(reportHtml).toContain("processing.docx");
    expect(reportHtml).toMatch(REFRESH);

    const list = await (await user.client.get(LIST)).text();
    expect(list).toContain("processing.docx");
    expect(list).toContain("Checking…");
    expect(list).toMatch(REFRESH);
    // Not complete: the name is no link yet.
    expect(list).not.toContain(`href="${LIST}/details/${identity}"`);

    await complete(identity);
    const done = await (await user.client.get(LIST)).text();
    expect(done).not.toMatch(REFRESH);
    expect(done).toContain(`href="${LIST}/details/${identity}"`);
    expect(done).toContain("See details");
    expect(done).toContain("4.7");
    // 12-hour clock in the upload date (spec 3 §9).
    expect(done).toMatch(/Uploaded \d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} (AM|PM)/);

    const full = await (await user.client.get(`${LIST}/details/${identity}`)).text();
    expect(full).not.toMatch(REFRESH);
    expect(full).toContain("Needs improvement");
    expect(full).toContain("22nd percentile");
    expect(full).toContain("Punctuation");
    expect(full).toContain("Their results was clear<mark> ,</mark> and the method worked.");
    expect(full).toContain("Remove the space before this comma.");
    expect(full).toContain("rarely catches missing articles");
    expect(full).toContain(`href="/api/order-form/from-language-assessment/${identity}"`);
    expect(full).toContain("Meet one of our editors");
    expect(full).toMatch(/Editing from \$75/);
    // Charts are server-rendered SVG: the percentile axis 0–100 in steps of 25 and the 95 marker.
    expect(full).toContain('class="grammar-chart percentile-chart"');
    for (const tick of [">0<", ">25<", ">50<", ">75<", ">100<"]) expect(full).toContain(tick);
    expect(full).toContain("Top 5%");
    expect(full).toContain('class="grammar-chart issues-chart"');
  });

  it("says 'Filetype not allowed' on the file input when the server refuses the type", async () => {
    const r = await upload(user.client, await makePdf("not a word document"), "paper.pdf");
    expect(r.status).toBe(415);
    const html = await r.text();
    expect(html).toContain("Filetype not allowed");
    expect(html).toMatch(/aria-describedby="gc-file-error gc-file-hint"/);
    expect(html).toMatch(/id="gc-file-error"[^>]*>[^<]*Filetype not allowed/);
  });

  it("pages the list 30 at a time with plain links", async () => {
    const other = await portal.researcher();
    // One real upload, then 30 more rows of the same file (uploads are rate limited to 30 in 10 minutes a user).
    const first0 = await uploaded(other.client, "m0.docx");
    const row = await portal.ctx.db.selectFrom("language_assessments").selectAll().where("id", "=", first0).executeTakeFirstOrThrow();
    for (let i = 1; i <= 30; i++)
      await portal.ctx.db
        .insertInto("language_assessments")
        .values({
          id: randomUUID(),
          user_id: row.user_id,
          file_id: row.file_id,
          name: `m${i}.docx`,
          created_at: new Date(Date.now() + i * 1000),
        })
        .execute();
    const first = await (await other.client.get(LIST)).text();
    expect(first).toContain(`href="${LIST}?page=2"`);
    expect(first.match(/class="assessment-row /g)?.length).toBe(30);
    const second = await (await other.client.get(`${LIST}?page=2`)).text();
    expect(second.match(/class="assessment-row /g)?.length).toBe(1);
    expect(second).toContain("m0.docx");
    // Past the end: the last page.
    const past = await other.client.get(`${LIST}?page=9`);
    expect(past.status).toBe(302);
    expect(past.headers.get("location")).toBe(`${LIST}?page=2`);
  });
});

describe("archive and delete ask first", () => {
  it("archives a completed assessment: GET asks and changes nothing, POST → 303 → '{fileName} archived'", async () => {
    const user = await portal.researcher();
    const identity = await uploaded(user.client, "to-archive.docx");
    await complete(identity);
    const ask = await user.client.get(`${LIST}/archive/${identity}`);
    expect(ask.status).toBe(200);
    const askHtml = await ask.text();
    expect(askHtml).toContain("Archive to-archive.docx?");
    expect(askHtml).toMatch(/<form method="post" action="\/en\/researcher\/grammar-check\/archive\//);
    const row = await portal.ctx.db
      .selectFrom("language_assessments")
      .select("archived_at")
      .where("id", "=", identity)
      .executeTakeFirstOrThrow();
    expect(row.archived_at).toBeNull();

    const done = await user.client.post(`${LIST}/archive/${identity}`, {});
    expect(done.status).toBe(303);
    const to = done.headers.get("location")!;
    expect(to).toBe(`${LIST}?archived=to-archive.docx`);
    const list = await (await user.client.get(to)).text();
    expect(list).toContain("to-archive.docx archived");
    expect(list).not.toContain(`data-identity="${identity}"`);
    // Its report is gone: back to the list.
    const gone = await user.client.get(`${LIST}/details/${identity}`);
    expect(gone.status).toBe(302);
    expect(gone.headers.get("location")).toBe(LIST);
  });

  it("deletes a failed assessment after confirmation; 'could not complete' and the alerts show until then", async () => {
    const user = await portal.researcher();
    const identity = await uploaded(user.client, "broken.docx");
    await failed(identity);
    const list = await (await user.client.get(LIST)).text();
    expect(list).toContain("could not complete");
    expect(list).toContain("We could not score this manuscript.");
    expect(list).toContain("We could not count the issues in this manuscript.");
    expect(list).toContain(`href="${LIST}/delete/${identity}"`);
    expect(list).not.toContain(`href="${LIST}/archive/${identity}"`);

    const ask = await user.client.get(`${LIST}/delete/${identity}`);
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain("Delete broken.docx?");
    const done = await user.client.post(`${LIST}/delete/${identity}`, {});
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`${LIST}?deleted=broken.docx`);
    const row = await portal.ctx.db.selectFrom("language_assessments").select("id").where("id", "=", identity).executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it("refuses to delete a completed one or archive a processing one: back to the list, nothing changed", async () => {
    const user = await portal.researcher();
    const processing = await uploaded(user.client, "busy.docx");
    const r = await user.client.post(`${LIST}/archive/${processing}`, {});
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe(LIST);
    const done = await uploaded(user.client, "done.docx");
    await complete(done);
    const d = await user.client.post(`${LIST}/delete/${done}`, {});
    expect(d.status).toBe(303);
    expect(d.headers.get("location")).toBe(LIST);
    const rows = await portal.ctx.db
      .selectFrom("language_assessments")
      .select(["id", "archived_at"])
      .where("id", "in", [processing, done])
      .execute();
    expect(rows).toHaveLength(2);
    expect(rows.every((x) => x.archived_at === null)).toBe(true);
  });
});

describe("who reaches what", () => {
  it("sends an unknown identity and another researcher's back to the list, keeping ?from", async () => {
    const owner = await portal.researcher();
    const identity = await uploaded(owner.client, "mine.docx");
    await complete(identity);
    const stranger = await portal.researcher();
    for (const path of [`${LIST}/details/${identity}`, `${LIST}/archive/${identity}`, `${LIST}/delete/${identity}`]) {
      const r = await stranger.client.get(path);
      expect(r.status, path).toBe(302);
      expect(r.headers.get("location"), path).toBe(LIST);
    }
    const post = await stranger.client.post(`${LIST}/archive/${identity}`, {});
    expect(post.status).toBe(303);
    const row = await portal.ctx.db
      .selectFrom("language_assessments")
      .select("archived_at")
      .where("id", "=", identity)
      .executeTakeFirstOrThrow();
    expect(row.archived_at).toBeNull();

    const unknown = await owner.client.get(`${LIST}/details/00000000-0000-4000-8000-000000000000?from=3`);
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get("location")).toBe(`${LIST}?page=3`);
    const garbage = await owner.client.get(`${LIST}/details/not-an-identity`);
    expect(garbage.status).toBe(302);
    // The back link keeps the list page it came from.
    const report = await (await owner.client.get(`${LIST}/details/${identity}?from=2`)).text();
    expect(report).toContain(`href="${LIST}?page=2"`);
  });

  it("sends a researcher whose grammar check is switched off to /researcher", async () => {
    const user = await portal.researcher();
    await portal.ctx.db.updateTable("users").set({ language_assessment_enabled: false }).where("email", "=", user.email).execute();
    const row = await portal.ctx.db.selectFrom("users").select("id").where("email", "=", user.email).executeTakeFirstOrThrow();
    await invalidateUser(portal.ctx, row.id);
    const r = await user.client.get(LIST);
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe("/en/researcher");
  });

  it("lets a visitor check a manuscript in the anonymous layout, bound to the browser", async () => {
    const visitor = new Client(portal.url);
    const page = await (await visitor.get("/cn/researcher/grammar-check")).text();
    expect(page).toContain("免费工具");
    expect(page).toContain("欢迎使用语法检查");
    const r = await upload(visitor, await makeDocx("A short text with a erorr in it."), "visitor.docx", "cn");
    expect(r.status).toBe(303);
    expect(visitor.cookies.has("draft")).toBe(true);
    const identity = r.headers.get("location")!.split("/").pop()!;
    await complete(identity);
    const report = await (await visitor.get(r.headers.get("location")!)).text();
    expect(report).toContain("语言质量报告");
    expect(report).toContain("再上传一份稿件");
    expect(report).toContain("第 22 百分位");
    // A visitor's editing price is in the currency of the site they came to (127.0.0.1: the default site, USD).
    expect(report).toContain("润色服务 $75 起");
    // No archive for visitors; another browser does not see it.
    expect(report).not.toContain(`/archive/${identity}`);
    const other = new Client(portal.url);
    const theirs = await other.get(`/cn/researcher/grammar-check/details/${identity}`);
    expect(theirs.status).toBe(302);
  });
});

describe("when visitors may not use it", () => {
  let closed: TestPortal;
  beforeAll(async () => {
    closed = await startRelaxedPortal({ WORKERS: "external", CONFIG_ALLOWS_ANONYMOUS_LANGUAGE_ASSESSMENT: "false" });
  });
  afterAll(async () => closed.stop());

  it("sends a visitor to sign-in with the way back", async () => {
    const r = await new Client(closed.url).get(`${LIST}?page=2`);
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe(`/en/login?redirect=${encodeURIComponent(`${LIST}?page=2`)}`);
  });
});

describe("the upload_files_ui variant", () => {
  let variant: TestPortal;
  beforeAll(async () => {
    variant = await startRelaxedPortal({ WORKERS: "external", FLAG_UPLOAD_FILES_UI: "true" });
  });
  afterAll(async () => variant.stop());

  it("requires its terms box on the server too: refused without it (its file removed at once), accepted with it", async () => {
    const user = await variant.researcher();
    const page = await (await user.client.get(LIST)).text();
    expect(page).toMatch(/<input[^>]*name="agreeToTerms"[^>]*required/);
    const post = async (terms: boolean) => {
      const form = new FormData();
      if (terms) form.append("agreeToTerms", "true");
      form.append("file", new Blob([new Uint8Array(await makeDocx("A short manuscript for the terms box."))]), "terms.docx");
      return user.client.request(LIST, { method: "POST", body: form });
    };
    const refused = await post(false);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toMatch(/id="gc-terms-error"[^>]*>Please accept the terms of use to continue\./);
    const stored = await variant.ctx.db.selectFrom("language_assessments").select("id").where("user_id", "=", user.id).execute();
    expect(stored).toHaveLength(0);
    const files = await variant.ctx.db
      .selectFrom("files")
      .select("id")
      .where("owner_user_id", "=", user.id)
      .where("deleted_at", "is", null)
      .execute();
    expect(files).toHaveLength(0);
    expect((await post(true)).status).toBe(303);
  });
});
