// POST /api/auth/reset-password as CPU for free (issue 10 §5): a forged link must cost a lookup, not an
// argon2 hash, and attempts are limited per client address and per account.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher } from "../helpers/factories";
import { deliveredMail } from "../helpers/mail";
import { requestPasswordReset, resetPassword, RESET_LIMIT_DEFAULTS } from "../../server/auth/password-reset";
import * as passwords from "../../server/accounts/password";

// The module seam: count how often the reset path hashes a password. A spy on the module's export, not vi.mock: the
// db lane shares one module graph between files (vitest isolate: false, ADR 084), and a spy is undone after the file.
const hashed = { count: 0 };
beforeAll(() => {
  const original = passwords.hashPassword;
  vi.spyOn(passwords, "hashPassword").mockImplementation((password: string) => {
    hashed.count++;
    return original(password);
  });
});
afterAll(() => vi.restoreAllMocks());

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

async function linkFor(email: string): Promise<{ token: string; identity: string }> {
  await requestPasswordReset(t.ctx, { email, lang: "en", ip: "10.0.0.1" });
  const [mail] = deliveredMail(t.ctx, email);
  const m = /reset-password\/([A-Za-z0-9_-]+)\/([0-9a-f-]{36})/.exec(mail.text)!;
  return { token: m[1], identity: m[2] };
}

describe("reset-password cost", () => {
  it("answers a forged or dead link without hashing the new password", async () => {
    const user = await createResearcher(t.ctx);
    const { token, identity } = await linkFor(user.email);
    hashed.count = 0;
    const forged = await resetPassword(t.ctx, {
      token: "forged-token",
      userIdentity: identity,
      password: "a-new-password",
      ip: "10.0.1.1",
    });
    expect(forged).toEqual({ ok: false, error: "invalid-or-expired" });
    expect(hashed.count).toBe(0);
    expect((await resetPassword(t.ctx, { token, userIdentity: identity, password: "a-new-password", ip: "10.0.1.1" })).ok).toBe(true);
    expect(hashed.count).toBe(1);
    // Used up: no second hash.
    expect((await resetPassword(t.ctx, { token, userIdentity: identity, password: "a-new-password", ip: "10.0.1.1" })).ok).toBe(false);
    expect(hashed.count).toBe(1);
  });

  it("limits attempts per client address", async () => {
    const n = RESET_LIMIT_DEFAULTS.resetAttemptsPerHour;
    for (let i = 0; i < n; i++) {
      const r = await resetPassword(t.ctx, {
        token: `guess-${i}`,
        userIdentity: crypto.randomUUID(),
        password: "whatever-pass",
        ip: "10.0.2.1",
      });
      expect(r).toEqual({ ok: false, error: "invalid-or-expired" });
    }
    const over = await resetPassword(t.ctx, {
      token: "guess-n",
      userIdentity: crypto.randomUUID(),
      password: "whatever-pass",
      ip: "10.0.2.1",
    });
    expect(over).toMatchObject({ ok: false, error: "too-many-attempts" });
    expect(over.ok === false && over.error === "too-many-attempts" && over.retryAfterSeconds).toBeGreaterThan(0);
  });

  it("limits failed attempts per account from rotating addresses", async () => {
    const user = await createResearcher(t.ctx);
    const { identity } = await linkFor(user.email);
    const n = RESET_LIMIT_DEFAULTS.resetFailuresPerAccount;
    for (let i = 0; i < n; i++)
      await resetPassword(t.ctx, { token: `guess-${i}`, userIdentity: identity, password: "whatever-pass", ip: `10.0.3.${i}` });
    const over = await resetPassword(t.ctx, { token: "guess-n", userIdentity: identity, password: "whatever-pass", ip: "10.0.4.1" });
    expect(over).toMatchObject({ ok: false, error: "too-many-attempts" });
  });
});
