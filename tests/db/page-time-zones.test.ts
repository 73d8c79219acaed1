// Issue 22 item 2: times and dates in the reader's site's time zone and the portal's public address.
// - The Alipay QR code's expiry on the Chinese payment page is Beijing time, not UTC (it looked expired on arrival).
// - The certificate PDF is dated in its owner's localisation's time zone, the one the verify page uses
//   (certificateTimeZone), and its footer prints the public address, not the config `website`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createPlacedOrder, createResearcher } from "../helpers/factories";
import { systemScope } from "../../server/scope";
import { certifiedOrder, pdfBytes } from "../helpers/deliverables";
import { pendingPaymentView } from "../../server/payments/pending";
import { certificatePdfData, certificateTimeZone, findCertificateByCode } from "../../server/certificates";
import { publicOrigin } from "../../server/mail";
import { formatDate, formatDateTime } from "../../app/common/format";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const CHINESE = { country: "CN", countryCode: "CN", phoneNumber: "13800138000", currency: "CNY", language: "cn" };

describe("the Alipay QR expiry", () => {
  it("is printed in Beijing time on the Chinese page", async () => {
    const user = await createResearcher(t.ctx, CHINESE);
    const placed = await createPlacedOrder(t.ctx, user, { currencyIso: "CNY" });
    const expiresAt = "2026-03-05T15:07:00Z";
    const payment = await t.ctx.db
      .insertInto("payments")
      .values({
        user_id: user.id,
        purpose: "invoices",
        invoice_numbers: JSON.stringify([placed.invoiceNumber]),
        method_id: 19,
        provider: "alipay",
        status: "pending",
        amount: 15000,
        currency_iso: "CNY",
        next_action: JSON.stringify({ kind: "qr", content: "https://qr.example/x", expiresAt }),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const r = await pendingPaymentView(systemScope(t.ctx, { userId: user.id, lang: "cn", localization: "CN" }), String(payment.id));
    if (!r.ok || r.value.next?.kind !== "qr") throw new Error("expected the QR step");
    expect(r.value.next.expiresAt).toBe(formatDateTime(expiresAt, "cn", "Asia/Shanghai"));
    expect(r.value.next.expiresAt).toBe("2026年3月5日 下午11:07");
  });
});

describe("the certificate PDF", () => {
  it("is dated in the owner's time zone like the verify page, and prints the public address", async () => {
    const owner = await createResearcher(t.ctx, CHINESE);
    const { code } = await certifiedOrder(t.ctx, owner, [{ name: "edited.pdf", bytes: pdfBytes() }], { authors: "Li Ming" });
    // 20:00 UTC on 5 March is 6 March in Beijing.
    await t.ctx.db
      .updateTable("certificates")
      .set({ issued_at: new Date("2026-03-05T20:00:00Z") })
      .where("code", "=", code)
      .execute();
    const record = (await findCertificateByCode(t.ctx.db, code))!;
    expect(await certificateTimeZone(t.ctx, record)).toBe("Asia/Shanghai");
    const data = await certificatePdfData(t.ctx, record);
    expect(formatDate(data.issuedAt, data.lang, data.timeZone)).toBe(
      formatDate(record.issuedAt, "cn", await certificateTimeZone(t.ctx, record)),
    );
    expect(formatDate(data.issuedAt, "cn", data.timeZone)).toBe("2026年3月6日");
    const { config } = await t.ctx.config.snapshot();
    expect(data.company.website).toBe(new URL(publicOrigin(t.ctx.env)).host);
    expect(data.company.website).not.toBe(config.website);
    expect(config.website).toContain(":3000"); // the default the footer printed before
  });
});
