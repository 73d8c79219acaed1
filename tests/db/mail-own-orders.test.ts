// Issue 22 item 1 (ADR 062): the researcher's own order news reaches their own address before they verified it;
// no message is silently lost (a refused or undelivered one stays in the outbox with its reason, a failed one is
// retried by its job); the thank-you page's confirmation state says only what is true.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createPlacedOrder, createResearcher, type TestUser } from "../helpers/factories";
import { confirmationMailOf, notifyHistory, orderHistory } from "../../server/orders/life";
import { listOutbox, sendMail, UNVERIFIED_REASON } from "../../server/mail";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

async function unverified(): Promise<TestUser> {
  const user = await createResearcher(t.ctx);
  await t.ctx.db.updateTable("users").set({ email_verified_at: null }).where("id", "=", user.id).execute();
  return user;
}

async function placedOrder(user: TestUser) {
  const placed = await createPlacedOrder(t.ctx, user);
  const order = await t.ctx.db.selectFrom("orders").select("id").where("external_id", "=", placed.externalId).executeTakeFirstOrThrow();
  const [place] = await orderHistory(t.ctx.db, order.id);
  return { orderId: order.id, historyId: String(place.id) };
}

const notifiedAt = async (historyId: string) =>
  (await t.ctx.db.selectFrom("order_history").select("notified_at").where("id", "=", historyId).executeTakeFirstOrThrow()).notified_at;

describe("order e-mail to the researcher's own address (ADR 062)", () => {
  it("reaches an unverified researcher's own address, and the thank-you state follows it", async () => {
    const user = await unverified();
    const { orderId, historyId } = await placedOrder(user);
    expect(await confirmationMailOf(t.ctx, orderId)).toEqual({ state: "pending", email: user.email });
    expect(await notifyHistory(t.ctx, historyId)).toBe("sent");
    const [mail] = await listOutbox(t.ctx, { to: user.email });
    expect(mail).toMatchObject({ template: "order-place", status: "queued", user_id: user.id });
    // Kept without SMTP: not delivered yet, so the page does not say "we have e-mailed you".
    expect(await confirmationMailOf(t.ctx, orderId)).toEqual({ state: "pending", email: user.email });
    await t.ctx.db.updateTable("mail_outbox").set({ status: "sent" }).where("id", "=", mail.id).execute();
    expect(await confirmationMailOf(t.ctx, orderId)).toEqual({ state: "sent", email: user.email });
  });

  it("still refuses what a requester aims at an unverified address, even with the owner flag for someone else", async () => {
    const owner = await unverified();
    const other = await createResearcher(t.ctx);
    const base = { subject: "Quote", text: "Hello", template: "price-quote", lang: "en" };
    // A request's mail to one's own unverified address (a quote) is still refused: the requester is told.
    expect(await sendMail(t.ctx, { ...base, to: owner.email, userId: owner.id })).toEqual({ id: null, status: "unverified" });
    // The owner flag names whose news it is: it opens no other account's unverified address.
    expect(await sendMail(t.ctx, { ...base, to: owner.email, userId: other.id, toOwner: true })).toEqual({
      id: null,
      status: "unverified",
    });
    expect(await listOutbox(t.ctx, { to: owner.email })).toHaveLength(0);
  });

  it("keeps an extra address's refused message in the outbox with its reason, once per retry", async () => {
    const user = await createResearcher(t.ctx);
    const stranger = await unverified();
    const { historyId } = await placedOrder(user);
    await t.ctx.db
      .updateTable("orders")
      .set({ notification_emails: JSON.stringify([stranger.email]) })
      .where(
        "id",
        "=",
        (await t.ctx.db.selectFrom("order_history").select("order_id").where("id", "=", historyId).executeTakeFirstOrThrow()).order_id,
      )
      .execute();
    expect(await notifyHistory(t.ctx, historyId)).toBe("sent");
    const refused = await listOutbox(t.ctx, { to: stranger.email });
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ status: "refused", error: UNVERIFIED_REASON, template: "order-place" });
    // The researcher's own copy went out as usual.
    expect((await listOutbox(t.ctx, { to: user.email }))[0]).toMatchObject({ status: "queued" });
  });

  it("an SMTP failure fails the job attempt (retried), keeps the row failed with its error, and the page says so", async () => {
    const user = await createResearcher(t.ctx);
    const { orderId, historyId } = await placedOrder(user);
    // Nothing listens on port 9 of this machine: the SMTP connection is refused at once.
    const broken = { ...t.ctx, env: { ...t.ctx.env, SMTP_URL: "smtp://127.0.0.1:9" } };
    await expect(notifyHistory(broken, historyId)).rejects.toThrow(/not delivered/);
    expect(await notifiedAt(historyId)).toBeNull();
    const [row] = await listOutbox(t.ctx, { to: user.email });
    expect(row.status).toBe("failed");
    expect(row.error).toBeTruthy();
    expect(await confirmationMailOf(t.ctx, orderId)).toEqual({ state: "failed", email: user.email });
    // The retry (SMTP back; here: none, the outbox keeps it) delivers the same row, not a second message.
    expect(await notifyHistory(t.ctx, historyId)).toBe("sent");
    expect(await listOutbox(t.ctx, { to: user.email })).toHaveLength(1);
    expect(await notifiedAt(historyId)).not.toBeNull();
  });
});
