// Completed files over HTTP (issue 11 §5): the list, one file and the streamed zip to the owner (contents
// checked byte for byte), staff too; another researcher 404, an unpaid order 403, a visitor 401; a client that
// goes away mid-zip leaves the server healthy with no file left open; and a 60 MB zip that is not buffered.
import http from "node:http";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { completedOrder, pdfBytes, readZip, storeLargeDeliverable } from "../helpers/deliverables";
import { zipStats } from "../../server/orders/downloads";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describe("delivered files", () => {
  it("lists, serves and zips the owner's files once available, to staff too, and to nobody else", async () => {
    const owner = await portal.researcher();
    const files = [
      { name: "edited.pdf", bytes: pdfBytes("one") },
      { name: "编辑稿 final.pdf", bytes: pdfBytes("two") },
    ];
    const { externalId, staff } = await completedOrder(portal.ctx, owner, files);

    const list = await owner.client.get(`/api/order/${externalId}/deliverables`);
    expect(list.status).toBe(200);
    const body = await list.json();
    expect(body).toMatchObject({ companyName: "Researcher Services", externalId, zipPath: `/api/order/${externalId}/deliverables.zip` });
    expect(body.files.map((f: { name: string }) => f.name)).toEqual(["edited.pdf", "编辑稿 final.pdf"]);
    expect(body.files[1].sha256).toBe(sha(files[1].bytes));

    const one = await owner.client.get(body.files[1].path);
    expect(one.status).toBe(200);
    expect(one.headers.get("x-content-type-options")).toBe("nosniff");
    expect(one.headers.get("content-length")).toBe(String(files[1].bytes.length));
    expect(one.headers.get("content-disposition")).toContain("filename*=UTF-8''%E7%BC%96%E8%BE%91%E7%A8%BF%20final.pdf");
    expect(sha(new Uint8Array(await one.arrayBuffer()))).toBe(sha(files[1].bytes));

    const zip = await owner.client.get(`/api/order/${externalId}/deliverables.zip`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    expect(zip.headers.get("content-disposition")).toContain(`filename="Researcher Services Completed files ${externalId}.zip"`);
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(Number(zip.headers.get("content-length"))).toBe(bytes.length);
    const entries = readZip(bytes);
    expect(entries.map((e) => e.name)).toEqual(["edited.pdf", "编辑稿 final.pdf"]);
    entries.forEach((e, i) => expect(sha(e.data)).toBe(sha(files[i].bytes)));

    // HEAD: the headers alone.
    const head = await owner.client.request(`/api/order/${externalId}/deliverables.zip`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(bytes.length));

    // The file by its id: the owner's own.
    const fileRow = await portal.ctx.db
      .selectFrom("deliverables")
      .select("file_id")
      .where("key", "=", body.files[0].key)
      .executeTakeFirstOrThrow();
    expect((await owner.client.get(`/api/file/${fileRow.file_id}/download`)).status).toBe(200);

    // Staff (the console) get them; another researcher and a visitor do not.
    const staffClient = await portal.signIn(staff);
    expect((await staffClient.get(`/api/order/${externalId}/deliverables.zip`)).status).toBe(200);
    const other = await portal.researcher();
    for (const path of [
      `/api/order/${externalId}/deliverables`,
      `/api/order/${externalId}/deliverables.zip`,
      body.files[0].path,
      `/api/file/${fileRow.file_id}/download`,
    ]) {
      expect((await other.client.get(path)).status).toBe(404);
      expect((await new Client(portal.url).get(path)).status).toBe(401);
    }
    expect((await owner.client.get(`/api/order/${externalId}/deliverables/nokey12345`)).status).toBe(404);
  });

  it("holds the files of an unpaid order back from its owner (403), not from staff", async () => {
    const owner = await portal.researcher();
    const { externalId, staff } = await completedOrder(portal.ctx, owner, [{ name: "edited.pdf", bytes: pdfBytes() }], { paid: false });
    const r = await owner.client.get(`/api/order/${externalId}/deliverables.zip`);
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ error: "download-not-available" });
    expect((await owner.client.get(`/api/order/${externalId}/deliverables`)).status).toBe(403);
    const row = await portal.ctx.db
      .selectFrom("deliverables as d")
      .innerJoin("orders as o", "o.id", "d.order_id")
      .select("d.file_id")
      .where("o.external_id", "=", externalId)
      .executeTakeFirstOrThrow();
    expect((await owner.client.get(`/api/file/${row.file_id}/download`)).status).toBe(404);
    expect((await (await portal.signIn(staff)).get(`/api/order/${externalId}/deliverables.zip`)).status).toBe(200);
  });

  it("streams a 60 MB zip without holding it in memory, and survives a client that goes away", async () => {
    const owner = await portal.researcher();
    const { externalId, orderId } = await completedOrder(portal.ctx, owner, [{ name: "small.pdf", bytes: pdfBytes() }]);
    for (let i = 0; i < 3; i++) await storeLargeDeliverable(portal.ctx, orderId, owner.id, `large-${i}.pdf`, 20 * 1024 * 1024);
    const cookie = owner.client.cookieHeader();
    const url = new URL(`/api/order/${externalId}/deliverables.zip`, portal.url);

    // Read slowly with a small window while sampling the process's memory: it must stay far below the zip's size.
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    let received = 0;
    const length = await new Promise<number>((resolve, reject) => {
      http
        .get(url, { headers: { cookie } }, (res) => {
          const total = Number(res.headers["content-length"]);
          res.on("data", (chunk: Buffer) => {
            received += chunk.length;
            peak = Math.max(peak, process.memoryUsage().rss);
          });
          res.on("end", () => resolve(total));
          res.on("error", reject);
        })
        .on("error", reject);
    });
    expect(received).toBe(length);
    expect(length).toBeGreaterThan(60 * 1024 * 1024);
    // Generous: buffering the zip would add at least its 60 MB.
    expect(peak - before).toBeLessThan(45 * 1024 * 1024);

    // A client that reads a few chunks and hangs up: the server stops reading and closes the file.
    await new Promise<void>((resolve, reject) => {
      const req = http.get(url, { headers: { cookie } }, (res) => {
        let seen = 0;
        res.on("data", (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > 2 * 1024 * 1024) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on("error", (e) => (req.destroyed ? resolve() : reject(e)));
    });
    for (let i = 0; i < 50 && zipStats().openZipFiles > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(zipStats().openZipFiles).toBe(0);
    // Still serving.
    const again = await owner.client.get(`/api/order/${externalId}/deliverables`);
    expect(again.status).toBe(200);
  });
});
