import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher, type TestUser } from "../helpers/factories";
import { requestPasswordReset, resetPassword, checkResetToken, RESET_TOKEN_TTL_SECONDS } from "../../server/auth/password-reset";
import { createSession, readSession, hashToken } from "../../server/accounts/session";
import { listOutbox } from "../../server/mail";
import { deliveredMail } from "../helpers/mail";
import { verifyPassword } from "../../server/accounts/password";
import { changePassword } from "../../server/accounts/account";
import { scopeFor } from "../helpers/factories";

let t: TestContext;
let user: TestUser;
beforeAll(async () => {
  t = await createTestContext({ PUBLIC_URL: "http://portal.test" });
  user = await createResearcher(t.ctx, { email: "reader@example.org" });
});
afterAll(async () => t.close());

async function lastLink(): Promise<{ token: string; identity: string }> {
  const [mail] = deliveredMail(t.ctx, "reader@example.org");
  const m = /reset-password\/([A-Za-z0-9_-]+)\/([0-9a-f-]{36})/.exec(mail.text)!;
  return { token: m[1], identity: m[2] };
}

describe("password reset", () => {
  it("e-mails a one-time link in the user's language, valid for one hour", async () => {
    expect(RESET_TOKEN_TTL_SECONDS).toBe(3600);
    expect(await requestPasswordReset(t.ctx, { email: "Reader@Example.org", lang: "jp", ip: "1.1.1.1" })).toBe("accepted");
    const [mail] = await listOutbox(t.ctx, { to: "reader@example.org" });
    expect(mail.lang).toBe("jp");
    expect(mail.status).toBe("queued");
    // The outbox keeps the message with its link redacted; the recipient's copy has it (ADR 018).
    expect(mail.text_body).not.toContain("/reset-password/");
    expect(mail.text_body).toContain("[redacted]");
    expect(deliveredMail(t.ctx, "reader@example.org")[0].text).toContain("http://portal.test/jp/login/reset-password/");
    const { token, identity } = await lastLink();
    expect(identity).toBe(user.identity);
    expect(await checkResetToken(t.ctx, token, identity)).toBe(true);
    // The token is stored hashed only.
    const row = await t.ctx.db
      .selectFrom("password_reset_tokens")
      .selectAll()
      .where("token_hash", "=", hashToken(token))
      .executeTakeFirstOrThrow();
    expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBeGreaterThan(3500_000);
  });

  it("says nothing about unknown addresses and sends nothing", async () => {
    const before = (await listOutbox(t.ctx)).length;
    expect(await requestPasswordReset(t.ctx, { email: "ghost@example.com", lang: "en", ip: "1.1.1.2" })).toBe("accepted");
    expect((await listOutbox(t.ctx)).length).toBe(before);
  });

  it("works once, needs the right identity, and signs the user out everywhere", async () => {
    await requestPasswordReset(t.ctx, { email: "reader@example.org", lang: "en", ip: "1.1.1.3" });
    const { token, identity } = await lastLink();
    const session = await createSession(t.ctx.db, user.id);
    expect(
      await resetPassword(t.ctx, {
        token,
        userIdentity: "00000000-0000-0000-0000-000000000000",
        password: "brand-new-pass",
        ip: "9.9.9.9",
      }),
    ).toEqual({ ok: false, error: "invalid-or-expired" });
    expect(await resetPassword(t.ctx, { token, userIdentity: identity, password: "brand-new-pass", ip: "9.9.9.9" })).toEqual({
      ok: true,
      userId: user.id,
    });
    expect(await readSession(t.ctx.db, session)).toBeNull();
    const hash = (await t.ctx.db.selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirstOrThrow())
      .password_hash;
    expect(await verifyPassword(hash, "brand-new-pass")).toBe(true);
    expect(await resetPassword(t.ctx, { token, userIdentity: identity, password: "third-password", ip: "9.9.9.9" })).toEqual({
      ok: false,
      error: "invalid-or-expired",
    });
    expect(await checkResetToken(t.ctx, token, identity)).toBe(false);
  });

  it("expires", async () => {
    await requestPasswordReset(t.ctx, { email: "reader@example.org", lang: "en", ip: "1.1.1.4" });
    const { token, identity } = await lastLink();
    await t.ctx.db
      .updateTable("password_reset_tokens")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("token_hash", "=", hashToken(token))
      .execute();
    expect(await checkResetToken(t.ctx, token, identity)).toBe(false);
    expect(await resetPassword(t.ctx, { token, userIdentity: identity, password: "brand-new-pass2", ip: "9.9.9.9" })).toEqual({
      ok: false,
      error: "invalid-or-expired",
    });
  });

  it("a new request kills the previous unused link (one live link per account; issue 9 §5)", async () => {
    await requestPasswordReset(t.ctx, { email: "reader@example.org", lang: "en", ip: "1.1.1.5" });
    const first = await lastLink();
    await requestPasswordReset(t.ctx, { email: "reader@example.org", lang: "en", ip: "1.1.1.6" });
    const second = await lastLink();
    expect(second.token).not.toBe(first.token);
    expect(await checkResetToken(t.ctx, first.token, first.identity)).toBe(false);
    expect(
      await resetPassword(t.ctx, { token: first.token, userIdentity: first.identity, password: "old-link-pass", ip: "9.9.9.9" }),
    ).toEqual({
      ok: false,
      error: "invalid-or-expired",
    });
    expect(await checkResetToken(t.ctx, second.token, second.identity)).toBe(true);
    const live = await t.ctx.db
      .selectFrom("password_reset_tokens")
      .select("token_hash")
      .where("user_id", "=", user.id)
      .where("used_at", "is", null)
      .execute();
    expect(live).toEqual([{ token_hash: hashToken(second.token) }]);
  });

  it("changing the password on the account page kills outstanding reset links (issue 10 §12)", async () => {
    const owner = await createResearcher(t.ctx);
    await requestPasswordReset(t.ctx, { email: owner.email, lang: "en", ip: "1.1.2.1" });
    const [mail] = deliveredMail(t.ctx, owner.email);
    const [, token, identity] = /reset-password\/([A-Za-z0-9_-]+)\/([0-9a-f-]{36})/.exec(mail.text)!;
    expect(await checkResetToken(t.ctx, token, identity)).toBe(true);
    const changed = await changePassword(scopeFor(t.ctx, owner), { currentPassword: owner.password, newPassword: "changed-on-account" });
    expect(changed.ok).toBe(true);
    expect(await checkResetToken(t.ctx, token, identity)).toBe(false);
    expect(await resetPassword(t.ctx, { token, userIdentity: identity, password: "attacker-pass", ip: "9.9.9.9" })).toEqual({
      ok: false,
      error: "invalid-or-expired",
    });
    const hash = (await t.ctx.db.selectFrom("users").select("password_hash").where("id", "=", owner.id).executeTakeFirstOrThrow())
      .password_hash;
    expect(await verifyPassword(hash, "changed-on-account")).toBe(true);
  });

  it("a link issued before the last password change is dead even if it was never marked used", async () => {
    const owner = await createResearcher(t.ctx);
    await requestPasswordReset(t.ctx, { email: owner.email, lang: "en", ip: "1.1.2.2" });
    const [mail] = deliveredMail(t.ctx, owner.email);
    const [, token, identity] = /reset-password\/([A-Za-z0-9_-]+)\/([0-9a-f-]{36})/.exec(mail.text)!;
    // Any path that changes the password (staff tools, a future import) stamps password_changed_at.
    await t.ctx.db
      .updateTable("users")
      .set({ password_changed_at: new Date(Date.now() + 1000) })
      .where("id", "=", owner.id)
      .execute();
    expect(await checkResetToken(t.ctx, token, identity)).toBe(false);
    expect((await resetPassword(t.ctx, { token, userIdentity: identity, password: "attacker-pass", ip: "9.9.9.9" })).ok).toBe(false);
  });

  it("of two concurrent requests only the newest link is live", async () => {
    const owner = await createResearcher(t.ctx);
    await Promise.all([
      requestPasswordReset(t.ctx, { email: owner.email, lang: "en", ip: "1.1.3.1" }),
      requestPasswordReset(t.ctx, { email: owner.email, lang: "en", ip: "1.1.3.2" }),
      requestPasswordReset(t.ctx, { email: owner.email, lang: "en", ip: "1.1.3.3" }),
    ]);
    const live = await t.ctx.db
      .selectFrom("password_reset_tokens")
      .select("token_hash")
      .where("user_id", "=", owner.id)
      .where("used_at", "is", null)
      .execute();
    expect(live).toHaveLength(1);
  });

  it("limits requests: per address quietly, per client address with an answer", async () => {
    const to = (await createResearcher(t.ctx)).email;
    for (let i = 0; i < 7; i++) await requestPasswordReset(t.ctx, { email: to, lang: "en", ip: `2.2.2.${i}` });
    expect((await listOutbox(t.ctx, { to })).length).toBe(5);
    let last = "accepted";
    for (let i = 0; i < 11; i++) last = await requestPasswordReset(t.ctx, { email: `x${i}@example.com`, lang: "en", ip: "3.3.3.3" });
    expect(last).toBe("rate-limited");
  });
});
