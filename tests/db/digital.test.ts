// Digital editing and translation on a real database (issue 24, ADR 073): access and ownership, purchases paid
// through the shared payment form (activated once, declined → void, two tabs, 50 submits with one key), spending a
// use (one conditional UPDATE: 2 and 20 concurrent creates for the last use), the word-limit state, the jobs with
// the real engines (sandbox translation), downloads, and the Chinese trial (once per user).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { PAYMENT_METHOD } from "#common/payments/methods";
import { TRANSLATION_WORD_LIMIT } from "#common/digital/constants";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher, createStaff, scopeFor, type TestUser } from "../helpers/factories";
import { makeDocx, makePdf } from "../helpers/fixtures";
import { captureOpenPaypalOrders, paymentSubmission } from "../helpers/payments";
import { cardSubmission } from "../helpers/prepay";
import type { Scope } from "../../server/scope";
import { multipartBody } from "../../server/http/multipart";
import { createWorker } from "../../server/jobs";
import { portalJobHandlers } from "../../server/job-handlers";
import {
  archiveDigitalEdit,
  archiveDigitalOrder,
  chineseTrialEligibility,
  createDigitalEdit,
  createDigitalOrder,
  digitalEditFile,
  digitalOrderFile,
  digitalPaymentForm,
  getDigitalEdit,
  getDigitalOrder,
  grantChineseTrial,
  loadDigitalEdit,
  loadDigitalOrders,
  payDigitalPurchase,
  purchaseByReceipt,
  searchDigitalEdits,
  searchDigitalOrders,
  startOrderFromDigitalEdit,
} from "../../server/digital";

let t: TestContext;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-digital-"));
  t = await createTestContext({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const TEXT =
  "The samples were recieved from three laboratories in the northern region. Each sample was stored at minus eighty degrees " +
  "until the the analysis began. Los resultados muestran que la concentración aumentó con la edad de los participantes.";

async function docx(text = TEXT) {
  return new Uint8Array(await makeDocx(text));
}

function body(field: string, files: { name: string; bytes: Uint8Array<ArrayBuffer> }[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(field, new File([f.bytes], f.name));
  return multipartBody(new Request("http://portal.test/api/digital/create", { method: "POST", body: form }));
}

async function runJobs() {
  const worker = createWorker(t.ctx, portalJobHandlers(), { maintenanceEveryMs: 0 });
  let n = 0;
  while (await worker.runOnce()) n++;
  return n;
}

const purchasesOf = (userId: number) => t.ctx.db.selectFrom("digital_purchases").selectAll().where("user_id", "=", userId).execute();
const digitalPayments = (userId: number) =>
  t.ctx.db.selectFrom("payments").selectAll().where("user_id", "=", userId).where("purpose", "=", "digital").execute();
const digitalInvoices = (userId: number) =>
  t.ctx.db.selectFrom("invoices").selectAll().where("user_id", "=", userId).where("kind", "=", "digital").execute();

async function buy(user: TestUser, offer: string, language?: "es_ES" | "pt_BR" | "zh_CN") {
  const r = await payDigitalPurchase(scopeFor(t.ctx, user), { availablePurchaseIdentity: offer, language }, cardSubmission(), randomUUID());
  if (!r.ok) throw new Error(`buy: ${r.error}`);
  return r.value;
}

describe("purchases through the payment form", () => {
  it("prices the subscription server-side (annual list − 30 %) and offers no bank transfer, boleto, credits or voucher", async () => {
    const user = await createResearcher(t.ctx);
    const form = await digitalPaymentForm(scopeFor(t.ctx, user), { availablePurchaseIdentity: "editing-annual" });
    expect(form.ok && [form.value.amount, form.value.offer.fullPrice, form.value.currency.isoCode]).toEqual([14000, 20000, "USD"]);
    const ids = form.ok ? form.value.data.methods.map((m) => m.id) : [];
    for (const excluded of [PAYMENT_METHOD.bankTransfer, PAYMENT_METHOD.boleto, PAYMENT_METHOD.credits, PAYMENT_METHOD.voucher])
      expect(ids).not.toContain(excluded);
    expect(await digitalPaymentForm(scopeFor(t.ctx, user), { availablePurchaseIdentity: "nothing" })).toMatchObject({ error: "not-found" });
  });

  it("a card payment issues a 'digital' invoice, settles it and activates the purchase once, for a year", async () => {
    const user = await createResearcher(t.ctx);
    const answer = await buy(user, "editing-annual");
    expect(answer.status).toBe("succeeded");
    const [purchase] = await purchasesOf(user.id);
    expect([purchase.status, Number(purchase.price), purchase.type]).toEqual(["active", 14000, "editing"]);
    const days = (new Date(purchase.ends_at!).getTime() - new Date(purchase.starts_at!).getTime()) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(365);
    expect(days).toBeLessThanOrEqual(366);
    const [invoice] = await digitalInvoices(user.id);
    expect([invoice.number, invoice.status, Number(invoice.balance)]).toEqual([purchase.invoice_number, "paid", 0]);
    expect(invoice.number).toMatch(/^DUS\d+$/);
    // The success page's poll by receipt code; another user's poll finds nothing.
    const polled = await purchaseByReceipt(scopeFor(t.ctx, user), purchase.receipt_code);
    expect(polled.ok && [polled.value.active, polled.value.valid]).toEqual([true, true]);
    const other = await createResearcher(t.ctx);
    expect(await purchaseByReceipt(scopeFor(t.ctx, other), purchase.receipt_code)).toMatchObject({ error: "not-found" });
    const load = await loadDigitalEdit(scopeFor(t.ctx, user));
    expect(load.ok && [load.value.hasDigitalEditingPurchase, load.value.canUpload, load.value.displayType]).toEqual([
      true,
      true,
      "subscription-type",
    ]);
  });

  it("a declined card voids the invoice and the purchase; the unticked terms box is refused before anything", async () => {
    const user = await createResearcher(t.ctx);
    const r = await payDigitalPurchase(
      scopeFor(t.ctx, user),
      { availablePurchaseIdentity: "one-use" },
      cardSubmission({ nonce: "fake-processor-declined-visa-nonce" }),
      randomUUID(),
    );
    expect(!r.ok && r.error).toBe("payment-declined");
    expect((await purchasesOf(user.id)).map((p) => p.status)).toEqual(["void"]);
    expect((await digitalInvoices(user.id)).map((i) => i.status)).toEqual(["void"]);
    const terms = await payDigitalPurchase(
      scopeFor(t.ctx, user),
      { availablePurchaseIdentity: "one-use" },
      cardSubmission({ acceptTerms: false }),
      randomUUID(),
    );
    expect(terms).toMatchObject({ ok: false, fieldErrors: { acceptTerms: "payment:errors.payment-accept-terms-and-conditions-failure" } });
    expect(await purchasesOf(user.id)).toHaveLength(1);
  });

  it("two tabs: a PayPal order still open sends the second key to it (payment-pending); the capture activates once", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    const first = await payDigitalPurchase(
      scope,
      { availablePurchaseIdentity: "three-uses" },
      paymentSubmission(PAYMENT_METHOD.paypal),
      randomUUID(),
    );
    expect(first.ok && first.value.status).toBe("pending");
    const [pending] = await purchasesOf(user.id);
    expect(pending.status).toBe("pending");
    expect((await purchaseByReceipt(scope, pending.receipt_code)).ok).toBe(true);
    const second = await payDigitalPurchase(scope, { availablePurchaseIdentity: "three-uses" }, cardSubmission(), randomUUID());
    expect(!second.ok && second.error).toBe("payment-pending");
    expect((await digitalPayments(user.id)).filter((p) => p.provider === "card")).toEqual([]);
    await captureOpenPaypalOrders(t.ctx, user.id);
    await captureOpenPaypalOrders(t.ctx, user.id);
    const after = await purchasesOf(user.id);
    expect(after.map((p) => [p.status, p.uses_remaining])).toEqual([["active", 3]]);
    const loads = await loadDigitalOrders(scope);
    expect(loads.ok && [loads.value.numberOfUsesAvailable, loads.value.displayType]).toEqual([3, "uses-type"]);
  });

  it("10 tabs with their own keys at once: every payment taken answers its tab, the others are told one is in progress", async () => {
    const user = await createResearcher(t.ctx);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        payDigitalPurchase(scopeFor(t.ctx, user), { availablePurchaseIdentity: "ten-uses" }, cardSubmission(), randomUUID()),
      ),
    );
    const succeeded = answers.filter((a) => a.ok && a.value.status === "succeeded");
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    for (const a of answers) if (!a.ok) expect(a.error).toBe("payment-in-progress");
    // Money moved exactly once per answered payment: as many captures, settled invoices and active purchases.
    const payments = await digitalPayments(user.id);
    expect(payments.filter((p) => p.status === "succeeded")).toHaveLength(succeeded.length);
    expect(payments).toHaveLength(succeeded.length);
    expect((await digitalInvoices(user.id)).map((i) => i.status)).toEqual(Array(succeeded.length).fill("paid"));
    expect((await purchasesOf(user.id)).map((p) => p.status)).toEqual(Array(succeeded.length).fill("active"));
  });

  it("50 concurrent submits with one key make one payment, one invoice and one purchase", async () => {
    const user = await createResearcher(t.ctx);
    const key = randomUUID();
    const card = cardSubmission();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => payDigitalPurchase(scopeFor(t.ctx, user), { availablePurchaseIdentity: "five-uses" }, card, key)),
    );
    expect(answers.some((a) => a.ok)).toBe(true);
    for (const a of answers) if (!a.ok) expect(["payment-in-progress", "idempotency-key-in-use", "request-in-progress"]).toContain(a.error);
    expect(await digitalPayments(user.id)).toHaveLength(1);
    expect(await digitalInvoices(user.id)).toHaveLength(1);
    expect((await purchasesOf(user.id)).map((p) => [p.status, p.uses_remaining])).toEqual([["active", 5]]);
  });
});

describe("digital edits", () => {
  it("needs a subscription or the trial flag; owner-only; job stores tracked and clean files; archive; order form once", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    const fields = { styleOfEnglish: "American English" };
    const refused = await createDigitalEdit(scope, body("digitalEditFiles", [{ name: "m.docx", bytes: await docx() }], fields));
    expect(refused).toMatchObject({ ok: false, error: "subscription-required" });
    await t.ctx.db.insertInto("digital_user_state").values({ user_id: user.id, editing_trial: true }).execute();
    const noStyle = await createDigitalEdit(scope, body("digitalEditFiles", [{ name: "m.docx", bytes: await docx() }]));
    expect(noStyle).toMatchObject({ ok: false, fieldErrors: { styleOfEnglish: "digital:errors.style-of-english-required" } });
    const pdf = await createDigitalEdit(
      scope,
      body("digitalEditFiles", [{ name: "f.pdf", bytes: new Uint8Array(await makePdf("x")) }], fields),
    );
    expect(pdf).toMatchObject({ ok: false, error: "filetype-not-allowed", details: { params: { fileName: "f.pdf" } } });
    const created = await createDigitalEdit(scope, body("digitalEditFiles", [{ name: "m.docx", bytes: await docx() }], fields));
    expect(created.ok).toBe(true);
    const edit = created.ok ? created.value.digitalEdits[0] : null!;
    expect(edit).toMatchObject({ status: "processing", fileName: "m.docx", styleOfEnglish: "American English" });
    expect(await archiveDigitalEdit(scope, edit.identity)).toMatchObject({ ok: false, error: "digital-still-processing" });
    expect(await digitalEditFile(scope, edit.identity, "tracked")).toMatchObject({ error: "not-found" });

    const other = scopeFor(t.ctx, await createResearcher(t.ctx));
    expect(await getDigitalEdit(other, edit.identity)).toMatchObject({ error: "not-found" });
    expect(await archiveDigitalEdit(other, edit.identity)).toMatchObject({ error: "not-found" });
    expect(await digitalEditFile(other, edit.identity, "clean")).toMatchObject({ error: "not-found" });
    expect(await startOrderFromDigitalEdit(other, edit.identity)).toMatchObject({ error: "not-found" });
    const otherSearch = await searchDigitalEdits(other, { identities: [edit.identity] });
    expect(otherSearch.ok && otherSearch.value.results).toEqual([]);

    expect(await runJobs()).toBeGreaterThan(0);
    const done = await getDigitalEdit(scope, edit.identity);
    expect(done.ok && done.value.status).toBe("completed");
    expect(done.ok && done.value.changes).toBeGreaterThan(0);
    const tracked = await digitalEditFile(scope, edit.identity, "tracked");
    const clean = await digitalEditFile(scope, edit.identity, "clean");
    expect(tracked.ok && tracked.value.fileName).toBe("m (tracked).docx");
    expect(clean.ok && clean.value.fileName).toBe("m (edited).docx");
    let streamed = 0;
    if (tracked.ok) for await (const chunk of tracked.value.stream()) streamed += (chunk as Buffer).length;
    expect(streamed).toBe(tracked.ok && tracked.value.size);
    const files = await t.ctx.db
      .selectFrom("files")
      .select(["kind", "original_name"])
      .where("owner_user_id", "=", user.id)
      .where("deleted_at", "is", null)
      .orderBy("created_at")
      .execute();
    // The upload, its tracked and clean outputs; the refused uploads (no style, a pdf) were not kept.
    expect(files.map((f) => [f.kind, f.original_name])).toEqual([
      ["digital", "m.docx"],
      ["digital", "m (tracked).docx"],
      ["digital", "m (edited).docx"],
    ]);
    // 'Send to professional editing' twice: one draft, one copy of the original.
    const a = await startOrderFromDigitalEdit(scope, edit.identity);
    const b = await startOrderFromDigitalEdit(scope, edit.identity);
    expect(a.ok && b.ok && a.value.orderFormId === b.value.orderFormId).toBe(true);
    const mains = await t.ctx.db
      .selectFrom("files")
      .select("original_name")
      .where("owner_user_id", "=", user.id)
      .where("kind", "=", "main")
      .execute();
    expect(mains.map((m) => m.original_name)).toEqual(["m.docx"]);

    expect(await archiveDigitalEdit(scope, edit.identity)).toEqual({ ok: true, value: { fileName: "m.docx" } });
    expect(await getDigitalEdit(scope, edit.identity)).toMatchObject({ error: "not-found" });
    expect(await digitalEditFile(scope, edit.identity, "tracked")).toMatchObject({ error: "not-found" });
    const search = await searchDigitalEdits(scope, {});
    expect(search.ok && search.value.results).toEqual([]);
  });

  it("filters the list by status in the query, so its pages count only those rows", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    await t.ctx.db.insertInto("digital_user_state").values({ user_id: user.id, editing_trial: true }).execute();
    const ids: string[] = [];
    for (const name of ["a.docx", "b.docx", "c.docx"]) {
      const r = await createDigitalEdit(
        scope,
        body("digitalEditFiles", [{ name, bytes: await docx() }], { styleOfEnglish: "British English" }),
      );
      if (!r.ok) throw new Error(r.error);
      ids.push(r.value.digitalEdits[0].identity);
    }
    await t.ctx.db.updateTable("digital_edits").set({ status: "failed", failure_reason: "unreadable" }).where("id", "=", ids[1]).execute();
    const failed = await searchDigitalEdits(scope, { status: "failed" });
    expect(failed.ok && failed.value.results.map((r) => r.identity)).toEqual([ids[1]]);
    expect(failed.ok && failed.value.pagination).toMatchObject({ total: 1, pages: 1 });
    const processing = await searchDigitalEdits(scope, { status: "processing" });
    expect(processing.ok && processing.value.pagination.total).toBe(2);
    expect(await searchDigitalEdits(scope, { status: "completed" })).toMatchObject({ ok: true, value: { results: [] } });
  });

  it("staff viewing as the researcher leave an audit row for each write", async () => {
    const user = await createResearcher(t.ctx);
    const staff = await createStaff(t.ctx);
    const viewAs: Scope = { ...scopeFor(t.ctx, user), impersonatorId: staff.id };
    await t.ctx.db.insertInto("digital_user_state").values({ user_id: user.id, editing_trial: true }).execute();
    const created = await createDigitalEdit(
      viewAs,
      body("digitalEditFiles", [{ name: "m.docx", bytes: await docx() }], { styleOfEnglish: "British English" }),
    );
    expect(created.ok).toBe(true);
    const id = created.ok ? created.value.digitalEdits[0].identity : "";
    const rows = await t.ctx.db
      .selectFrom("audit_log")
      .select(["actor_user_id", "action", "target_id"])
      .where("target_id", "=", id)
      .execute();
    expect(rows).toEqual([{ actor_user_id: staff.id, action: "impersonated.digital-edit.create", target_id: id }]);
    // The researcher's own writes leave none.
    const own = await createDigitalEdit(
      scopeFor(t.ctx, user),
      body("digitalEditFiles", [{ name: "n.docx", bytes: await docx() }], { styleOfEnglish: "British English" }),
    );
    const ownId = own.ok ? own.value.digitalEdits[0].identity : "";
    expect(await t.ctx.db.selectFrom("audit_log").select("id").where("target_id", "=", ownId).execute()).toEqual([]);
    await runJobs();
  });

  it("an unreadable document fails the edit with its reason", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    await t.ctx.db.insertInto("digital_user_state").values({ user_id: user.id, editing_trial: true }).execute();
    const created = await createDigitalEdit(
      scope,
      body("digitalEditFiles", [{ name: "empty.docx", bytes: await docx(" ") }], { styleOfEnglish: "British English" }),
    );
    expect(created.ok).toBe(true);
    await runJobs();
    const id = created.ok ? created.value.digitalEdits[0].identity : "";
    const row = await getDigitalEdit(scope, id);
    expect(row.ok && row.value.status).toBe("failed");
    expect(row.ok && row.value.failureReason).toBeTruthy();
    expect((await archiveDigitalEdit(scope, id)).ok).toBe(true);
  });
});

describe("translations: one use per create", () => {
  const create = async (scope: Scope, language = "es_ES", text = TEXT, name = "t.docx") =>
    createDigitalOrder(scope, body("digitalTranslationFiles", [{ name, bytes: await docx(text) }], { language }));

  it("spends one use in one transaction; no uses → no-uses-left; the job translates; owner-only download", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    expect(await create(scope)).toMatchObject({ ok: false, error: "no-uses-left" });
    await buy(user, "one-use", "es_ES");
    expect(await create(scope, "pt_BR")).toMatchObject({ ok: false, fieldErrors: {} });
    const r = await create(scope);
    expect(r.ok && r.value.type).toBe("translation");
    const order = r.ok ? r.value.digitalOrders[0] : null!;
    const [purchase] = await purchasesOf(user.id);
    expect([purchase.uses_remaining, order.digitalPurchaseIdentity]).toEqual([0, purchase.id]);
    expect(await create(scope)).toMatchObject({ ok: false, error: "no-uses-left" });
    const load = await loadDigitalOrders(scope);
    expect(load.ok && [load.value.numberOfUsesAvailable, load.value.hasUploadedDigitalTranslation, load.value.displayType]).toEqual([
      0,
      true,
      "previous-uploads-type",
    ]);
    await runJobs();
    const done = await getDigitalOrder(scope, order.identity);
    expect(done.ok && done.value.status).toBe("completed");
    expect(done.ok && done.value.engine).toMatch(/apertium|sandbox/);
    const file = await digitalOrderFile(scope, order.identity);
    expect(file.ok && file.value.fileName).toBe("t (English).docx");
    const other = scopeFor(t.ctx, await createResearcher(t.ctx));
    expect(await digitalOrderFile(other, order.identity)).toMatchObject({ error: "not-found" });
    expect(await getDigitalOrder(other, order.identity)).toMatchObject({ error: "not-found" });
    expect(await archiveDigitalOrder(other, order.identity)).toMatchObject({ error: "not-found" });
    const list = await searchDigitalOrders(scope, { type: "translation" });
    expect(list.ok && list.value.results.map((o) => o.identity)).toEqual([order.identity]);
    expect((await archiveDigitalOrder(scope, order.identity)).ok).toBe(true);
    expect(await digitalOrderFile(scope, order.identity)).toMatchObject({ error: "not-found" });
  });

  for (const n of [2, 20])
    it(`${n} concurrent creates with one use left make exactly one translation`, async () => {
      const user = await createResearcher(t.ctx);
      await buy(user, "one-use", "es_ES");
      const bytes = await docx();
      const answers = await Promise.all(
        Array.from({ length: n }, () =>
          createDigitalOrder(scopeFor(t.ctx, user), body("digitalTranslationFiles", [{ name: "t.docx", bytes }], { language: "es_ES" })),
        ),
      );
      expect(answers.filter((a) => a.ok)).toHaveLength(1);
      expect(answers.filter((a) => !a.ok).map((a) => !a.ok && a.error)).toEqual(Array(n - 1).fill("no-uses-left"));
      const rows = await t.ctx.db.selectFrom("digital_orders").select("id").where("user_id", "=", user.id).execute();
      expect(rows).toHaveLength(1);
      expect((await purchasesOf(user.id)).map((p) => p.uses_remaining)).toEqual([0]);
    });

  it("the word limit: refused with the file identity, nothing spent, the state kept until the next create", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    await buy(user, "one-use", "es_ES");
    const long = Array.from({ length: TRANSLATION_WORD_LIMIT + 50 }, (_, i) => `palabra${i % 7}`).join(" ");
    const r = await create(scope, "es_ES", long);
    expect(!r.ok && r.error).toBe("digital-translations-word-count-exceeded");
    const fileIdentity = !r.ok ? (r.details?.fileIdentity as string) : "";
    expect(fileIdentity).toMatch(/^[0-9a-f-]{36}$/);
    const load = await loadDigitalOrders(scope);
    expect(load.ok && [load.value.wordCountExceeded, load.value.fileIdentity, load.value.numberOfUsesAvailable]).toEqual([
      true,
      fileIdentity,
      1,
    ]);
    expect((await create(scope)).ok).toBe(true);
    const after = await loadDigitalOrders(scope);
    expect(after.ok && [after.value.wordCountExceeded, after.value.fileIdentity]).toEqual([false, null]);
  });
});

describe("the Chinese trial", () => {
  const cn = (user: TestUser): Scope => ({ ...scopeFor(t.ctx, user), localization: "CN" });

  it("is granted once per user in the China localisation: one use, zh_CN, price 0, no invoice", async () => {
    const user = await createResearcher(t.ctx);
    expect(await chineseTrialEligibility(scopeFor(t.ctx, user))).toEqual({ ok: true, value: { eligible: false } });
    expect(await grantChineseTrial(scopeFor(t.ctx, user))).toMatchObject({ ok: false, error: "not-eligible" });
    expect(await chineseTrialEligibility(cn(user))).toEqual({ ok: true, value: { eligible: true } });
    const answers = await Promise.all(Array.from({ length: 5 }, () => grantChineseTrial(cn(user))));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(await chineseTrialEligibility(cn(user))).toEqual({ ok: true, value: { eligible: false } });
    const purchases = await purchasesOf(user.id);
    expect(purchases.map((p) => [p.trial, Number(p.price), p.uses_remaining, p.allowed_languages, p.invoice_number, p.status])).toEqual([
      [true, 0, 1, ["zh_CN"], null, "active"],
    ]);
    expect(await digitalInvoices(user.id)).toEqual([]);
    // Its use translates Chinese only.
    const es = await createDigitalOrder(
      cn(user),
      body("digitalTranslationFiles", [{ name: "t.docx", bytes: await docx() }], { language: "es_ES" }),
    );
    expect(es).toMatchObject({ ok: false, error: "no-uses-left" });
    const zh = await createDigitalOrder(
      cn(user),
      body("digitalTranslationFiles", [{ name: "z.docx", bytes: await docx("研究结果表明浓度随年龄增加。") }], { language: "zh_CN" }),
    );
    expect(zh.ok).toBe(true);
  });

  it("is for a user whose country is CN too, and never for a visitor", async () => {
    const user = await createResearcher(t.ctx);
    const china = await t.ctx.db.selectFrom("countries").select("id").where("iso2", "=", "CN").executeTakeFirstOrThrow();
    await t.ctx.db.updateTable("users").set({ country_id: china.id }).where("id", "=", user.id).execute();
    expect(await chineseTrialEligibility(scopeFor(t.ctx, user))).toEqual({ ok: true, value: { eligible: true } });
    const visitor = { ...scopeFor(t.ctx, user), userId: null };
    expect(await chineseTrialEligibility(visitor)).toMatchObject({ ok: false, error: "sign-in-required" });
  });
});

describe("no translation engine for a language (live mode, Chinese)", () => {
  it("refuses the create before anything is spent: translation-engine-unavailable", async () => {
    const live = await createTestContext({ DATA_DIR: dataDir, TRANSLATION_MODE: "live" });
    try {
      const user = await createResearcher(live.ctx);
      const scope = { ...scopeFor(live.ctx, user), localization: "CN" };
      // No Chinese engine: the trial is not offered (a use nothing could spend).
      expect(await chineseTrialEligibility(scope)).toEqual({ ok: true, value: { eligible: false } });
      expect(await grantChineseTrial(scope)).toMatchObject({ ok: false, error: "not-eligible" });
      await live.ctx.db
        .insertInto("digital_purchases")
        .values({
          id: randomUUID(),
          user_id: user.id,
          type: "translation",
          offer_identity: "one-use",
          price: 0,
          currency_iso: "USD",
          starts_at: new Date(Date.now() - 1000),
          ends_at: new Date(Date.now() + 86_400_000),
          months: 12,
          uses_total: 1,
          uses_remaining: 1,
          allowed_languages: JSON.stringify(["zh_CN"]),
          receipt_code: randomUUID(),
          status: "active",
        })
        .execute();
      const r = await createDigitalOrder(
        scope,
        body("digitalTranslationFiles", [{ name: "z.docx", bytes: await docx("研究结果表明浓度随年龄增加。") }], { language: "zh_CN" }),
      );
      expect(r).toMatchObject({ ok: false, error: "translation-engine-unavailable", details: { params: { language: "zh_CN" } } });
      const purchases = await live.ctx.db.selectFrom("digital_purchases").select("uses_remaining").where("user_id", "=", user.id).execute();
      expect(purchases.map((p) => p.uses_remaining)).toEqual([1]);
      expect(await live.ctx.db.selectFrom("digital_orders").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
    } finally {
      await live.close();
    }
  });
});
