// Referrals on a real database (issue 25 item 3, ADR 076): registration through a link records who referred and
// gives the colleague a one-use welcome code; self-referral, an unknown code and a second claim change nothing
// else; the referrer is credited (credits in their currency + points) exactly once when the colleague's first order
// is paid and completed, whichever comes second, also under concurrent events; refused when the two accounts share
// a card or a billing address; a shared e-mail domain is allowed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createCompletedOrder, createResearcher, createStaff, scopeFor, uniqueEmail, type TestUser } from "../helpers/factories";
import { creditReferral, referralPage, totalEarnedCredits, welcomeCodeOf } from "../../server/referrals";
import { sandboxCardIdentity } from "../../server/payments/providers/card";
import { transitionOrder } from "../../server/orders/life";
import { recordBankPayment } from "../../server/billing";
import { majorText } from "#common/money";
import { getUserView } from "../../server/accounts/account";

let t: TestContext;
let staff: TestUser;

beforeAll(async () => {
  t = await createTestContext();
  staff = await createStaff(t.ctx);
});
afterAll(async () => t?.close());

async function codeOf(user: TestUser): Promise<string> {
  return (await t.ctx.db.selectFrom("users").select("referral_code").where("id", "=", user.id).executeTakeFirstOrThrow()).referral_code;
}
const referralOf = (user: TestUser) =>
  t.ctx.db.selectFrom("referrals").selectAll().where("referred_user_id", "=", user.id).executeTakeFirst();
// credits.amount is a bigint: PostgreSQL's driver answers it as a string, PGlite as a number.
const creditsOf = async (user: TestUser) =>
  (await t.ctx.db.selectFrom("credits").selectAll().where("user_id", "=", user.id).where("kind", "=", "referral").execute()).map((c) => ({
    ...c,
    amount: Number(c.amount),
  }));
const pointsOf = (user: TestUser) =>
  t.ctx.db.selectFrom("reward_history").selectAll().where("user_id", "=", user.id).where("name", "=", "referral").execute();

async function referredPair(over: Parameters<typeof createResearcher>[1] = {}) {
  const referrer = await createResearcher(t.ctx);
  const colleague = await createResearcher(t.ctx, { referralCode: await codeOf(referrer), ...over });
  return { referrer, colleague };
}

/** A succeeded card payment of `user` with the card's identity in its event, as the payments service records it. */
async function paidWithCard(user: TestUser, kind = "fake-valid-nonce", billing: Record<string, unknown> | null = null) {
  const p = await t.ctx.db
    .insertInto("payments")
    .values({
      user_id: user.id,
      purpose: "invoices",
      method_id: 1,
      provider: "card",
      status: "succeeded",
      amount: 1000,
      currency_iso: "USD",
      details: JSON.stringify({ billing }),
      paid_at: new Date(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await t.ctx.db
    .insertInto("payment_events")
    .values({
      payment_id: p.id,
      provider: "card",
      kind: "create",
      verified: true,
      outcome: "succeeded",
      data: JSON.stringify({ instrument: `card:${sandboxCardIdentity(kind).uniqueNumberIdentifier}` }),
    })
    .execute();
}

describe("registration through a referral link", () => {
  it("records the referrer, a pending referral and the colleague's one-use welcome code", async () => {
    const { referrer, colleague } = await referredPair();
    const row = await referralOf(colleague);
    expect(row).toMatchObject({ referrer_user_id: referrer.id, status: "pending" });
    const user = await t.ctx.db.selectFrom("users").select("referred_by_user_id").where("id", "=", colleague.id).executeTakeFirstOrThrow();
    expect(user.referred_by_user_id).toBe(referrer.id);
    const codes = await t.ctx.db.selectFrom("promo_codes").selectAll().where("user_id", "=", colleague.id).execute();
    expect(codes).toHaveLength(1);
    expect(codes[0]).toMatchObject({ source: "referral-welcome", max_uses: 1, amount_off_cents: 4000 });
    expect(await welcomeCodeOf(scopeFor(t.ctx, colleague))).toEqual({ code: codes[0].code, amountUsdCents: 4000 });
    // The referrer has none; the page counts one sent.
    expect(await welcomeCodeOf(scopeFor(t.ctx, referrer))).toBeNull();
    const page = await referralPage(scopeFor(t.ctx, referrer));
    expect(page.ok && page.value.numberOfReferralsSent).toBe(1);
    expect(page.ok && page.value.referrals[0]).toMatchObject({ colleague: "Test R.", status: "pending" });
  });

  it("accepts the code in any case; an unknown code records nothing", async () => {
    const referrer = await createResearcher(t.ctx);
    const lower = await createResearcher(t.ctx, { referralCode: (await codeOf(referrer)).toLowerCase() });
    expect((await referralOf(lower))?.referrer_user_id).toBe(referrer.id);
    const unknown = await createResearcher(t.ctx, { referralCode: "NO-SUCH-CODE" });
    expect(await referralOf(unknown)).toBeUndefined();
    expect(await t.ctx.db.selectFrom("promo_codes").select("id").where("user_id", "=", unknown.id).execute()).toHaveLength(0);
  });

  it("refuses a self-referral (the referrer's own mailbox with a +tag): no code, no credit later", async () => {
    const email = uniqueEmail("self");
    const referrer = await createResearcher(t.ctx, { email });
    const [local, domain] = email.split("@");
    const again = await createResearcher(t.ctx, { email: `${local}+2@${domain}`, referralCode: await codeOf(referrer) });
    expect(await referralOf(again)).toMatchObject({ status: "refused", refused_reason: "self" });
    expect(await welcomeCodeOf(scopeFor(t.ctx, again))).toBeNull();
    const order = await createCompletedOrder(t.ctx, again, { staff });
    expect(await creditReferral(t.ctx.db, again.id, order.orderId)).toBeNull();
    expect(await creditsOf(referrer)).toHaveLength(0);
  });

  it("keeps the first claim: a second referral of one account is impossible", async () => {
    const { referrer, colleague } = await referredPair();
    const other = await createResearcher(t.ctx);
    await expect(
      t.ctx.db.insertInto("referrals").values({ referrer_user_id: other.id, referred_user_id: colleague.id }).execute(),
    ).rejects.toThrow();
    expect((await referralOf(colleague))?.referrer_user_id).toBe(referrer.id);
  });
});

describe("the referrer's credit", () => {
  it("is granted once when the order is completed, then paid (payment second), in the referrer's currency, with points", async () => {
    const referrer = await createResearcher(t.ctx, { country: "JP", countryCode: "JP", phoneNumber: "312345678", currency: "JPY" });
    const colleague = await createResearcher(t.ctx, { referralCode: await codeOf(referrer) });
    await createCompletedOrder(t.ctx, colleague, { staff });
    const row = await referralOf(colleague);
    expect(row).toMatchObject({ status: "credited", credit_currency: "JPY" });
    const credits = await creditsOf(referrer);
    expect(credits).toHaveLength(1);
    expect(credits[0].currency_iso.trim()).toBe("JPY");
    expect(credits[0].amount).toBe(row!.credit_amount);
    expect(credits[0].amount).toBeGreaterThan(1000); // 40 USD in yen
    expect(new Date(credits[0].expires_at).getTime()).toBeGreaterThan(Date.now() + 300 * 86400_000);
    const points = await pointsOf(referrer);
    expect(points).toHaveLength(1);
    expect(points[0]).toMatchObject({ points: 100, source_key: `referral:${row!.id}` });
    const total = await totalEarnedCredits(scopeFor(t.ctx, referrer));
    expect(total.ok && total.value).toMatchObject({ totalEarnedCredits: credits[0].amount, currency: { isoCode: "JPY" } });
    // The account view (GET /api/account) says the same.
    expect((await getUserView(t.ctx, referrer.id))?.referralCreditsEarnedToDate).toBe(credits[0].amount);
    // The colleague's second order changes nothing.
    await createCompletedOrder(t.ctx, colleague, { staff });
    expect(await creditsOf(referrer)).toHaveLength(1);
    expect(await pointsOf(referrer)).toHaveLength(1);
  });

  it("is granted when the order is paid, then completed (completion second)", async () => {
    const { referrer, colleague } = await referredPair();
    const order = await createCompletedOrder(t.ctx, colleague, { staff, complete: false });
    expect((await referralOf(colleague))?.status).toBe("pending");
    const done = await transitionOrder(t.ctx, { userId: staff.id }, { externalId: order.externalId }, "complete");
    expect(done.ok).toBe(true);
    expect((await referralOf(colleague))?.status).toBe("credited");
    const credits = await creditsOf(referrer);
    expect(credits.map((c) => [c.amount, c.currency_iso.trim()])).toEqual([[4000, "USD"]]);
    // Reopened and completed again: still once.
    await transitionOrder(t.ctx, { userId: staff.id }, { externalId: order.externalId }, "reopen");
    await transitionOrder(t.ctx, { userId: staff.id }, { externalId: order.externalId }, "complete");
    expect(await creditsOf(referrer)).toHaveLength(1);
    const total = await totalEarnedCredits(scopeFor(t.ctx, referrer));
    expect(total.ok && majorText(total.value.totalEarnedCredits, 2)).toBe("40.00");
  });

  it("is not granted for a completed order that is not paid, nor a paid one not completed", async () => {
    const { referrer, colleague } = await referredPair();
    await createCompletedOrder(t.ctx, colleague, { staff, paid: false });
    await createCompletedOrder(t.ctx, colleague, { staff, complete: false });
    expect((await referralOf(colleague))?.status).toBe("pending");
    expect(await creditsOf(referrer)).toHaveLength(0);
  });

  it("is granted once under concurrent and repeated events", async () => {
    const { referrer, colleague } = await referredPair();
    const order = await createCompletedOrder(t.ctx, colleague, { staff, paid: false });
    // Mark it paid without the event, then deliver "the second event" many times at once.
    await t.ctx.db.updateTable("orders").set({ paid: true }).where("id", "=", order.orderId).execute();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => t.ctx.db.transaction().execute((trx) => creditReferral(trx, colleague.id, order.orderId))),
    );
    expect(results.filter((r) => r?.status === "credited")).toHaveLength(1);
    expect(await creditReferral(t.ctx.db, colleague.id, order.orderId)).toBeNull();
    expect(await creditsOf(referrer)).toHaveLength(1);
    expect(await pointsOf(referrer)).toHaveLength(1);
  });

  it("is refused when both accounts paid with one card", async () => {
    const { referrer, colleague } = await referredPair();
    await paidWithCard(referrer);
    await paidWithCard(colleague);
    await createCompletedOrder(t.ctx, colleague, { staff });
    expect(await referralOf(colleague)).toMatchObject({ status: "refused", refused_reason: "same-payment-instrument" });
    expect(await creditsOf(referrer)).toHaveLength(0);
    expect(await pointsOf(referrer)).toHaveLength(0);
  });

  it("is not refused for different cards", async () => {
    const { referrer, colleague } = await referredPair();
    await paidWithCard(referrer, "fake-valid-nonce");
    await paidWithCard(colleague, "fake-processor-declined-visa-nonce");
    await createCompletedOrder(t.ctx, colleague, { staff });
    expect((await referralOf(colleague))?.status).toBe("credited");
  });

  it("is refused for one billing address written two ways", async () => {
    const { referrer, colleague } = await referredPair();
    const country = await t.ctx.db.selectFrom("countries").select("id").where("iso2", "=", "US").executeTakeFirstOrThrow();
    await paidWithCard(referrer, "fake-valid-nonce", {
      address1: "12 Main St., Apt 4",
      city: "Springfield",
      zip: "12345",
      countryId: country.id,
    });
    await paidWithCard(colleague, "fake-processor-declined-visa-nonce", {
      address1: "12 main st apt 4",
      city: "SPRINGFIELD",
      zip: "12345",
      countryId: country.id,
    });
    await createCompletedOrder(t.ctx, colleague, { staff });
    expect(await referralOf(colleague)).toMatchObject({ status: "refused", refused_reason: "same-billing-address" });
    expect(await creditsOf(referrer)).toHaveLength(0);
  });

  it("allows colleagues of one e-mail domain", async () => {
    const referrer = await createResearcher(t.ctx, { email: uniqueEmail("a").replace("example.org", "uni.example.edu") });
    const colleague = await createResearcher(t.ctx, {
      email: uniqueEmail("b").replace("example.org", "uni.example.edu"),
      referralCode: await codeOf(referrer),
    });
    await createCompletedOrder(t.ctx, colleague, { staff });
    expect((await referralOf(colleague))?.status).toBe("credited");
  });

  it("recordBankPayment of part of the invoice credits nothing", async () => {
    const { referrer, colleague } = await referredPair();
    const order = await createCompletedOrder(t.ctx, colleague, { staff, paid: false });
    const invoice = await t.ctx.db.selectFrom("invoices").select("number").where("order_id", "=", order.orderId).executeTakeFirstOrThrow();
    const r = await recordBankPayment(t.ctx, { userId: staff.id }, invoice.number, {
      amount: "1.00",
      reference: `PART-${order.orderId}`,
      receivedOn: new Date().toISOString().slice(0, 10),
    });
    expect(r.ok).toBe(true);
    expect((await referralOf(colleague))?.status).toBe("pending");
    expect(await creditsOf(referrer)).toHaveLength(0);
  });
});
