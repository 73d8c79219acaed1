// The anonymous storage quota holds per address (issue 20 §5, ADR 049): a visitor who takes a new draft cookie
// is still counted with the drafts its address already filled, on the API and on the wizard's pages alike; the
// daily cap counts removed files too. Another address, and a signed-in researcher, are not affected.
// The portal trusts X-Forwarded-For from its loopback peer here, so the test speaks from several addresses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { makeDocx } from "../helpers/fixtures";

let portal: TestPortal;
let docx: Buffer;
beforeAll(async () => {
  docx = await makeDocx("Quotas per address keep one visitor from filling the portal. ".repeat(30));
  portal = await startRelaxedPortal({
    TRUST_PROXY: "loopback",
    // Two files per address (and per draft), three a day.
    CONFIG_UPLOAD_QUOTA_ANONYMOUS_BYTES: String(2 * docx.length + 100),
    CONFIG_UPLOAD_QUOTA_ANONYMOUS_DAILY_BYTES: String(3 * docx.length + 100),
  });
});
afterAll(async () => portal.stop());

/** An anonymous browser (its own cookie jar, so its own draft) speaking from `address`. */
class Visitor extends Client {
  constructor(readonly address: string) {
    super(portal.url);
  }
  request(pathname: string, init: RequestInit & { form?: Record<string, string> } = {}) {
    const headers = new Headers(init.headers);
    headers.set("x-forwarded-for", this.address);
    return super.request(pathname, { ...init, headers });
  }
}

const paper = () => new Blob([new Uint8Array(docx)]);

/** A new draft through the API, and one upload to it: the status and the refused files' codes. */
async function apiDraft(v: Visitor): Promise<string> {
  return (await (await v.get("/api/order-form/new")).json()).orderForm.identity;
}
async function apiUpload(v: Visitor, id: string): Promise<{ status: number; rejected: string[] }> {
  const fd = new FormData();
  fd.append("mainFiles", paper(), "paper.docx");
  const r = await v.request(`/api/order-form/${id}/files`, { method: "POST", body: fd });
  const body = await r.json();
  return { status: r.status, rejected: (body.rejected ?? []).map((x: { code: string }) => x.code) };
}

/** An upload on the wizard's get-started page (no JavaScript): the status and the visible page. */
async function pageUpload(v: Visitor): Promise<{ status: number; html: string }> {
  const fd = new FormData();
  fd.append("intent", "upload");
  fd.append("mainFiles", paper(), "paper.docx");
  const r = await v.request("/en/researcher/submit/get-started", { method: "POST", body: fd });
  const html = await r.text();
  // The page as rendered, without the translations it ships for the browser (which hold every message).
  return { status: r.status, html: html.slice(0, html.indexOf('<script id="i18n-resources"')) };
}

const FULL = "Your storage space for uploads is full.";

describe("the anonymous quota per address", () => {
  it("refuses a second draft of one address once the address holds the quota, on the API and the pages", async () => {
    const first = new Visitor("203.0.113.50");
    const firstId = await apiDraft(first);
    expect(await apiUpload(first, firstId)).toEqual({ status: 201, rejected: [] });
    expect(await apiUpload(first, firstId)).toEqual({ status: 201, rejected: [] });

    // A new cookie is a new draft, with nothing in it: still the same address.
    const second = new Visitor("203.0.113.50");
    const secondId = await apiDraft(second);
    expect(secondId).not.toBe(firstId);
    expect(await apiUpload(second, secondId)).toEqual({ status: 400, rejected: ["storage-quota-exceeded"] });

    const third = new Visitor("203.0.113.50");
    expect((await third.get("/en/researcher/submit/new")).status).toBe(302);
    const page = await pageUpload(third);
    expect(page.status).toBe(400);
    expect(page.html).toContain(FULL);

    // Another address uploads as before, on both paths.
    const other = new Visitor("198.51.100.50");
    expect(await apiUpload(other, await apiDraft(other))).toEqual({ status: 201, rejected: [] });
    const otherPage = new Visitor("198.51.100.51");
    await otherPage.get("/en/researcher/submit/new");
    const accepted = await pageUpload(otherPage);
    expect(accepted.status).toBe(200);
    expect(accepted.html).not.toContain(FULL);

    // A researcher who signs in from the full address has the user quota, not the address's.
    const { client } = await portal.researcher();
    const signedIn = Object.assign(new Visitor("203.0.113.50"), { cookies: client.cookies });
    expect(await apiUpload(signedIn, await apiDraft(signedIn))).toEqual({ status: 201, rejected: [] });
  });

  it("caps what one address uploads in a day, files removed since included", async () => {
    const v = new Visitor("192.0.2.80");
    await v.get("/en/researcher/submit/new");
    const remove = async () => {
      const file = await portal.ctx.db
        .selectFrom("files")
        .select("id")
        .where("uploader_address", "=", "192.0.2.80")
        .where("deleted_at", "is", null)
        .executeTakeFirstOrThrow();
      const r = await v.request("/en/researcher/submit/get-started", {
        method: "POST",
        body: new URLSearchParams({ removeFile: file.id }),
      });
      expect(r.status).toBe(200);
    };
    // Upload and remove, three times: never more than one file held, three uploaded.
    for (let i = 0; i < 3; i++) {
      expect((await pageUpload(v)).status).toBe(200);
      await remove();
    }
    const fourth = await pageUpload(v);
    expect(fourth.status).toBe(400);
    expect(fourth.html).toContain(FULL);
    const elsewhere = new Visitor("192.0.2.81");
    await elsewhere.get("/en/researcher/submit/new");
    expect((await pageUpload(elsewhere)).status).toBe(200);
  });
});
