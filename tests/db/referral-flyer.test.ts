// The referral flyer PDF (issue 25 item 3, ADR 076): drawn in the PDF pool, it parses, its text has the referral
// link and the offer in the user's language (CJK too), and its embedded QR image decodes (jsqr) to the link.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import jsQR from "jsqr";
import { extractImages, getDocumentProxy } from "unpdf";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher, scopeFor } from "../helpers/factories";
import { pdfText } from "../helpers/invoices";
import { referralFlyerPdf, referralPage } from "../../server/referrals";

// pdf.js's operator list (fonts) uses ArrayBuffer.prototype.transferToFixedLength (Node 21+): a copy where missing.
const proto = ArrayBuffer.prototype as unknown as { transferToFixedLength?: (n?: number) => ArrayBuffer };
if (!proto.transferToFixedLength)
  Object.defineProperty(ArrayBuffer.prototype, "transferToFixedLength", {
    value(this: ArrayBuffer, n?: number) {
      const copy = new ArrayBuffer(n ?? this.byteLength);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(n ?? this.byteLength, this.byteLength)));
      return copy;
    },
  });

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t?.close());

/** The first image of page 1 as RGBA, decoded as a QR code. */
async function qrOf(pdf: Buffer): Promise<string | null> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const images = await extractImages(doc, 1);
  expect(images.length).toBeGreaterThan(0);
  const img = images[0];
  const rgba = new Uint8ClampedArray(img.width * img.height * 4);
  for (let i = 0; i < img.width * img.height; i++) {
    const c = img.channels;
    const r = img.data[i * c];
    const g = c >= 3 ? img.data[i * c + 1] : r;
    const b = c >= 3 ? img.data[i * c + 2] : r;
    rgba.set([r, g, b, 255], i * 4);
  }
  return jsQR(rgba, img.width, img.height)?.data ?? null;
}

describe("the referral flyer", () => {
  it("has the link in its text and in its QR code (English)", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    const page = await referralPage(scope);
    const link = page.ok ? page.value.referralLink : "";
    expect(link).toMatch(/\/en\/register\?referralCode=/);
    const r = await referralFlyerPdf(scope);
    expect(r.ok).toBe(true);
    const pdf = r.ok ? r.value.pdf : Buffer.alloc(0);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const text = await pdfText(pdf);
    expect(text).toContain(link.replace(/\s+/g, ""));
    expect(text).toContain("$40offyourfirstorder");
    expect(await qrOf(pdf)).toBe(link);
  });

  it("is in Chinese for a Chinese page, with the CJK text extractable", async () => {
    const user = await createResearcher(t.ctx, { language: "cn" });
    const scope = { ...scopeFor(t.ctx, user), lang: "cn" as const };
    const r = await referralFlyerPdf(scope);
    const pdf = r.ok ? r.value.pdf : Buffer.alloc(0);
    const text = await pdfText(pdf);
    expect(text).toContain("携手打造更好的稿件");
    expect(text).toContain("首次下单减免");
    const page = await referralPage(scope);
    expect(await qrOf(pdf)).toBe(page.ok ? page.value.referralLink : "");
  });
});
