// The digital editing and translation pages over HTTP without JavaScript (issue 24, spec 3 §2, §4; ADR 074): access
// and redirects, the upload forms' refusals, POST → 303 → the list, the delete confirmation (GET asks and changes
// nothing, POST deletes), another researcher's identities going back to the list, the meta refresh only while
// something processes, the purchase pages, the Chinese trial (no state change on GET), the Word add-in manifest and
// its task pane (office.js only inside Word), and the survey with its staff page.
// Jobs run nowhere here (WORKERS=external): each test sets the states it needs on the rows.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { startRelaxedPortal, Client, type TestPortal, type SignedInUser } from "../helpers/portal";
import { makeDocx } from "../helpers/fixtures";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal({ WORKERS: "external" });
});
afterAll(async () => portal.stop());

const EDITING = "/en/researcher/digital-editing";
const TRANSLATIONS = "/en/researcher/digital-translations";
const REFRESH = /<noscript><meta http-equiv="refresh" content="15"\/?><\/noscript>/;

async function editingTrial(userId: number) {
  await portal.ctx.db
    .insertInto("digital_user_state")
    .values({ user_id: userId, editing_trial: true })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ editing_trial: true }))
    .execute();
}

async function translationUses(userId: number, uses: number, languages = ["es_ES", "pt_BR"]) {
  await portal.ctx.db
    .insertInto("digital_purchases")
    .values({
      id: randomUUID(),
      user_id: userId,
      type: "translation",
      offer_identity: "three-uses",
      price: 6500,
      currency_iso: "USD",
      starts_at: new Date(),
      ends_at: new Date(Date.now() + 365 * 86400_000),
      months: 12,
      uses_total: uses,
      uses_remaining: uses,
      allowed_languages: JSON.stringify(languages) as never,
      receipt_code: randomUUID(),
      status: "active",
      activated_at: new Date(),
    })
    .execute();
}

async function uploadEdit(client: Client, name: string, style?: string, path = EDITING) {
  const form = new FormData();
  form.append("digitalEditFiles", new Blob([new Uint8Array(await makeDocx("Teh results was clear."))]), name);
  if (style) form.append("styleOfEnglish", style);
  return client.request(path, { method: "POST", body: form });
}

async function editOf(userId: number, name: string) {
  return portal.ctx.db
    .selectFrom("digital_edits")
    .selectAll()
    .where("user_id", "=", userId)
    .where("name", "=", name)
    .executeTakeFirstOrThrow();
}

describe("access", () => {
  it("sends a visitor to sign in, with the page as the way back", async () => {
    for (const path of [EDITING, TRANSLATIONS, "/en/chinese-digital-trial", `${EDITING}/add-in/manifest.xml`]) {
      const r = await new Client(portal.url).get(path);
      expect(r.status, path).toBe(302);
      expect(r.headers.get("location"), path).toBe(`/en/login?redirect=${encodeURIComponent(path)}`);
    }
  });

  it("sends a researcher to /researcher when the setting does not allow the area", async () => {
    const user = await portal.researcher();
    await portal.ctx.config.setConfig("allowsDigitalEditing", false);
    await portal.ctx.config.setConfig("allowsDigitalTranslations", false);
    try {
      for (const path of [EDITING, `${EDITING}/subscribe`, TRANSLATIONS, `${TRANSLATIONS}/purchase`]) {
        const r = await user.client.get(path);
        expect(r.status, path).toBe(302);
        expect(r.headers.get("location"), path).toBe("/en/researcher");
      }
    } finally {
      await portal.ctx.config.setConfig("allowsDigitalEditing", true);
      await portal.ctx.config.setConfig("allowsDigitalTranslations", true);
    }
  });

  it("is no longer a 'coming soon' page; an unknown status segment goes back to the list", async () => {
    const user = await portal.researcher();
    const html = await (await user.client.get(EDITING)).text();
    expect(html).toContain('class="gc-page digital-page"');
    const r = await user.client.get(`${EDITING}/nonsense`);
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe(EDITING);
  });
});

describe("digital editing without JavaScript", () => {
  let user: SignedInUser;
  beforeAll(async () => {
    user = await portal.researcher();
  });

  it("says it is automated proofreading, and offers the subscription instead of the upload form without one", async () => {
    const html = await (await user.client.get(EDITING)).text();
    expect(html).toContain("Automated proofreading");
    expect(html).toContain("not an edit by a human editor");
    expect(html).toContain(`href="${EDITING}/subscribe"`);
    expect(html).not.toContain('name="digitalEditFiles"');
    // The side panel: the add-in download, the survey, the subscribe card.
    expect(html).toContain(`href="${EDITING}/add-in/manifest.xml"`);
    expect(html).toContain('action="/en/researcher/digital-editing/survey"');
    const refused = await uploadEdit(user.client, "no-subscription.docx", "British English");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Digital editing needs an active subscription.");
  });

  it("asks for the style of English, then uploads (303) and shows the row processing with a refresh only then", async () => {
    await editingTrial(user.id);
    const page = await (await user.client.get(EDITING)).text();
    expect(page).toContain('name="digitalEditFiles"');
    expect(page).toContain('value="British English"');
    expect(page).toContain('value="American English"');

    const missing = await uploadEdit(user.client, "nostyle.docx");
    expect(missing.status).toBe(400);
    const missingHtml = await missing.text();
    expect(missingHtml).toMatch(/id="digital-style-error"[^>]*>Please select your preferred type of English\./);

    const ok = await uploadEdit(user.client, "paper.docx", "American English");
    expect(ok.status, ok.status === 303 ? "" : (await ok.clone().text()).slice(0, 300)).toBe(303);
    expect(ok.headers.get("location")).toBe(EDITING);
    const list = await (await user.client.get(EDITING)).text();
    expect(list).toContain("paper.docx");
    expect(list).toMatch(/digital-row digital-processing/);
    expect(list).toMatch(REFRESH);

    const edit = await editOf(user.id, "paper.docx");
    await portal.ctx.db
      .updateTable("digital_edits")
      .set({ status: "completed", changes: 3, words: 4, completed_at: new Date() })
      .where("id", "=", edit.id)
      .execute();
    const done = await (await user.client.get(EDITING)).text();
    expect(done).not.toMatch(REFRESH);
    expect(done).toContain(`href="/api/digital-edit/${edit.id}/download"`);
    expect(done).toContain("3 changes");
    // The status filter is a segment of the path.
    const failedOnly = await (await user.client.get(`${EDITING}/failed`)).text();
    expect(failedOnly).not.toContain("paper.docx");
  });

  it("shows the details with both downloads and the next step; another's or unknown identity goes to the list", async () => {
    const edit = await editOf(user.id, "paper.docx");
    const html = await (await user.client.get(`${EDITING}/details/${edit.id}`)).text();
    expect(html).toContain(`href="/api/digital-edit/${edit.id}/download"`);
    expect(html).toContain(`href="/api/digital-edit/${edit.id}/lewis-version"`);
    expect(html).toContain(`href="/api/order-form/from-digital-edit/${edit.id}"`);
    expect(html).toContain("Send to professional editing");

    const other = await portal.researcher();
    for (const path of [`${EDITING}/details/${edit.id}`, `${EDITING}/details/${randomUUID()}`, `${EDITING}/delete/${edit.id}`]) {
      const r = await other.client.get(path);
      expect(r.status, path).toBe(302);
      expect(r.headers.get("location"), path).toBe(EDITING);
    }
    const post = await other.client.post(`${EDITING}/delete/${edit.id}`, {});
    expect(post.status).toBe(303);
    expect(post.headers.get("location")).toBe(EDITING);
    expect((await editOf(user.id, "paper.docx")).archived_at).toBeNull();
  });

  it("deletes after asking: GET changes nothing, POST → 303 → '{fileName} deleted'; a failed row says so", async () => {
    const up = await uploadEdit(user.client, "broken.docx", "British English");
    expect(up.status).toBe(303);
    const edit = await editOf(user.id, "broken.docx");
    // Still processing: no delete.
    expect((await user.client.get(`${EDITING}/delete/${edit.id}`)).status).toBe(302);
    await portal.ctx.db
      .updateTable("digital_edits")
      .set({ status: "failed", failure_reason: "unreadable" })
      .where("id", "=", edit.id)
      .execute();
    const list = await (await user.client.get(EDITING)).text();
    expect(list).toContain("We could not proofread this document.");
    expect(list).toContain(`href="${EDITING}/delete/${edit.id}"`);

    const ask = await user.client.get(`${EDITING}/delete/${edit.id}`);
    expect(ask.status).toBe(200);
    const askHtml = await ask.text();
    expect(askHtml).toContain("Delete broken.docx?");
    expect(askHtml).toMatch(/<form method="post" action="\/en\/researcher\/digital-editing\/delete\//);
    expect((await editOf(user.id, "broken.docx")).archived_at).toBeNull();

    const done = await user.client.post(`${EDITING}/delete/${edit.id}`, {});
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`${EDITING}?deleted=broken.docx`);
    expect((await editOf(user.id, "broken.docx")).archived_at).not.toBeNull();
    const after = await (await user.client.get(done.headers.get("location")!)).text();
    expect(after).toContain("broken.docx deleted");
    expect(after).not.toContain(`data-identity="${edit.id}"`);
  });

  it("shows the subscription at 30 % off with the list price struck through and the payment form", async () => {
    const html = await (await user.client.get(`${EDITING}/subscribe`)).text();
    expect(html).toMatch(/<s class="digital-list-price"[^>]*>\$200<\/s> <strong>\$140<\/strong>/);
    expect(html).toContain("30 % off");
    expect(html).toContain("Valid for one year from today");
    expect(html).toContain('name="idempotencyKey"');
    // An unknown receipt code is no purchase of this researcher: back to the offer.
    const r = await user.client.get(`${EDITING}/subscribe/${randomUUID()}/success`);
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe(`${EDITING}/subscribe`);
  });
});

describe("back from a payment", () => {
  it("waits for the purchase (refreshing every 10 s without JavaScript), then goes to the list once it is active", async () => {
    const user = await portal.researcher();
    const other = await portal.researcher();
    const receipt = `rc${randomUUID().replace(/-/g, "")}`;
    const id = randomUUID();
    await portal.ctx.db
      .insertInto("digital_purchases")
      .values({
        id,
        user_id: user.id,
        type: "editing",
        offer_identity: "editing-annual",
        price: 14000,
        currency_iso: "USD",
        months: 12,
        allowed_languages: JSON.stringify([]) as never,
        receipt_code: receipt,
        status: "pending",
      })
      .execute();
    const waiting = await user.client.get(`${EDITING}/subscribe/${receipt}/success`);
    expect(waiting.status).toBe(200);
    const html = await waiting.text();
    expect(html).toContain("We are waiting for the payment to be confirmed.");
    expect(html).toMatch(/<noscript><meta http-equiv="refresh" content="10"\/?><\/noscript>/);
    // Another researcher's receipt is no purchase of theirs; the translation page does not take an editing receipt.
    expect((await other.client.get(`${EDITING}/subscribe/${receipt}/success`)).headers.get("location")).toBe(`${EDITING}/subscribe`);
    expect((await user.client.get(`${TRANSLATIONS}/purchase/${receipt}/success`)).headers.get("location")).toBe(`${TRANSLATIONS}/purchase`);

    await portal.ctx.db
      .updateTable("digital_purchases")
      .set({ status: "active", starts_at: new Date(), ends_at: new Date(Date.now() + 365 * 86400_000), activated_at: new Date() })
      .where("id", "=", id)
      .execute();
    const done = await user.client.get(`${EDITING}/subscribe/${receipt}/success`);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`${EDITING}?notice=subscribed`);
    const list = await (await user.client.get(`${EDITING}?notice=subscribed`)).text();
    expect(list).toContain("Your digital editing subscription is active.");
    expect(list).toContain('name="digitalEditFiles"');
  });
});

describe("digital translation without JavaScript", () => {
  it("offers packages when no use is left, the form with uses, and refuses a missing language", async () => {
    const user = await portal.researcher();
    const empty = await (await user.client.get(TRANSLATIONS)).text();
    expect(empty).toContain("machine translation into English");
    expect(empty).not.toContain('name="digitalTranslationFiles"');
    expect(empty).toContain(`href="${TRANSLATIONS}/purchase"`);

    await translationUses(user.id, 3);
    const page = await (await user.client.get(TRANSLATIONS)).text();
    expect(page).toContain("3 uses left");
    expect(page).toContain('name="digitalTranslationFiles"');
    expect(page).toContain('<option value="es_ES">Spanish to English</option>');

    const form = new FormData();
    form.append("digitalTranslationFiles", new Blob([new Uint8Array(await makeDocx("Hola mundo."))]), "hola.docx");
    const r = await user.client.request(TRANSLATIONS, { method: "POST", body: form });
    expect(r.status).toBe(400);
    expect(await r.text()).toMatch(/id="digital-language-error"[^>]*>Please make a selection/);
  });

  it("warns when a document is over the word limit (303 to the list, no use spent)", async () => {
    const user = await portal.researcher();
    await translationUses(user.id, 1);
    const form = new FormData();
    form.append("digitalTranslationFiles", new Blob([new Uint8Array(await makeDocx("palabra ".repeat(10_050)))]), "largo.docx");
    form.append("language", "es_ES");
    const r = await user.client.request(TRANSLATIONS, { method: "POST", body: form });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe(TRANSLATIONS);
    const html = await (await user.client.get(TRANSLATIONS)).text();
    expect(html).toContain("This document has more than 10,000 words, the most one translation covers.");
    expect(html).toContain("1 use left");
  });

  it("labels a row the sandbox engine translated as test mode, and deletes only one's own", async () => {
    const user = await portal.researcher();
    await translationUses(user.id, 1);
    const purchase = await portal.ctx.db
      .selectFrom("digital_purchases")
      .select("id")
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    // The translation's source file: a real upload of this researcher (through digital editing's trial).
    expect(await uploadEditAsTrial(user)).toBe(303);
    const anyFile = { id: (await editOf(user.id, "seed.docx")).file_id };
    const id = randomUUID();
    await portal.ctx.db
      .insertInto("digital_orders")
      .values({
        id,
        user_id: user.id,
        file_id: anyFile.id,
        name: "hola.docx",
        language: "es_ES",
        purchase_id: purchase.id,
        status: "completed",
        engine: "sandbox",
        words: 2,
        completed_at: new Date(),
      })
      .execute();
    const html = await (await user.client.get(TRANSLATIONS)).text();
    expect(html).toContain("hola.docx");
    expect(html).toContain("Test mode");
    expect(html).toContain("Machine translation, draft quality.");
    expect(html).toContain(`href="/api/digital-order/${id}/download"`);

    const other = await portal.researcher();
    const theirs = await other.client.post(`${TRANSLATIONS}/delete/${id}`, {});
    expect(theirs.status).toBe(303);
    expect(theirs.headers.get("location")).toBe(TRANSLATIONS);
    const mine = await user.client.post(`${TRANSLATIONS}/delete/${id}`, {});
    expect(mine.headers.get("location")).toBe(`${TRANSLATIONS}?deleted=hola.docx`);
    const row = await portal.ctx.db.selectFrom("digital_orders").select("archived_at").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.archived_at).not.toBeNull();
  });

  it("lists the packages with the full price struck through when lower, and the payment form of the choice", async () => {
    const user = await portal.researcher();
    const html = await (await user.client.get(`${TRANSLATIONS}/purchase?package=three-uses&language=es_ES`)).text();
    expect(html).toContain('name="package"');
    expect(html).toMatch(/name="package" checked="" value="three-uses"/);
    expect(html).toContain("3 translations");
    expect(html).toMatch(/<s aria-label="Full price">\$75<\/s> <strong>\$65<\/strong>/);
    // The single use is not discounted: no struck price beside it.
    expect(html).toMatch(/1 use<!-- --> ·<!-- --> <!-- --> <strong>\$25<\/strong>/);
    expect(html).toContain('<input type="hidden" name="package" value="three-uses"/>');
    expect(html).toContain('<input type="hidden" name="language" value="es_ES"/>');
  });
});

async function uploadEditAsTrial(user: SignedInUser): Promise<number> {
  await editingTrial(user.id);
  return (await uploadEdit(user.client, "seed.docx", "British English")).status;
}

describe("the Chinese digital trial", () => {
  it("shows eligibility without granting on GET; POST grants once → the translation page with the success key", async () => {
    const user = await portal.researcher();
    await sql`update users set country_id = (select id from countries where iso2 = 'CN') where id = ${user.id}`.execute(portal.ctx.db);
    const count = async () =>
      Number(
        (
          await portal.ctx.db
            .selectFrom("digital_purchases")
            .select(sql<string>`count(*)`.as("n"))
            .where("user_id", "=", user.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const get = await user.client.get("/en/chinese-digital-trial");
    expect(get.status).toBe(200);
    expect(await get.text()).toContain("Get my free translation");
    expect(await count()).toBe(0);

    const post = await user.client.post("/en/chinese-digital-trial", {});
    expect(post.status).toBe(303);
    expect(post.headers.get("location")).toBe(`${TRANSLATIONS}?notice=trial`);
    expect(await count()).toBe(1);
    const page = await (await user.client.get(post.headers.get("location")!)).text();
    expect(page).toContain("Your free Chinese-to-English translation is ready to use.");

    const again = await user.client.post("/en/chinese-digital-trial", {});
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("The free Chinese translation is not available for your account.");
    expect(await count()).toBe(1);
  });
});

describe("the Word add-in", () => {
  it("downloads a TaskPaneApp manifest for Word whose pane and icons are ours", async () => {
    const user = await portal.researcher();
    const r = await user.client.get(`${EDITING}/add-in/manifest.xml`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("application/xml");
    expect(r.headers.get("content-disposition")).toContain("attachment");
    const xml = await r.text();
    expect(xml).toContain('xsi:type="TaskPaneApp"');
    expect(xml).toContain('<Host Name="Document"/>');
    expect(xml).toMatch(/<SourceLocation DefaultValue="https?:\/\/[^"]+\/en\/researcher\/digital-editing\/add-in\?host=word"\/>/);
    expect(xml).toContain("<Permissions>ReadWriteDocument</Permissions>");
    const icon = xml.match(/<IconUrl DefaultValue="https?:\/\/[^/"]+([^"]+)"/)?.[1];
    expect(icon).toBe("/digital/add-in-icon-32.png");
    const png = await new Client(portal.url).get(icon!);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toContain("image/png");
  });

  it("loads office.js only on the task pane opened by Word, and the CSP allows it only there", async () => {
    const user = await portal.researcher();
    const plain = await user.client.get(`${EDITING}/add-in`);
    expect(plain.status).toBe(200);
    expect(await plain.text()).not.toContain("appsforoffice.microsoft.com");
    expect(plain.headers.get("content-security-policy")).not.toContain("appsforoffice");
    const inWord = await user.client.get(`${EDITING}/add-in?host=word`);
    expect(await inWord.text()).toContain('src="https://appsforoffice.microsoft.com/lib/1/hosted/office.js"');
    expect(inWord.headers.get("content-security-policy")).toContain("script-src 'self' 'nonce-");
    expect(inWord.headers.get("content-security-policy")).toContain("https://appsforoffice.microsoft.com");
    const list = await user.client.get(EDITING);
    expect(list.headers.get("content-security-policy")).not.toContain("appsforoffice");
  });
});

describe("the survey", () => {
  it("refuses an incomplete answer, stores a full one and thanks; staff read it, researchers may not", async () => {
    const user = await portal.researcher();
    const bad = await user.client.post(`${EDITING}/survey`, { usefulness: "9", recommend: "yes" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Please answer the first two questions.");
    const comment = `Useful <b>tool</b> ${randomUUID()}`;
    const good = await user.client.post(`${EDITING}/survey`, { usefulness: "4", recommend: "yes", comment });
    expect(good.status).toBe(200);
    expect(await good.text()).toContain("Thank you for your answers.");
    const rows = await portal.ctx.db.selectFrom("digital_survey_answers").selectAll().where("user_id", "=", user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ usefulness: 4, recommend: true, comment });
    const tooLong = await user.client.post(`${EDITING}/survey`, { usefulness: "3", recommend: "no", comment: "x".repeat(2001) });
    expect(tooLong.status).toBe(400);
    // GET changes nothing: the form itself, open.
    const form = await user.client.get(`${EDITING}/survey`);
    expect(form.status).toBe(200);
    expect(await form.text()).toMatch(/<details class="card digital-survey" open="">/);
    expect(await portal.ctx.db.selectFrom("digital_survey_answers").select("id").where("user_id", "=", user.id).execute()).toHaveLength(1);

    expect((await user.client.get("/en/staff/surveys")).status).toBe(403);
    const staff = await portal.staff();
    const page = await staff.client.get("/en/staff/surveys");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Digital tools survey");
    expect(html).toContain(comment.replace("<b>", "&lt;b&gt;").replace("</b>", "&lt;/b&gt;"));
  });
});
