// E-mail ownership (issue 10 §4, ADR 026): an unconfirmed address gets only the verification mail and reset
// links; the signed link confirms it, and so does a completed password reset.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher, type TestUser } from "../helpers/factories";
import { deliveredMail } from "../helpers/mail";
import { listOutbox, sendMail } from "../../server/mail";
import { isEmailVerified, sendVerificationMail, verifyEmail, checkVerificationLink } from "../../server/accounts/email-verification";
import { requestPasswordReset, resetPassword } from "../../server/auth/password-reset";

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
const verifiedAt = async (id: number) =>
  (await t.ctx.db.selectFrom("users").select("email_verified_at").where("id", "=", id).executeTakeFirstOrThrow()).email_verified_at;
const quoteMail = (user: TestUser) => ({
  to: user.email,
  subject: "Quote",
  text: "Hello,",
  template: "price-quote",
  lang: "en",
  userId: user.id,
});

function linkIn(text: string) {
  const m = /\/en\/verify-email\/([0-9a-f-]{36})\/(\d+)\/([A-Za-z0-9_-]+)/.exec(text)!;
  return { identity: m[1], expires: m[2], signature: m[3] };
}

describe("e-mail verification", () => {
  it("refuses any other mail to an unconfirmed address, whatever its case", async () => {
    const user = await unverified();
    expect(await sendMail(t.ctx, quoteMail(user))).toEqual({ id: null, status: "unverified" });
    expect(await sendMail(t.ctx, { ...quoteMail(user), to: user.email.toUpperCase() })).toEqual({ id: null, status: "unverified" });
    expect(await listOutbox(t.ctx, { to: user.email })).toHaveLength(0);
    // An address of no account is not an account's unconfirmed address.
    expect((await sendMail(t.ctx, { ...quoteMail(user), to: "stranger@example.org" })).status).toBe("queued");
  });

  it("sends a signed link whose POST confirms the address; a forged, expired or stale link does not", async () => {
    const user = await unverified();
    await sendVerificationMail(t.ctx, user.id, "en");
    const [outboxed] = await listOutbox(t.ctx, { to: user.email });
    expect(outboxed.template).toBe("email-verification");
    expect(outboxed.text_body).not.toContain("/verify-email/"); // the link is the recipient's only (ADR 018)
    const link = linkIn(deliveredMail(t.ctx, user.email)[0].text);
    expect(link.identity).toBe(user.identity);
    expect(await verifyEmail(t.ctx, { ...link, signature: link.signature.slice(0, -2) + "xx" })).toMatchObject({ ok: false });
    expect(await verifyEmail(t.ctx, { ...link, expires: String(Number(link.expires) + 1) })).toMatchObject({ ok: false });
    expect(await verifyEmail(t.ctx, { ...link, expires: "1" })).toMatchObject({ ok: false });
    expect(await verifyEmail(t.ctx, { ...link, identity: "not-a-uuid" })).toMatchObject({ ok: false });
    expect(await verifiedAt(user.id)).toBeNull();
    expect(await checkVerificationLink(t.ctx, link)).toBe(true);
    expect(await verifyEmail(t.ctx, link)).toEqual({ ok: true, value: undefined });
    expect(await verifiedAt(user.id)).not.toBeNull();
    expect((await sendMail(t.ctx, quoteMail(user))).status).toBe("queued");
    // Nothing left to confirm: no second mail.
    const before = (await listOutbox(t.ctx, { to: user.email })).length;
    await sendVerificationMail(t.ctx, user.id, "en");
    expect((await listOutbox(t.ctx, { to: user.email })).length).toBe(before);
  });

  it("a link for an earlier address dies when the address changes", async () => {
    const user = await unverified();
    await sendVerificationMail(t.ctx, user.id, "en");
    const link = linkIn(deliveredMail(t.ctx, user.email)[0].text);
    await t.ctx.db
      .updateTable("users")
      .set({ email: `changed.${user.email}` })
      .where("id", "=", user.id)
      .execute();
    expect(await verifyEmail(t.ctx, link)).toMatchObject({ ok: false, error: "invalid-or-expired" });
  });

  it("a password reset reaches an unconfirmed address and confirms it", async () => {
    const user = await unverified();
    await requestPasswordReset(t.ctx, { email: user.email, lang: "en", ip: "10.7.0.1" });
    const [mail] = deliveredMail(t.ctx, user.email);
    const [, token, identity] = /reset-password\/([A-Za-z0-9_-]+)\/([0-9a-f-]{36})/.exec(mail.text)!;
    expect((await resetPassword(t.ctx, { token, userIdentity: identity, password: "a-new-password", ip: "10.7.0.1" })).ok).toBe(true);
    expect(await verifiedAt(user.id)).not.toBeNull();
  });

  it("sends the link again on request until the address's mail limit, and nothing once it is confirmed", async () => {
    const user = await unverified();
    expect(await isEmailVerified(t.ctx, user.id)).toBe(false);
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) outcomes.push(await sendVerificationMail(t.ctx, user.id, "en"));
    expect(outcomes.slice(0, 3)).toEqual(["sent", "sent", "sent"]);
    expect(outcomes).toContain("limited");
    expect(outcomes.lastIndexOf("sent")).toBeLessThan(outcomes.indexOf("limited"));
    const verified = await createResearcher(t.ctx);
    expect(await sendVerificationMail(t.ctx, verified.id, "en")).toBe("verified");
    expect(await isEmailVerified(t.ctx, verified.id)).toBe(true);
  });
});
