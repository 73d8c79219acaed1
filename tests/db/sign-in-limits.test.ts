// Sign-in limits that stop guessing without locking the owner out (issue 10 §7, ADR 024).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher, type TestUser } from "../helpers/factories";
import { growingDelaySeconds, signInWithPassword } from "../../server/auth/login";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({
    // The per-address flood limit out of the way: these tests are about the failure limits.
    CONFIG_RATE_LIMITS: JSON.stringify({
      signInPerMinute: 1000,
      registrationsPerHour: 20,
      resetRequestsPerHour: 10,
      emailChecksPerHour: 30,
      signInFailuresPerAccountAddress: 10,
      signInFailuresPerAccount: 3,
    }),
  });
});
afterAll(async () => t.close());

const attempt = (user: TestUser, ip: string, password = user.password) => signInWithPassword(t.ctx, { email: user.email, password, ip });

describe("password sign-in limits", () => {
  it("a few failures from one address do not stop the owner at another", async () => {
    const owner = await createResearcher(t.ctx);
    // Fresh account: this test is about the strict per-account-and-address limit only, so stay under the looser one.
    for (let i = 0; i < 3; i++) expect(await attempt(owner, "10.9.0.1", "wrong")).toEqual({ ok: false, error: "invalid-credentials" });
    expect((await attempt(owner, "10.9.0.2")).ok).toBe(true);
  });

  it("past the account's looser limit, each failing address waits a delay that doubles; clean addresses get in", async () => {
    const owner = await createResearcher(t.ctx);
    for (let i = 1; i <= 3; i++) expect((await attempt(owner, `10.8.0.${i}`, "wrong")).ok).toBe(false);
    // The three addresses are not shut out: under the account's limit, one failure each is allowed.
    expect((await attempt(owner, "10.8.0.1", "wrong")).ok).toBe(false);
    // That was the account's fourth failure: its address now waits.
    expect(await attempt(owner, "10.8.0.1")).toMatchObject({ ok: false, error: "too-many-attempts", retryAfterSeconds: 1 });
    expect((await attempt(owner, "10.8.0.5", "wrong")).ok).toBe(false);
    expect(await attempt(owner, "10.8.0.5")).toMatchObject({ ok: false, error: "too-many-attempts", retryAfterSeconds: 2 });
    expect((await attempt(owner, "10.8.0.6", "wrong")).ok).toBe(false);
    expect(await attempt(owner, "10.8.0.6")).toMatchObject({ ok: false, error: "too-many-attempts", retryAfterSeconds: 4 });
    // The owner, from an address that has not failed, with the right password.
    expect((await attempt(owner, "10.8.0.9")).ok).toBe(true);
  });

  it("the strict limit: ten failures from one address shut it out for this account even with the right password", async () => {
    const owner = await createResearcher(t.ctx);
    const other = await createResearcher(t.ctx);
    // Spread the account's failures so the looser limit does not decide: only the strict one.
    const results = [];
    for (let i = 0; i < 10; i++) {
      await t.ctx.cache.del(`fail:signin:account:${owner.email.toLowerCase()}`);
      results.push((await attempt(owner, "10.7.0.1", "wrong")).ok);
    }
    expect(results.every((ok) => ok === false)).toBe(true);
    const r = await attempt(owner, "10.7.0.1");
    expect(r).toMatchObject({ ok: false, error: "too-many-attempts" });
    expect(r.ok === false && r.error === "too-many-attempts" && r.retryAfterSeconds).toBeGreaterThan(60);
    // Another account from the same address, and the same account from another: both fine.
    expect((await attempt(other, "10.7.0.1")).ok).toBe(true);
    expect((await attempt(owner, "10.7.0.2")).ok).toBe(true);
  });

  it("doubles the delay up to 15 minutes", () => {
    expect([1, 2, 3, 4, 10, 11, 50].map(growingDelaySeconds)).toEqual([1, 2, 4, 8, 512, 900, 900]);
  });
});

// Issue 26 §6 (ADR 082): the per-address limit counts failures only, so a university's NAT — hundreds of
// researchers behind one address — never locks itself out, while guessing from that address still stops.
describe("a campus behind one address (the default limits)", () => {
  let campus: TestContext;
  beforeAll(async () => {
    campus = await createTestContext({});
  });
  afterAll(async () => campus.close());
  const from = (user: TestUser, ip: string, password = user.password) =>
    signInWithPassword(campus.ctx, { email: user.email, password, ip });

  it("100 researchers sign in from one address, one in ten after a typo: none is refused", { timeout: 120_000 }, async () => {
    const researchers: TestUser[] = [];
    for (let i = 0; i < 100; i++) researchers.push(await createResearcher(campus.ctx));
    const refused: string[] = [];
    // One in ten mistypes first (10 failures: under the per-address limit of 30 a minute; 110 attempts in all).
    for (const [i, r] of researchers.entries()) {
      if (i % 10 === 0) expect(await from(r, "192.0.2.200", "typo")).toEqual({ ok: false, error: "invalid-credentials" });
      const result = await from(r, "192.0.2.200");
      if (!result.ok) refused.push(`${r.email}: ${result.error}`);
    }
    expect(refused).toEqual([]);
  });

  it(
    "failures from one address across many accounts shut the address out; a success there does not reset it",
    { timeout: 60_000 },
    async () => {
      const victims: TestUser[] = [];
      for (let i = 0; i < 31; i++) victims.push(await createResearcher(campus.ctx));
      const guess = async (i: number) => (await from(victims[i], "192.0.2.201", "password123")).ok;
      // 29 failures (one per account: no per-account limit is near), then a researcher there signs in…
      for (let i = 0; i < 29; i++) expect(await guess(i)).toBe(false);
      expect((await from(victims[29], "192.0.2.201")).ok).toBe(true);
      // …which does not wipe the count: the 30th failure shuts the address out, for every account, for the minute.
      expect(await guess(30)).toBe(false);
      const shut = await from(victims[29], "192.0.2.201");
      expect(shut).toMatchObject({ ok: false, error: "too-many-attempts" });
      expect(shut.ok === false && shut.error === "too-many-attempts" && shut.retryAfterSeconds).toBeGreaterThan(0);
      // Another address is not affected.
      expect((await from(victims[29], "192.0.2.202")).ok).toBe(true);
    },
  );
});
