// Preferred groups and the home area on a real database (issue 25 items 5–7, ADR 077): join and leave, the one
// generic error for a wrong, inactive or unknown code, the join's rate limits per user and per address, the group
// discount in an open order form's price (and gone after leaving), concurrent joins, the staff console (audited,
// catalogue invalidated), the account's preferredGroup and showCheckSpamMessage, /home's data, rubriq's target.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createOrderFormFor, createPlacedOrder, createResearcher, createStaff, scopeFor } from "../helpers/factories";
import { readSession } from "../../server/accounts/session";
import { accountOf } from "../../server/accounts/account";
import { systemScope, type Scope } from "../../server/scope";
import { createGroup, joinPreferredGroup, leavePreferredGroup, listGroups, preferredGroupOf, updateGroup } from "../../server/groups";
import { hideCheckSpamMessage, homeOf, rubriqExternalTarget, rubriqPlanPurchase } from "../../server/home";
import { priceForm } from "../../server/order-form";
import { getCatalogue } from "../../server/catalogue";
import type { StaffGroupInput } from "../../app/common/groups/schemas";

let t: TestContext;
let staffScope: Scope;
beforeAll(async () => {
  t = await createTestContext();
  const staff = await createStaff(t.ctx);
  staffScope = systemScope(t.ctx, { userId: staff.id, lang: "en", localization: "US", session: await readSession(t.ctx.db, staff.token) });
});
afterAll(async () => t.close());

let n = 0;
/** A fresh address per scope, so one test's joins never count against another's. */
const scopeOf = (user: { id: number }, ip = `10.1.${Math.floor(n / 250)}.${n++ % 250}`): Scope => ({ ...scopeFor(t.ctx, user), ip });
async function group(input: Partial<StaffGroupInput> = {}): Promise<string> {
  const r = await createGroup(staffScope, {
    code: `G-${Date.now()}-${n++}`,
    name: "Test group",
    kind: "percent",
    discount: "20",
    active: "on",
    membershipDisplayed: "on",
    ...input,
  });
  if (!r.ok) throw new Error(JSON.stringify(r.fieldErrors));
  return r.value.code;
}
const GENERIC = "home:errors.preferred-group-join-generic-error";

describe("joining and leaving", () => {
  it("joins by code in any case, shows the group, and leaves", async () => {
    const user = await createResearcher(t.ctx);
    const code = await group({ greetingText: "Welcome, lab!" });
    const r = await joinPreferredGroup(scopeOf(user), { groupCode: `  ${code.toLowerCase()} ` });
    expect(r.ok && r.value).toMatchObject({
      code,
      discount: 20,
      percentageDiscount: true,
      membershipDisplayed: true,
      greetingText: "Welcome, lab!",
      discountUsed: false,
    });
    expect((await accountOf(scopeOf(user))).user.preferredGroup).toMatchObject({ code, membershipDisplayed: true });
    const left = await leavePreferredGroup(scopeOf(user));
    expect(left.ok && left.value.left).toBe(true);
    expect(await preferredGroupOf(scopeOf(user))).toBeNull();
    expect((await accountOf(scopeOf(user))).user.preferredGroup).toBeNull();
    // Leaving again is fine and says there was nothing to leave.
    const again = await leavePreferredGroup(scopeOf(user));
    expect(again.ok && again.value.left).toBe(false);
  });

  it("answers a wrong, unknown or inactive code with the same generic error", async () => {
    const user = await createResearcher(t.ctx);
    const inactive = await group({ active: undefined });
    for (const typed of ["NO-SUCH-GROUP", inactive, "x".repeat(64)]) {
      const r = await joinPreferredGroup(scopeOf(user), { groupCode: typed });
      expect(r.ok ? null : r.fieldErrors, typed).toEqual({ groupCode: GENERIC });
    }
    expect(await preferredGroupOf(scopeOf(user))).toBeNull();
  });

  it("a group deactivated by staff no longer counts as the member's group", async () => {
    const user = await createResearcher(t.ctx);
    const code = await group();
    expect((await joinPreferredGroup(scopeOf(user), { groupCode: code })).ok).toBe(true);
    const row = await t.ctx.db.selectFrom("preferred_groups").select("id").where("code", "=", code).executeTakeFirstOrThrow();
    expect((await updateGroup(staffScope, row.id, { name: "Test group", kind: "percent", discount: "20" })).ok).toBe(true);
    expect(await preferredGroupOf(scopeOf(user))).toBeNull();
  });

  it("two concurrent joins leave the user in one group", async () => {
    const user = await createResearcher(t.ctx);
    const [a, b] = [await group(), await group()];
    const rs = await Promise.all([
      joinPreferredGroup(scopeOf(user), { groupCode: a }),
      joinPreferredGroup(scopeOf(user), { groupCode: b }),
    ]);
    expect(rs.every((r) => r.ok)).toBe(true);
    const now = await preferredGroupOf(scopeOf(user));
    expect([a, b]).toContain(now?.code);
  });

  it("the free-trial groups are seeded without the membership widget", async () => {
    const user = await createResearcher(t.ctx);
    const r = await joinPreferredGroup(scopeOf(user), { groupCode: "curie-free-trial" });
    expect(r.ok && r.value.membershipDisplayed).toBe(false);
    const cn = await t.ctx.db
      .selectFrom("preferred_groups")
      .select(["membership_displayed", "name"])
      .where("code", "=", "CURIE-FREE-TRIAL-CN")
      .executeTakeFirstOrThrow();
    expect(cn).toEqual({ membership_displayed: false, name: "Curie free trial China" });
  });
});

describe("rate limits", () => {
  it("counts every attempt per user (10 an hour by default), right and wrong codes alike", async () => {
    const user = await createResearcher(t.ctx);
    const code = await group();
    for (let i = 0; i < 9; i++) await joinPreferredGroup(scopeOf(user), { groupCode: `WRONG-${i}` });
    expect((await joinPreferredGroup(scopeOf(user), { groupCode: code })).ok).toBe(true);
    const refused = await joinPreferredGroup(scopeOf(user), { groupCode: code });
    expect(refused.ok ? null : [refused.error, (refused.details?.retryAfterSeconds as number) > 0]).toEqual(["too-many-attempts", true]);
  });

  it("counts every attempt per address (30 an hour by default), across users", async () => {
    const ip = "10.250.0.1";
    for (let i = 0; i < 30; i++) {
      const u = await createResearcher(t.ctx);
      const r = await joinPreferredGroup(scopeOf(u, ip), { groupCode: "NOPE" });
      expect(r.ok ? null : r.fieldErrors).toEqual({ groupCode: GENERIC });
    }
    const last = await joinPreferredGroup(scopeOf(await createResearcher(t.ctx), ip), { groupCode: "UNI-DEMO" });
    expect(last.ok ? null : last.error).toBe("too-many-attempts");
  });
});

describe("the group discount in an open order form", () => {
  it("appears after joining and goes after leaving, in the same form", async () => {
    const user = await createResearcher(t.ctx);
    const code = await group({ discount: "40" });
    const form = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: "Group" });
    const before = (await priceForm(scopeOf(user), form))!;
    expect(before.discounts.find((d) => d.kind === "Preferred group discount")).toBeUndefined();
    expect((await joinPreferredGroup(scopeOf(user), { groupCode: code })).ok).toBe(true);
    const joined = (await priceForm(scopeOf(user), form))!;
    const d = joined.discounts.find((x) => x.kind === "Preferred group discount");
    expect(d).toMatchObject({ code, applied: true });
    expect(joined.total).toBeLessThan(before.total);
    expect((await leavePreferredGroup(scopeOf(user))).ok).toBe(true);
    const left = (await priceForm(scopeOf(user), form))!;
    expect(left.total).toBe(before.total);
    expect(left.discounts.find((x) => x.kind === "Preferred group discount")).toBeUndefined();
  });

  it("a group created by staff prices at once (the catalogue is invalidated), and an edit changes the discount", async () => {
    await getCatalogue(t.ctx); // warm the cache
    const user = await createResearcher(t.ctx);
    const code = await group({ discount: "15" });
    expect((await joinPreferredGroup(scopeOf(user), { groupCode: code })).ok).toBe(true);
    const form = await createOrderFormFor(t.ctx, user, { services: ["standard-editing"], projectTitle: "Fresh" });
    const p1 = (await priceForm(scopeOf(user), form))!;
    expect(p1.discounts.find((x) => x.kind === "Preferred group discount")).toMatchObject({ code, amount: 15 });
    const id = (await t.ctx.db.selectFrom("preferred_groups").select("id").where("code", "=", code).executeTakeFirstOrThrow()).id;
    expect(
      (await updateGroup(staffScope, id, { name: "Test group", kind: "percent", discount: "30", active: "on", membershipDisplayed: "on" }))
        .ok,
    ).toBe(true);
    const p2 = (await priceForm(scopeOf(user), form))!;
    expect(p2.discounts.find((x) => x.kind === "Preferred group discount")).toMatchObject({ code, amount: 30 });
  });
});

describe("staff console", () => {
  it("creates and edits groups, audited; refuses bad input and non-staff", async () => {
    const code = await group({ kind: "amount", discount: "25.00", greetingText: "Hi" });
    const rows = await listGroups(staffScope);
    const row = rows.ok ? rows.value.find((g) => g.code === code) : undefined;
    expect(row).toMatchObject({ discount: 2500, percentageDiscount: false, greetingText: "Hi", members: 0 });
    const bad = await createGroup(staffScope, { code: "!", name: "", kind: "percent", discount: "101" });
    expect(bad.ok ? null : bad.fieldErrors).toEqual({
      code: "home:staff.errors.code-invalid",
      name: "home:staff.errors.name-required",
      discount: "home:staff.errors.invalid-percent",
    });
    const taken = await createGroup(staffScope, { code, name: "x", kind: "percent", discount: "5" });
    expect(taken.ok ? null : taken.fieldErrors.code).toBe("home:staff.errors.code-taken");
    const audits = await t.ctx.db
      .selectFrom("audit_log")
      .select("action")
      .where("target_type", "=", "preferred_group")
      .where("target_id", "=", String(row!.id))
      .execute();
    expect(audits.map((a) => a.action)).toEqual(["preferred-group.create"]);
    const researcher = await createResearcher(t.ctx);
    expect((await listGroups(scopeOf(researcher))).ok).toBe(false);
    expect((await createGroup(scopeOf(researcher), { code: "NOPE-GROUP", name: "x", kind: "percent", discount: "5" })).ok).toBe(false);
    expect((await updateGroup(staffScope, 999_999, { name: "x", kind: "percent", discount: "5" })).ok).toBe(false);
  });
});

describe("home and the spam banner", () => {
  it("shows the spam banner until the e-mail is verified or the banner hidden", async () => {
    const user = await createResearcher(t.ctx);
    // A factory researcher has confirmed the address: no banner. Unconfirmed, it shows.
    expect((await accountOf(scopeOf(user))).user.showCheckSpamMessage).toBe(false);
    await t.ctx.db.updateTable("users").set({ email_verified_at: null }).where("id", "=", user.id).execute();
    await t.ctx.cache.del(`user:v1:${user.id}`);
    expect((await accountOf(scopeOf(user))).user.showCheckSpamMessage).toBe(true);
    const r = await hideCheckSpamMessage(scopeOf(user));
    expect(r.ok && r.value.user.showCheckSpamMessage).toBe(false);
    // Hidden for good: a second call changes nothing.
    const again = await hideCheckSpamMessage(scopeOf(user));
    expect(again.ok && again.value.user.showCheckSpamMessage).toBe(false);
  });

  it("home: the full name, the newest 3 orders, the group; no balance widget at 0", async () => {
    const user = await createResearcher(t.ctx, { firstName: "Ada", lastName: "Lovelace" });
    for (let i = 0; i < 4; i++) await createPlacedOrder(t.ctx, user, { services: ["standard-editing"], projectTitle: `Home ${i}` });
    const home = (await homeOf(scopeOf(user)))!;
    expect(home.fullName).toBe("Ada Lovelace");
    expect(home.recentOrders.map((o) => o.title)).toEqual(["Home 3", "Home 2", "Home 1"]);
    expect(home.balance).toBeNull();
    expect(home.preferredGroup).toBeNull();
    expect(home.documents).toEqual([]);
    expect(home.processing).toBe(false);
  });

  it("rubriq: leaves only for an http(s) address, keeping path and query; the plan page's China rule", async () => {
    const app = t.ctx;
    try {
      await app.config.setConfig("rubriqExternalUrl", "https://rubriq.example/app/");
      await app.config.setFlag("rubriq_ui_hosted_on_new_site", false);
      expect(await rubriqExternalTarget(app, "/en/rubriq/plan/subscribe", "?a=1")).toBeNull();
      await app.config.setFlag("rubriq_ui_hosted_on_new_site", true);
      expect(await rubriqExternalTarget(app, "/en/rubriq/plan/subscribe", "?a=1&b=2")).toBe(
        "https://rubriq.example/app/en/rubriq/plan/subscribe?a=1&b=2",
      );
      for (const bad of ["", "javascript:alert(1)", "/relative", "ftp://x.example", "https://u:p@x.example"]) {
        await app.config.setConfig("rubriqExternalUrl", bad);
        expect(await rubriqExternalTarget(app, "/en/rubriq", ""), bad).toBeNull();
      }
    } finally {
      await app.config.setFlag("rubriq_ui_hosted_on_new_site", false);
      await app.config.setConfig("rubriqExternalUrl", "");
    }
    const user = await createResearcher(t.ctx);
    expect(await rubriqPlanPurchase(scopeOf(user))).toBe("subscribe");
    expect(await rubriqPlanPurchase({ ...scopeOf(user), localization: "CN" })).toBe("not-sold-in-china");
  });
});
