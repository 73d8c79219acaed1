// Idempotency keys (issue 12 §3, PAYMENTS.md "Stripe's semantics"): one run per key, its answer replayed, the
// same key with other parameters refused, refusals of the input forgotten.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fail, ok } from "#common/result";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher } from "../helpers/factories";
import { expireIdempotencyKeys, idempotent } from "../../server/payments/idempotency";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const always = () => true;

describe("idempotency keys", () => {
  it("runs 50 concurrent requests with one key once and gives all of them the first answer", async () => {
    const user = await createResearcher(t.ctx);
    let runs = 0;
    const run = async () => {
      runs += 1;
      await new Promise((r) => setTimeout(r, 100));
      return ok({ charge: runs });
    };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => idempotent(t.ctx, user.id, "key-50-concurrent", "test", { a: 1 }, run, always)),
    );
    expect(runs).toBe(1);
    expect(answers.every((a) => a.ok && a.value.charge === 1)).toBe(true);
  });

  it("refuses the same key with other parameters, and keys per user", async () => {
    const [a, b] = [await createResearcher(t.ctx), await createResearcher(t.ctx)];
    const first = await idempotent(t.ctx, a.id, "key-params-1", "test", { amount: 1 }, async () => ok("first"), always);
    expect(first).toEqual(ok("first"));
    const other = await idempotent(t.ctx, a.id, "key-params-1", "test", { amount: 2 }, async () => ok("second"), always);
    expect(other.ok ? null : other.error).toBe("idempotency-key-reused");
    // Parameter order does not matter; another user's identical key is their own.
    const again = await idempotent(t.ctx, a.id, "key-params-1", "test", { amount: 1 }, async () => ok("never"), always);
    expect(again).toEqual(ok("first"));
    const theirs = await idempotent(t.ctx, b.id, "key-params-1", "test", { amount: 2 }, async () => ok("theirs"), always);
    expect(theirs).toEqual(ok("theirs"));
  });

  it("forgets a refusal of the input (the client fixes it and retries with the same key) and keeps a decline", async () => {
    const user = await createResearcher(t.ctx);
    const keep = (r: { ok: boolean; error?: string }) => r.ok || r.error === "payment-declined";
    const refused = await idempotent(t.ctx, user.id, "key-retry-1", "test", {}, async () => fail("accept-terms"), keep);
    expect(refused.ok).toBe(false);
    const retried = await idempotent(t.ctx, user.id, "key-retry-1", "test", {}, async () => ok("paid"), keep);
    expect(retried).toEqual(ok("paid"));
    const declined = await idempotent(t.ctx, user.id, "key-retry-2", "test", {}, async () => fail("payment-declined"), keep);
    const replay = await idempotent(t.ctx, user.id, "key-retry-2", "test", {}, async () => ok("charged twice"), keep);
    expect(replay).toEqual(declined);
  });

  it("frees the key when the first run throws, refuses malformed keys, and expires old answers", async () => {
    const user = await createResearcher(t.ctx);
    await expect(
      idempotent(t.ctx, user.id, "key-throw-1", "test", {}, async () => Promise.reject(new Error("boom")), always),
    ).rejects.toThrow("boom");
    expect(await idempotent(t.ctx, user.id, "key-throw-1", "test", {}, async () => ok(1), always)).toEqual(ok(1));
    for (const bad of ["short", "x".repeat(256), "has space in it", "nul\u0000byte-key"]) {
      const r = await idempotent(t.ctx, user.id, bad, "test", {}, async () => ok(1), always);
      expect(r.ok ? null : r.error).toBe("idempotency-key-invalid");
    }
    await t.ctx.db
      .updateTable("idempotency_keys")
      .set({ created_at: new Date(Date.now() - 72 * 3600 * 1000) })
      .where("key", "=", "key-throw-1")
      .execute();
    expect(await expireIdempotencyKeys(t.ctx)).toBeGreaterThanOrEqual(1);
  });
});
