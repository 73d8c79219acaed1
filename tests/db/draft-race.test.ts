// One order form in progress per owner (issue 22 item 8): twenty "new order" calls at once for one researcher, or
// for one anonymous draft key, open one draft, not one each. Run on PGlite and on PostgreSQL (DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher, scopeFor } from "../helpers/factories";
import { systemScope } from "../../server/scope";
import { hashDraftKey, newDraftKey, openDraft } from "../../server/order-form";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

describe("opening the order form in progress", () => {
  it("creates one draft for twenty concurrent openings by one researcher", async () => {
    const user = await createResearcher(t.ctx);
    const scope = scopeFor(t.ctx, user);
    const opened = await Promise.all(Array.from({ length: 20 }, () => openDraft(scope)));
    const drafts = await t.ctx.db.selectFrom("order_forms").select("id").where("user_id", "=", user.id).execute();
    expect(drafts).toHaveLength(1);
    // Every caller got that one form, and exactly one of them was told it created it.
    expect(new Set(opened.map((o) => o.form.id))).toEqual(new Set([drafts[0].id]));
    expect(opened.filter((o) => o.created)).toHaveLength(1);
  });

  it("creates one draft for twenty concurrent openings with one anonymous draft key", async () => {
    const key = newDraftKey();
    const scope = systemScope(t.ctx, { draftKey: key, lang: "en", localization: "US" });
    await Promise.all(Array.from({ length: 20 }, () => openDraft(scope)));
    const drafts = await t.ctx.db.selectFrom("order_forms").select("id").where("draft_key_hash", "=", hashDraftKey(key)).execute();
    expect(drafts).toHaveLength(1);
  });

  it("still gives two owners a draft each", async () => {
    const [a, b] = [await createResearcher(t.ctx), await createResearcher(t.ctx)];
    const [fa, fb] = await Promise.all([openDraft(scopeFor(t.ctx, a)), openDraft(scopeFor(t.ctx, b))]);
    expect(fa.form.id).not.toBe(fb.form.id);
    expect(fa.form.user_id).toBe(a.id);
    expect(fb.form.user_id).toBe(b.id);
  });
});
