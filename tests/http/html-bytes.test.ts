// Every server-rendered page is well-formed UTF-8 without NUL bytes (issue 21 screenshots: "日�期" on the
// Chinese invoice list). React 18's streaming renderer, when a multi-byte character does not fit in what is
// left of its 2,048-byte chunk, writes the whole chunk — its unused zero bytes included (react#31134). Chinese,
// Japanese and Portuguese pages meet it wherever their text happens to cross a chunk boundary; entry.server
// trims the padding. These pages are long enough in CJK text to cross several boundaries.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, type TestPortal, type SignedInUser } from "../helpers/portal";
import { createInvoice } from "../helpers/factories";

let portal: TestPortal;
let chinese: SignedInUser;
let japanese: SignedInUser;
beforeAll(async () => {
  portal = await startRelaxedPortal();
  chinese = await portal.researcher({ country: "CN", countryCode: "CN", phoneNumber: "13800138000", currency: "CNY", language: "cn" });
  japanese = await portal.researcher({ language: "jp" });
  for (let i = 0; i < 12; i++) await createInvoice(portal.ctx, chinese);
});
afterAll(async () => portal.stop());

async function bytesOf(user: SignedInUser, path: string) {
  const r = await user.client.get(path);
  expect(r.status, path).toBe(200);
  return new Uint8Array(await r.arrayBuffer());
}

describe("server-rendered HTML bytes", () => {
  it("has no NUL byte and decodes as strict UTF-8 on long Chinese and Japanese pages", async () => {
    const pages: [SignedInUser, string][] = [
      [chinese, "/cn/researcher/invoices"],
      [chinese, "/cn/researcher/invoices/unpaid"],
      [chinese, "/cn/researcher"],
      [chinese, "/cn/account"],
      [chinese, "/cn/researcher/prepay"],
      [japanese, "/jp/researcher/invoices"],
      [japanese, "/jp/account"],
    ];
    let boundaries = 0;
    for (const [user, path] of pages) {
      const bytes = await bytesOf(user, path);
      boundaries += Math.floor(bytes.length / 2048);
      expect(bytes.indexOf(0), `${path}: first NUL byte`).toBe(-1);
      expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes), path).not.toThrow();
    }
    // The pages are big enough for the renderer's chunking to matter at all.
    expect(boundaries).toBeGreaterThan(20);
  });
});
