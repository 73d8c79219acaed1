// Issue 22 item 1: the thank-you page claims no confirmation mail that was not sent.
// Issue 22 item 2: `/api/certificate/{code}` names the certified services in the caller's language (never
// catalogue keys like `catalogue:services.standard-editing`), and the verify page dates the certificate as its
// PDF does: in the owner's localisation's time zone (a Chinese certificate issued at 20:00 UTC is the next day).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, RELAXED_RATE_LIMITS, type TestPortal } from "../helpers/portal";
import { createPlacedOrder, createResearcher } from "../helpers/factories";
import { certifiedOrder, pdfBytes } from "../helpers/deliverables";

const CHINESE = { country: "CN", countryCode: "CN", phoneNumber: "13800138000", currency: "CNY", language: "cn" };

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal({
    CONFIG_RATE_LIMITS: JSON.stringify({ ...RELAXED_RATE_LIMITS, certificateLookupsPer10Minutes: 1000 }),
  });
  // A shared machine can take more than the default minute to build a portal.
}, 240_000);
afterAll(async () => portal?.stop());

describe("a Chinese researcher's certificate", () => {
  it("is named and dated alike by the API, the verify page and the PDF", async () => {
    const owner = await createResearcher(portal.ctx, CHINESE);
    const { code } = await certifiedOrder(portal.ctx, owner, [{ name: "edited.pdf", bytes: pdfBytes() }], { authors: "Li Ming" });
    await portal.ctx.db
      .updateTable("certificates")
      .set({ issued_at: new Date("2026-03-05T20:00:00Z") })
      .where("code", "=", code)
      .execute();
    const visitor = new Client(portal.url);

    const cn = await (await visitor.request(`/api/certificate/${code}`, { headers: { "accept-language": "zh-CN" } })).json();
    expect(cn.certificate.services).toContain("标准润色");
    const en = await (await visitor.request(`/api/certificate/${code}`, { headers: { "accept-language": "en" } })).json();
    expect(en.certificate.services).toContain("Standard Editing");
    expect(JSON.stringify([cn, en])).not.toContain("catalogue:");

    const page = await (await visitor.get(`/cn/certificate/verify?code=${code}`)).text();
    expect(page).toContain("2026年3月6日");
    expect(page).not.toContain("2026年3月5日");
  });
});

describe("the thank-you page's confirmation sentence", () => {
  it("says the mail is on its way before it is sent, and sent once SMTP took it", async () => {
    const user = await portal.researcher();
    const placed = await createPlacedOrder(portal.ctx, user);
    const page = `/en/researcher/index/details/${placed.externalId}/thank-you`;
    let html = await (await user.client.get(page)).text();
    // The sentence shown (the page's embedded translations hold every variant, so look at the paragraph only).
    const sentence = (page: string) => /<p data-confirmation-mail="(\w+)">([^<]*)<\/p>/.exec(page)?.slice(1);
    expect(sentence(html)).toEqual(["pending", `A confirmation will be e-mailed to ${user.email} shortly.`]);
    // As the outbox row of the "order received" mail says once delivered (server/orders/life.ts).
    const order = await portal.ctx.db
      .selectFrom("orders")
      .select("id")
      .where("external_id", "=", placed.externalId)
      .executeTakeFirstOrThrow();
    const history = await portal.ctx.db
      .selectFrom("order_history")
      .select("id")
      .where("order_id", "=", order.id)
      .where("event", "=", "place")
      .executeTakeFirstOrThrow();
    await portal.ctx.db
      .insertInto("mail_outbox")
      .values({
        to_email: user.email,
        subject: "Order received",
        text_body: "…",
        template: "order-place",
        lang: "en",
        user_id: user.id,
        status: "sent",
        dedupe_key: `order-history:${history.id}:${user.email.toLowerCase()}`,
      })
      .onConflict((oc) => oc.column("dedupe_key").doUpdateSet({ status: "sent" }))
      .execute();
    html = await (await user.client.get(page)).text();
    expect(sentence(html)).toEqual(["sent", `We have e-mailed a confirmation to ${user.email}.`]);
  });
});
