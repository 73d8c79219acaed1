// The referral flyer PDF (issue 25 item 3, ADR 076): drawn in the PDF pool, it parses, its text has the referral
// link and the offer in the user's language (CJK too), and its embedded QR image decodes (jsqr) to the link.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher, scopeFor } from "../helpers/factories";
import { pdfText } from "../helpers/invoices";
import { qrOf } from "../helpers/pdf-qr";
import { referralFlyerPdf, referralPage } from "../../server/referrals";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t?.close());

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
