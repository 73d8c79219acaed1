// Certificates (issue 11 §6) and the zip of delivered files (§5) on a real database: lookup by code, the owner's
// title and authors, the check of an uploaded file against the recorded SHA-256, the PDF, and the exact size
// of the streamed zip.
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher, scopeFor } from "../helpers/factories";
import { certifiedOrder, pdfBytes, readZip } from "../helpers/deliverables";
import {
  certificateForOrder,
  certificatePdf,
  checkDeliveredFile,
  findCertificateByCode,
  formatCertificateCode,
  lookupCertificate,
  saveCertificateDetails,
} from "../../server/certificates";
import { contentDisposition, orderDownloads, resolveFiles, storedZipSize, zipEntryNames, zipResponse } from "../../server/orders/downloads";
import { listDeliverables } from "../../server/orders/deliverables";
import type { Scope } from "../../server/scope";
import { multipartBody, type MultipartBody } from "../../server/http/multipart";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const visitor = (ip = "203.0.113.9"): Scope => ({ ...scopeFor(t.ctx, { id: 0 }), session: null, userId: null, ip });

function multipart(fields: Record<string, string>, file?: { name: string; bytes: Uint8Array }): MultipartBody {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append("file", new Blob([Buffer.from(file.bytes)]), file.name);
  return multipartBody(new Request("http://localhost/check", { method: "POST", body: form }));
}

describe("certificates", () => {
  it("is found by its code however it is typed, and not by junk", async () => {
    const user = await createResearcher(t.ctx);
    const { code, externalId } = await certifiedOrder(t.ctx, user, [{ name: "edited.pdf", bytes: pdfBytes() }]);
    expect(code).toMatch(/^[2-9A-HJ-NP-Z]{16}$/);
    const typed = formatCertificateCode(code).toLowerCase().replace(/-/g, " - ");
    const found = await findCertificateByCode(t.ctx.db, typed);
    expect(found).toMatchObject({ code, externalId, authors: "", viewable: false });
    expect(await findCertificateByCode(t.ctx.db, "not a code")).toBeNull();
    expect(
      await findCertificateByCode(
        t.ctx.db,
        code.replace(/./, (c) => (c === "2" ? "3" : "2")),
      ),
    ).toBeNull();
    // The owner finds it by order; another user does not.
    expect((await certificateForOrder(scopeFor(t.ctx, user), externalId))?.code).toBe(code);
    const other = await createResearcher(t.ctx);
    expect(await certificateForOrder(scopeFor(t.ctx, other), externalId)).toBeNull();
  });

  it("limits lookups per address, known code or not, but not the owner's own", async () => {
    const user = await createResearcher(t.ctx);
    const { code } = await certifiedOrder(t.ctx, user, [{ name: "edited.pdf", bytes: pdfBytes() }]);
    const scope = visitor("198.51.100.77");
    for (let i = 0; i < 29; i++) expect((await lookupCertificate(scope, "ABCDEFGHJKLMNPQR")).ok).toBe(false);
    expect((await lookupCertificate(scope, code)).ok).toBe(true);
    const over = await lookupCertificate(scope, code);
    expect(!over.ok && over.error).toBe("too-many-requests");
    expect(!over.ok && Number(over.details?.retryAfterSeconds)).toBeGreaterThan(0);
    const unknown = await lookupCertificate(scope, "ABCDEFGHJKLMNPQR");
    expect(!unknown.ok && unknown.error).toBe("too-many-requests");
    // The owner from the same address still reads their own certificate; another address is not limited.
    expect((await lookupCertificate({ ...scopeFor(t.ctx, user), ip: "198.51.100.77" }, code)).ok).toBe(true);
    const fresh = await lookupCertificate(visitor("198.51.100.78"), "ABCDEFGHJKLMNPQR");
    expect(!fresh.ok && fresh.error).toBe("certificate-verification-error");
  });

  it("lets only the owner save the title and authors, both required", async () => {
    const user = await createResearcher(t.ctx);
    const { code, orderId } = await certifiedOrder(t.ctx, user, [{ name: "edited.pdf", bytes: pdfBytes() }]);
    const scope = scopeFor(t.ctx, user);
    const empty = await saveCertificateDetails(scope, code, { title: "  ", authors: undefined });
    expect(!empty.ok && empty.fieldErrors).toEqual({
      title: "certificate:errors.title-required",
      authors: "certificate:errors.authors-required",
    });
    const long = await saveCertificateDetails(scope, code, { title: "x".repeat(301), authors: "A" });
    expect(!long.ok && long.fieldErrors.title).toBe("certificate:errors.title-too-long");
    const other = await createResearcher(t.ctx);
    const foreign = await saveCertificateDetails(scopeFor(t.ctx, other), code, { title: "Mine", authors: "Me" });
    expect(!foreign.ok && foreign.error).toBe("not-found");
    const saved = await saveCertificateDetails(scope, formatCertificateCode(code), {
      title: "Drought  and soil\nbacteria",
      authors: "Ana Souza, 李明",
    });
    expect(saved.ok && saved.value).toMatchObject({ title: "Drought and soil bacteria", authors: "Ana Souza, 李明", viewable: true });
    const history = await t.ctx.db.selectFrom("order_history").select("event").where("order_id", "=", orderId).execute();
    expect(history.map((h) => h.event)).toContain("certificate-edited");
  });

  it("tells whether an uploaded file is one that was delivered, keeping nothing", async () => {
    const user = await createResearcher(t.ctx);
    const delivered = pdfBytes("delivered");
    const { code } = await certifiedOrder(t.ctx, user, [
      { name: "edited.pdf", bytes: delivered },
      { name: "tracked.pdf", bytes: pdfBytes() },
    ]);
    const filesBefore = await t.ctx.db.selectFrom("files").select("id").execute();
    const match = await checkDeliveredFile(visitor("192.0.2.1"), multipart({ code }, { name: "mine.pdf", bytes: delivered }));
    expect(match.ok && match.value.match).toMatchObject({ name: "edited.pdf", sha256: sha(delivered) });
    const changed = pdfBytes("delivered!");
    const none = await checkDeliveredFile(visitor("192.0.2.1"), multipart({ code }, { name: "mine.pdf", bytes: changed }));
    expect(none.ok && none.value).toMatchObject({ match: null, sha256: sha(changed), sizeBytes: changed.length });
    expect((await t.ctx.db.selectFrom("files").select("id").execute()).length).toBe(filesBefore.length);
    const noCode = await checkDeliveredFile(visitor("192.0.2.1"), multipart({}, { name: "a.pdf", bytes: delivered }));
    expect(!noCode.ok && noCode.error).toBe("code-required");
    const noFile = await checkDeliveredFile(visitor("192.0.2.1"), multipart({ code }));
    expect(!noFile.ok && noFile.error).toBe("file-required");
    const wrong = await checkDeliveredFile(
      visitor("192.0.2.1"),
      multipart({ code: "ABCDEFGHJKLMNPQR" }, { name: "a.pdf", bytes: delivered }),
    );
    expect(!wrong.ok && wrong.error).toBe("certificate-verification-error");
  });

  it("renders a real PDF with CJK text and the code, only once it has authors", async () => {
    const user = await createResearcher(t.ctx, { language: "cn" });
    const { code } = await certifiedOrder(t.ctx, user, [{ name: "编辑稿.pdf", bytes: pdfBytes() }]);
    const before = await findCertificateByCode(t.ctx.db, code);
    const refused = await certificatePdf(t.ctx, before!);
    expect(!refused.ok && refused.error).toBe("certificate-not-viewable");
    const saved = await saveCertificateDetails(scopeFor(t.ctx, user), code, { title: "干旱条件下的土壤细菌", authors: "李明, 王芳" });
    if (!saved.ok) throw new Error(saved.error);
    const pdf = await certificatePdf(t.ctx, saved.value);
    if (!pdf.ok) throw new Error(pdf.error);
    const text = pdf.value.toString("latin1");
    expect(text.startsWith("%PDF-")).toBe(true);
    expect(text.trimEnd().endsWith("%%EOF")).toBe(true);
    // The code is in the document's metadata (Keywords, Title); a CJK font is embedded.
    expect(text).toContain(formatCertificateCode(code));
    expect(text).toMatch(/\/FontFile2|\/FontFile3/);
    expect(text).toMatch(/\/BaseFont\s*\/[A-Z]{6}\+/);
    // Served from the cache the second time (same bytes).
    const again = await certificatePdf(t.ctx, saved.value);
    expect(again.ok && again.value.equals(pdf.value)).toBe(true);
  });
});

describe("the zip of delivered files", () => {
  it("has exactly the size it announces, with every file's bytes under a safe, unique name", async () => {
    const user = await createResearcher(t.ctx);
    const files = [
      { name: "edited.pdf", bytes: pdfBytes("one") },
      { name: "編集済み原稿.pdf", bytes: pdfBytes("two") },
      { name: "edited.pdf", bytes: pdfBytes("three") },
    ];
    const { externalId } = await certifiedOrder(t.ctx, user, files);
    const r = await orderDownloads(scopeFor(t.ctx, user), externalId);
    if (!r.ok) throw new Error(r.error);
    const resolved = await resolveFiles(t.ctx, r.value.deliverables);
    if (!resolved.ok) throw new Error(resolved.error);
    const response = zipResponse(resolved.value, `Researcher Services Completed files ${externalId}.zip`);
    const zip = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get("content-length"))).toBe(zip.length);
    expect(response.headers.get("x-total-bytes")).toBe(String(files.reduce((s, f) => s + f.bytes.length, 0)));
    const entries = readZip(zip);
    expect(entries.map((e) => e.name)).toEqual(["edited.pdf", "編集済み原稿.pdf", "edited (2).pdf"]);
    entries.forEach((e, i) => {
      expect(e.method).toBe(0);
      expect(sha(e.data)).toBe(sha(files[i].bytes));
    });
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="Researcher Services Completed files ${externalId}.zip"; filename*=UTF-8''Researcher%20Services%20Completed%20files%20${externalId}.zip`,
    );
  });

  it("names entries without paths and escapes non-ASCII download names (RFC 5987)", () => {
    expect(zipEntryNames(["../a/b.pdf", "C:x.pdf", "a.pdf", "A.PDF", ".hidden"])).toEqual([
      "__a_b.pdf",
      "C_x.pdf",
      "a.pdf",
      "A (2).PDF",
      "_hidden",
    ]);
    expect(contentDisposition("编辑稿 (final).pdf")).toBe(
      `attachment; filename="___ (final).pdf"; filename*=UTF-8''%E7%BC%96%E8%BE%91%E7%A8%BF%20%28final%29.pdf`,
    );
    expect(storedZipSize([{ name: "a", sizeBytes: 10 }])).toBe(22 + 30 + 1 + 10 + 16 + 46 + 1);
    expect(storedZipSize([{ name: "a", sizeBytes: 0xffffffff }])).toBeNull();
  });

  it("refuses the files of an unpaid order to its owner and another user's order to anyone but staff", async () => {
    const user = await createResearcher(t.ctx);
    const { externalId, staff } = await certifiedOrder(t.ctx, user, [{ name: "edited.pdf", bytes: pdfBytes() }], { paid: false });
    const held = await orderDownloads(scopeFor(t.ctx, user), externalId);
    expect(!held.ok && held.error).toBe("download-not-available");
    const other = await createResearcher(t.ctx);
    const foreign = await orderDownloads(scopeFor(t.ctx, other), externalId);
    expect(!foreign.ok && foreign.error).toBe("not-found");
    const staffScope: Scope = {
      ...scopeFor(t.ctx, staff),
      session: { user: { id: staff.id, isStaff: true } } as unknown as Scope["session"],
    };
    const asStaff = await orderDownloads(staffScope, externalId);
    expect(asStaff.ok && asStaff.value.deliverables).toHaveLength(1);
  });

  it("stops reading files when the client goes away", async () => {
    const user = await createResearcher(t.ctx);
    const { orderId } = await certifiedOrder(t.ctx, user, [{ name: "edited.pdf", bytes: pdfBytes() }]);
    const resolved = await resolveFiles(t.ctx, await listDeliverables(t.ctx.db, orderId));
    if (!resolved.ok) throw new Error(resolved.error);
    const big = `${resolved.value[0].key}.big`;
    await t.ctx.storage.put(big, Readable.from([Buffer.alloc(8 * 1024 * 1024, 7)]));
    const { zipStats } = await import("../../server/orders/downloads");
    const response = zipResponse([{ ...resolved.value[0], key: big, sizeBytes: 8 * 1024 * 1024 }], "x.zip");
    const reader = response.body!.getReader();
    await reader.read();
    expect(zipStats().openZipFiles).toBe(1);
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 100));
    expect(zipStats().openZipFiles).toBe(0);
    await t.ctx.storage.delete(big);
  });
});
