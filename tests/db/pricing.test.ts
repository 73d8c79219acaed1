// The pricing engine against the seeded catalogue (real database, loaded once per
// scenario): every rule of spec 1 §4, §5, §9 and spec 2 §5, §9 with its boundaries.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import {
  loadCatalogue,
  priceSelection,
  priceTotal,
  getBinForWordCount,
  getBinPrice,
  checkPromoCode,
  rushRuleApplies,
  bundleTurnaround,
  validateQuantity,
  PricingInputError,
  type Catalogue,
  type PriceInput,
  type RushRule,
} from "../../server/catalogue";
import { zonedTime } from "../../server/catalogue/calendar";

let t: TestContext;
let catalogue: Catalogue;

/** Wednesday 15 April 2026, 10:00 in New York: no US holiday in the next weeks. */
const NOW = new Date("2026-04-15T14:00:00Z");
/** 17:00 New York time (EDT in April) on a date. */
const nyEndOfDay = (date: string) => new Date(`${date}T21:00:00Z`);

function input(over: Partial<PriceInput> = {}): PriceInput {
  return {
    currencyIso: "USD",
    wordCount: 5000,
    languageId: 1,
    selections: [{ serviceSlug: "standard-editing" }],
    deliveryTier: "standard",
    localization: "US",
    now: NOW,
    flags: { show_express_service_options: true },
    ...over,
  };
}

const price = (over: Partial<PriceInput> = {}, c: Catalogue = catalogue) => priceSelection(c, input(over));
const only = (slug: string, extra: Record<string, unknown> = {}) => [{ serviceSlug: slug, ...extra }];
const bundleId = (slug: string) => catalogue.bundles.find((b) => b.slug === slug)!.id;

function inputError(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof PricingInputError) return error.code;
    throw error;
  }
  return undefined;
}

beforeAll(async () => {
  t = await createTestContext();
  catalogue = await loadCatalogue(t.ctx.db);
});
afterAll(async () => t.close());

// Money arithmetic (allocate, convertUsdCents, scaleDecimal) is tested in tests/unit/money.test.ts.

describe("word bins (get-bin-price)", () => {
  const cases: [number, string, number][] = [
    [1500, "1-1500", 9500],
    [1501, "1501-3000", 15000],
    [3000, "1501-3000", 15000],
    [3001, "3001-6000", 26000],
    [6000, "3001-6000", 26000],
    [6001, "6001-9000", 37000],
    [12000, "9001-12000", 48000],
    // Above 12,000 words: $0.040 per word.
    [12001, "12001+", 48004],
  ];
  it.each(cases)("%i words: bin %s, standard editing %i cents", (words, bin, cents) => {
    expect(getBinForWordCount(catalogue, words)?.name).toBe(bin);
    expect(price({ wordCount: words }).lineItems[0].listPrice).toBe(cents);
    expect(getBinPrice(catalogue, { serviceSlug: "standard-editing", wordCount: words, currencyIso: "USD", now: NOW })).toEqual({
      ok: true,
      newWordBin: bin,
      price: cents,
    });
  });
  it("has no bin for 0 words, and reports the bin of the order", () => {
    expect(getBinForWordCount(catalogue, 0)).toBeNull();
    expect(price({ wordCount: 5000 }).wordBin).toBe("3001-6000");
    expect(getBinPrice(catalogue, { serviceSlug: "scientific-editing", wordCount: 12001, currencyIso: "USD", now: NOW })).toEqual({
      ok: false,
      error: "very-long-word-count-notice",
    });
    expect(getBinPrice(catalogue, { serviceSlug: "nope", wordCount: 100, currencyIso: "USD", now: NOW })).toEqual({
      ok: false,
      error: "unknown-service",
    });
  });
  it("multiplies the bins for the other editing levels", () => {
    const at = (slug: string) => price({ wordCount: 1500, selections: only(slug) }).lineItems[0].listPrice;
    expect(at("advanced-editing")).toBe(11875);
    expect(at("premium-editing")).toBe(15200);
    expect(at("premium-advanced-editing")).toBe(18050);
    expect(at("scientific-editing")).toBe(23750);
  });
});

describe("word count limits", () => {
  it("accepts 1 to the stored maximum and refuses the rest", () => {
    expect(inputError(() => price({ wordCount: 0 }))).toBe("word-count-range-error");
    expect(inputError(() => price({ wordCount: 1.5 }))).toBe("word-count-range-error");
    expect(inputError(() => price({ wordCount: 1_000_000_000 }))).toBe("word-count-range-error");
    expect(price({ wordCount: 1 }).total).toBe(9500);
    expect(price({ wordCount: 999_999_999 }).veryLongWordCount).toBe(true);
  });
  it("makes a count above the form maximum or a service's limit quote only ('contact support')", () => {
    expect(price({ wordCount: 999_999 })).toMatchObject({ veryLongWordCount: false, quoteOnly: false });
    const long = price({ wordCount: 1_000_000 });
    expect(long).toMatchObject({ veryLongWordCount: true, quoteOnly: true, rushAvailable: false });
    expect(long.notices).toContain("very-long-word-count-notice");
    expect(price({ wordCount: 12000, selections: only("scientific-editing") })).toMatchObject({
      veryLongWordCount: false,
      quoteOnly: false,
    });
    expect(price({ wordCount: 12001, selections: only("scientific-editing") })).toMatchObject({ veryLongWordCount: true, quoteOnly: true });
  });
  it("prices book editing per word but leaves its deadline to a quote", () => {
    const book = price({ wordCount: 80000, selections: only("book-editing") });
    expect(book).toMatchObject({ quoteOnly: true, veryLongWordCount: false, deadline: null, total: 280000 });
    expect(book.notices).toContain("quote-only-notice");
  });
});

describe("express delivery (spec 1 §4, §9)", () => {
  it.each([
    [3999, false],
    [4000, true],
    [5999, true],
    [6000, false],
  ])("at %i words is offered: %s", (words, offered) => {
    const r = price({ wordCount: words, deliveryTier: "express" });
    expect(r.expressAvailable).toBe(offered);
    expect(r.deliveryTier).toBe(offered ? "express" : "standard");
    expect(r.deadlines.express !== undefined).toBe(offered);
  });
  it("needs the flag on and Standard or Premium Editing as the primary service", () => {
    expect(price({ flags: { show_express_service_options: false } }).expressAvailable).toBe(false);
    expect(price({ flags: undefined }).expressAvailable).toBe(false);
    expect(price({ selections: only("premium-editing") }).expressAvailable).toBe(true);
    expect(price({ selections: only("advanced-editing") }).expressAvailable).toBe(false);
    expect(price({ selections: only("premium-advanced-editing") }).expressAvailable).toBe(false);
    expect(price({ languageId: 4, selections: only("standard-translation-pt-en") }).expressAvailable).toBe(false);
    // The primary service is the first editing or translation service chosen.
    expect(price({ selections: [{ serviceSlug: "manuscript-formatting" }, { serviceSlug: "standard-editing" }] }).expressAvailable).toBe(
      true,
    );
  });
  it("prices express at × 1.6 and delivers in 2 business days", () => {
    const r = price({ deliveryTier: "express" });
    expect(r.lineItems[0]).toMatchObject({ listPrice: 41600, deliveryTier: "express", turnaroundDays: 2 });
    expect(r.expressPriceDifference).toBe(15600);
    expect(r.deadline).toEqual(nyEndOfDay("2026-04-17"));
    expect(r.deadlines).toEqual({ standard: nyEndOfDay("2026-04-24"), rush: nyEndOfDay("2026-04-21"), express: nyEndOfDay("2026-04-17") });
  });
  it("resets express to standard when the non-rush deadline equals the express deadline", () => {
    const slowExpress = structuredClone(catalogue);
    slowExpress.tiers.express.turnaroundDays = 7;
    const r = price({ deliveryTier: "express" }, slowExpress);
    expect(r).toMatchObject({ expressAvailable: false, deliveryTier: "standard", expressPriceDifference: 0, total: 26000 });
    expect(r.deadlines.express).toBeUndefined();
  });
  it("hides rush when the rush deadline equals the express deadline", () => {
    const fastRush = structuredClone(catalogue);
    fastRush.tiers.rush.turnaroundDays = 2;
    const r = price({ deliveryTier: "rush" }, fastRush);
    expect(r).toMatchObject({ rushAvailable: false, expressAvailable: true, deliveryTier: "standard", rushPriceDifference: 0 });
    // Outside the express range rush is offered again.
    expect(price({ wordCount: 3999, deliveryTier: "rush" }, fastRush)).toMatchObject({ rushAvailable: true, deliveryTier: "rush" });
  });
});

describe("rush delivery and rush rules (spec 2 §3, §5)", () => {
  it("prices rush at × 1.35 with about 4 business days plus the word extension", () => {
    const r = price({ deliveryTier: "rush" });
    expect(r).toMatchObject({
      deliveryTier: "rush",
      rushAvailable: true,
      rushPriceDifference: 9100,
      total: 35100,
      deadline: nyEndOfDay("2026-04-21"),
    });
    const long = price({ wordCount: 20000, deliveryTier: "rush" });
    expect(long.deadlines.standard).toEqual(nyEndOfDay("2026-05-01"));
    expect(long.deadline).toEqual(nyEndOfDay("2026-04-28"));
    expect(long).toMatchObject({ total: 108000, rushPriceDifference: 28000, turnaroundDays: 9 });
  });
  it("offers rush only where a seeded rule applies (editing up to 39,999 words)", () => {
    expect(price({ wordCount: 39999 }).rushAvailable).toBe(true);
    expect(price({ wordCount: 40000, deliveryTier: "rush" })).toMatchObject({ rushAvailable: false, deliveryTier: "standard" });
    expect(price({ languageId: 2, wordCount: 17999, selections: only("standard-translation-zh-en") }).rushAvailable).toBe(true);
    expect(price({ languageId: 2, wordCount: 18000, selections: only("standard-translation-zh-en") }).rushAvailable).toBe(false);
    // Services without rush: formatting, scientific editing.
    expect(price({ selections: only("manuscript-formatting") }).rushAvailable).toBe(false);
    expect(price({ selections: only("scientific-editing") }).rushAvailable).toBe(false);
  });
  it("changes only rush-eligible lines", () => {
    const r = price({ deliveryTier: "rush", selections: [{ serviceSlug: "standard-editing" }, { serviceSlug: "manuscript-formatting" }] });
    expect(r.lineItems.map((l) => [l.serviceSlug, l.deliveryTier, l.listPrice])).toEqual([
      ["standard-editing", "rush", 35100],
      ["manuscript-formatting", "standard", 9500],
    ]);
  });

  const rule = (over: Partial<RushRule> = {}): RushRule => ({
    id: 1,
    name: "test",
    startsOn: "2026-01-01",
    endsOn: "2026-12-31",
    grandparentAreaOfStudyId: null,
    lowerWordCountLimit: null,
    upperWordCountLimit: null,
    loyaltyLevelIdentities: [],
    serviceIdentities: [],
    ...over,
  });
  const ctx = {
    date: "2026-06-01",
    grandparentAreaOfStudyId: 2,
    undeterminedArea: false,
    loyaltyLevel: "gold",
    serviceIdentity: "svc-a",
    wordCount: 5000,
  };

  it("matches on the date range (inclusive)", () => {
    expect(rushRuleApplies(rule(), ctx)).toBe(true);
    expect(rushRuleApplies(rule(), { ...ctx, date: "2026-01-01" })).toBe(true);
    expect(rushRuleApplies(rule(), { ...ctx, date: "2026-12-31" })).toBe(true);
    expect(rushRuleApplies(rule(), { ...ctx, date: "2025-12-31" })).toBe(false);
    expect(rushRuleApplies(rule(), { ...ctx, date: "2027-01-01" })).toBe(false);
    expect(rushRuleApplies(rule({ startsOn: null, endsOn: null }), { ...ctx, date: "2030-01-01" })).toBe(true);
  });
  it("matches the area when equal, absent on either side, or the undetermined wildcard", () => {
    expect(rushRuleApplies(rule({ grandparentAreaOfStudyId: 2 }), ctx)).toBe(true);
    expect(rushRuleApplies(rule({ grandparentAreaOfStudyId: 1 }), ctx)).toBe(false);
    expect(rushRuleApplies(rule({ grandparentAreaOfStudyId: 1 }), { ...ctx, grandparentAreaOfStudyId: null })).toBe(true);
    expect(rushRuleApplies(rule({ grandparentAreaOfStudyId: 1 }), { ...ctx, grandparentAreaOfStudyId: 492, undeterminedArea: true })).toBe(
      true,
    );
    expect(rushRuleApplies(rule({ grandparentAreaOfStudyId: null }), ctx)).toBe(true);
  });
  it("matches the loyalty level and the service when listed (an empty list matches all)", () => {
    expect(rushRuleApplies(rule({ loyaltyLevelIdentities: ["gold", "platinum"] }), ctx)).toBe(true);
    expect(rushRuleApplies(rule({ loyaltyLevelIdentities: ["platinum"] }), ctx)).toBe(false);
    expect(rushRuleApplies(rule({ loyaltyLevelIdentities: ["gold"] }), { ...ctx, loyaltyLevel: null })).toBe(false);
    expect(rushRuleApplies(rule({ serviceIdentities: ["svc-a"] }), ctx)).toBe(true);
    expect(rushRuleApplies(rule({ serviceIdentities: ["svc-b"] }), ctx)).toBe(false);
  });
  it("matches word counts within the limits that are set (inclusive)", () => {
    expect(rushRuleApplies(rule({ lowerWordCountLimit: 5000, upperWordCountLimit: 5000 }), ctx)).toBe(true);
    expect(rushRuleApplies(rule({ lowerWordCountLimit: 5001 }), ctx)).toBe(false);
    expect(rushRuleApplies(rule({ upperWordCountLimit: 4999 }), ctx)).toBe(false);
  });
  it("reads the rules from the database: area and loyalty restrictions take effect after a reload", async () => {
    await t.ctx.db
      .updateTable("rush_rules")
      .set({ grandparent_area_of_study_id: 2, loyalty_level_identities: JSON.stringify(["gold"]) })
      .where("name", "=", "Editing rush")
      .execute();
    try {
      const c = await loadCatalogue(t.ctx.db);
      const rushFor = (areaOfStudyId: number | null, loyaltyLevel: string | null) =>
        price({ areaOfStudyId, loyaltyLevel }, c).rushAvailable;
      expect(rushFor(120, "gold")).toBe(true); // Cardiology, under Medicine and Health (2)
      expect(rushFor(100, "gold")).toBe(false); // Cell Biology, under Life Sciences (1)
      expect(rushFor(494, "gold")).toBe(true); // 'Undetermined'
      expect(rushFor(null, "gold")).toBe(true); // not chosen yet
      expect(rushFor(120, "silver")).toBe(false);
      expect(rushFor(120, null)).toBe(false);
    } finally {
      await t.ctx.db
        .updateTable("rush_rules")
        .set({ grandparent_area_of_study_id: null, loyalty_level_identities: "[]" })
        .where("name", "=", "Editing rush")
        .execute();
    }
  });
  it("ends with the rule's date range", async () => {
    await t.ctx.db.updateTable("rush_rules").set({ ends_on: "2026-04-14" }).where("name", "=", "Editing rush").execute();
    try {
      const c = await loadCatalogue(t.ctx.db);
      expect(price({}, c).rushAvailable).toBe(false);
      expect(price({ now: new Date("2026-04-14T14:00:00Z") }, c).rushAvailable).toBe(true);
    } finally {
      await t.ctx.db.updateTable("rush_rules").set({ ends_on: null }).where("name", "=", "Editing rush").execute();
    }
  });
});

describe("word-count notices (spec 1 §5, spec 2 §9)", () => {
  const notices = (over: Partial<PriceInput>) => price(over).notices;
  it("custom editing deadline over 40,000 words for English without translation (spec 1 §5; ADR 023)", () => {
    expect(notices({ wordCount: 40000 })).not.toContain("custom-editing-deadline-notice");
    expect(notices({ wordCount: 40001 })).toContain("custom-editing-deadline-notice");
    expect(notices({ wordCount: 40001, languageId: 4 })).not.toContain("custom-editing-deadline-notice");
    expect(notices({ wordCount: 40001, selections: only("reverse-translation-en-es") })).not.toContain("custom-editing-deadline-notice");
    // Staff acting as the user do not see custom-deadline notices (spec 2 §6).
    expect(notices({ wordCount: 40001, impersonating: true })).not.toContain("custom-editing-deadline-notice");
  });
  it("custom translation deadline over 18,000 with translation or scientific editing (spec 1 §5; ADR 023)", () => {
    const zh = { languageId: 2, selections: only("standard-translation-zh-en") };
    expect(notices({ ...zh, wordCount: 18000 })).not.toContain("custom-translation-deadline-notice");
    expect(notices({ ...zh, wordCount: 18001 })).toContain("custom-translation-deadline-notice");
    expect(notices({ wordCount: 18000, selections: only("scientific-editing") })).not.toContain("custom-translation-deadline-notice");
    expect(notices({ wordCount: 18001, selections: only("scientific-editing") })).toEqual(
      expect.arrayContaining(["custom-translation-deadline-notice", "scientific-editing-aos-notice", "very-long-word-count-notice"]),
    );
    expect(notices({ wordCount: 18001 })).not.toContain("custom-translation-deadline-notice");
    expect(notices({ ...zh, wordCount: 18001, impersonating: true })).not.toContain("custom-translation-deadline-notice");
  });
  it("translation notice at 12,000 and above when the language id is 2 (Chinese)", () => {
    const zh = { languageId: 2, selections: only("standard-translation-zh-en") };
    expect(notices({ ...zh, wordCount: 11999 })).not.toContain("translation-notice");
    expect(notices({ ...zh, wordCount: 12000 })).toContain("translation-notice");
    expect(notices({ languageId: 1, wordCount: 12000 })).not.toContain("translation-notice");
  });
  it("multimedia notice at 18,000 and above with a multimedia service", () => {
    expect(notices({ wordCount: 17999, selections: only("custom-illustration") })).not.toContain("multimedia-notice");
    expect(notices({ wordCount: 18000, selections: only("custom-illustration") })).toContain("multimedia-notice");
    expect(notices({ wordCount: 18000, selections: only("manuscript-formatting") })).not.toContain("multimedia-notice");
  });
  it("has no notices for an ordinary order", () => {
    expect(notices({})).toEqual([]);
  });
});

describe("quantities of figure and table formatting (1 to 25)", () => {
  it.each([
    [0, "quantity-range-error"],
    [1, undefined],
    [25, undefined],
    [26, "quantity-range-error"],
  ])("quantity %i", (quantity, error) => {
    expect(inputError(() => price({ selections: only("figure-formatting", { quantity }) }))).toBe(error);
    expect(validateQuantity(quantity)).toBe(error ?? null);
  });
  it("prices per figure and per table, from quantity or the counts", () => {
    expect(price({ selections: only("figure-formatting", { quantity: 1 }) }).total).toBe(2500);
    expect(price({ selections: only("figure-formatting", { quantity: 25 }) }).total).toBe(62500);
    expect(price({ selections: only("figure-formatting", { figureCount: 3 }) }).lineItems[0]).toMatchObject({
      quantity: 3,
      listPrice: 7500,
    });
    expect(price({ selections: only("table-formatting", { tableCount: 2 }) }).lineItems[0]).toMatchObject({ quantity: 2, listPrice: 3000 });
    expect(price({ selections: only("table-formatting") }).lineItems[0].quantity).toBe(1);
    expect(inputError(() => price({ selections: only("table-formatting", { quantity: 2.5 }) }))).toBe("quantity-range-error");
  });
});

describe("currencies (USD × dated rate, rounded to the currency's decimals)", () => {
  it("rounds JPY to whole yen and EUR to cents", () => {
    const advanced = { wordCount: 1500, selections: only("advanced-editing") };
    expect(price({ ...advanced, currencyIso: "JPY" }).total).toBe(17813); // $118.75 × 150 = ¥17,812.5
    expect(price({ ...advanced, currencyIso: "EUR" }).total).toBe(10925); // × 0.92
    // Book editing: 1,001 words × $0.035 = $35.035 → $35.04 → €32.2368 → €32.24, ¥5,256.
    const book = { wordCount: 1001, selections: only("book-editing") };
    expect(price(book).total).toBe(3504);
    expect(price({ ...book, currencyIso: "EUR" }).total).toBe(3224);
    expect(price({ ...book, currencyIso: "JPY" }).total).toBe(5256);
    expect(price({ currencyIso: "BRL" }).total).toBe(145600);
    expect(price({ currencyIso: "CNY" }).total).toBe(187200);
    expect(price({ currencyIso: "JPY" }).currency).toEqual({ isoCode: "JPY", sign: "¥", numDecimals: 0, rate: "150.00000000" });
  });
  it("converts amount discounts and price differences too", () => {
    const r = price({ currencyIso: "JPY", promoCode: "SAVE50", deliveryTier: "rush" });
    expect(r.discounts.find((d) => d.kind === "Promotional Code")).toMatchObject({
      percentBased: false,
      amount: 7500,
      appliedAmount: 7500,
      applied: true,
    });
    expect(r.rushPriceDifference).toBe(13650);
  });
  it("uses the rate in force on the order's date", async () => {
    await t.ctx.db.insertInto("exchange_rates").values({ iso_code: "EUR", rate: "0.95", effective_on: "2026-06-01" }).execute();
    const c = await loadCatalogue(t.ctx.db);
    expect(price({ currencyIso: "EUR", now: new Date("2026-05-31T12:00:00Z") }, c).total).toBe(23920);
    expect(price({ currencyIso: "EUR", now: new Date("2026-06-02T12:00:00Z") }, c).total).toBe(24700);
  });
  it("refuses an unknown currency or localisation", () => {
    expect(inputError(() => price({ currencyIso: "XXX" }))).toBe("unknown-currency");
    expect(inputError(() => price({ localization: "XX" }))).toBe("unknown-localization");
  });
});

describe("deadlines in business days of the localisation", () => {
  const twoDays = (localization: string, now: string) =>
    price({ localization, now: new Date(now), selections: only("plagiarism-check") }).deadline;
  it("skips weekends", () => {
    expect(twoDays("US", "2026-04-17T14:00:00Z")).toEqual(nyEndOfDay("2026-04-21"));
  });
  it("US: skips Thanksgiving and the weekend, ends 17:00 New York time", () => {
    expect(twoDays("US", "2026-11-25T15:00:00Z")).toEqual(new Date("2026-11-30T22:00:00Z"));
  });
  it("China: skips the National Day week, ends 17:00 Beijing time", () => {
    expect(twoDays("CN", "2026-09-30T02:00:00Z")).toEqual(new Date("2026-10-09T09:00:00Z"));
  });
  it("Brazil: skips Black Consciousness Day and the weekend, ends 17:00 São Paulo time", () => {
    expect(twoDays("BR", "2026-11-19T13:00:00Z")).toEqual(new Date("2026-11-24T20:00:00Z"));
  });
  it("counts from the local date, and keeps 17:00 across a daylight-saving change", () => {
    // 03:00 UTC on 25 Nov is still the 24th in New York but already the 25th in Shanghai.
    expect(twoDays("US", "2026-11-25T03:00:00Z")).toEqual(new Date("2026-11-27T22:00:00Z"));
    expect(twoDays("CN", "2026-11-25T03:00:00Z")).toEqual(new Date("2026-11-27T09:00:00Z"));
    expect(twoDays("US", "2026-03-06T15:00:00Z")).toEqual(new Date("2026-03-10T21:00:00Z"));
    expect(zonedTime("2026-11-01", 17, 0, "America/New_York")).toEqual(new Date("2026-11-01T22:00:00Z"));
  });
  it("takes holidays from the data", async () => {
    await t.ctx.db.deleteFrom("holidays").where("localization", "=", "US").where("date", "=", "2026-11-26").execute();
    try {
      const c = await loadCatalogue(t.ctx.db);
      expect(price({ now: new Date("2026-11-25T15:00:00Z"), selections: only("plagiarism-check") }, c).deadline).toEqual(
        new Date("2026-11-27T22:00:00Z"),
      );
    } finally {
      await t.ctx.db.insertInto("holidays").values({ localization: "US", date: "2026-11-26", name: "Thanksgiving Day" }).execute();
    }
  });
  it("is ready when the slowest service is", () => {
    const r = price({ selections: [{ serviceSlug: "manuscript-formatting" }, { serviceSlug: "standard-editing" }] });
    expect(r.turnaroundDays).toBe(7);
    expect(r.deadline).toEqual(nyEndOfDay("2026-04-24"));
  });
});

describe("service bundles (spec 1 §9)", () => {
  it("takes the bundle percent off when editing is mixed with other services", () => {
    const r = price({ bundleId: bundleId("figure-ready"), selections: only("figure-formatting", { quantity: 4 }) });
    expect(r.lineItems.map((l) => [l.serviceSlug, l.listPrice, l.discountAmount, l.totalPrice])).toEqual([
      ["standard-editing", 26000, 2080, 23920],
      ["figure-formatting", 10000, 800, 9200],
    ]);
    expect(r).toMatchObject({ subtotal: 36000, total: 33120 });
    expect(r.discounts).toEqual([
      {
        kind: "Service bundle discount",
        code: "figure-ready",
        descriptionKey: "catalogue:discounts.service-bundle",
        percentBased: true,
        amount: 8,
        appliedAmount: 2880,
        applied: true,
      },
    ]);
  });
  it("gives no bundle discount without the mix", () => {
    const r = price({ bundleId: bundleId("figure-ready"), selections: [] });
    expect(r.lineItems.map((l) => l.serviceSlug)).toEqual(["standard-editing"]);
    expect(r.total).toBe(26000);
    expect(r.discounts[0]).toMatchObject({ kind: "Service bundle discount", applied: false, appliedAmount: 0 });
  });
  it("charges rush and express as add-ons outside the discount", () => {
    const figureReady = { bundleId: bundleId("figure-ready"), selections: only("figure-formatting", { quantity: 4 }) };
    const rush = price({ ...figureReady, deliveryTier: "rush" });
    // 35,100 + 10,000 − 8 % of the non-rush total 36,000.
    expect(rush).toMatchObject({ deliveryTier: "rush", total: 42220, rushPriceDifference: 9100 });
    const express = price({ ...figureReady, deliveryTier: "express" });
    expect(express).toMatchObject({ deliveryTier: "express", total: 48720, expressPriceDifference: 15600 });
  });
  it("turnaround: longest figure or table service + the others, looked up in the bundle's deadlines", () => {
    const figureReady = {
      bundleId: bundleId("figure-ready"),
      selections: [
        { serviceSlug: "figure-formatting", quantity: 1 },
        { serviceSlug: "table-formatting", quantity: 2 },
      ],
    };
    // 7 (editing) + max(3, 3) = 10 → promised 8 business days.
    const r = price(figureReady);
    expect(r.turnaroundDays).toBe(8);
    expect(r.deadline).toEqual(nyEndOfDay("2026-04-27"));
    // Rush: 4 + 3 = 7, ahead of the standard promise.
    expect(price({ ...figureReady, deliveryTier: "rush" }).turnaroundDays).toBe(7);
    expect(price({ ...figureReady, deliveryTier: "express" }).turnaroundDays).toBe(5);
    // 20,000 words: 12 + 3 = 15 → key 16 → 12.
    expect(price({ ...figureReady, wordCount: 20000 }).turnaroundDays).toBe(12);
    // Publication Ready: 8 + 3 + 3 = 14 → 10.
    const pub = price({
      bundleId: bundleId("publication-ready"),
      selections: [{ serviceSlug: "manuscript-formatting" }, { serviceSlug: "journal-recommendation" }],
    });
    expect(pub).toMatchObject({ turnaroundDays: 10, subtotal: 57100, total: 51390 });
  });
  it("bundleTurnaround keeps the last saving beyond the table and is never slower than the timeline", () => {
    const b = { deadlines: { "10": 8, "13": 10, "16": 12 } };
    const at = (editing: number) =>
      bundleTurnaround(b, [
        { days: editing, figuresOrTables: false },
        { days: 3, figuresOrTables: true },
        { days: 2, figuresOrTables: true },
      ]);
    expect([at(4), at(7), at(8), at(10), at(13), at(15), at(20)]).toEqual([7, 8, 10, 10, 12, 14, 19]);
    expect(bundleTurnaround({ deadlines: {} }, [{ days: 7, figuresOrTables: false }])).toBe(7);
  });
  it("refuses services that are not in the bundle", () => {
    expect(inputError(() => price({ bundleId: bundleId("figure-ready"), selections: only("journal-recommendation") }))).toBe(
      "service-not-in-bundle",
    );
    expect(inputError(() => price({ bundleId: 9999 }))).toBe("unknown-bundle");
  });
});

describe("promotional codes, preferred groups and the best discount", () => {
  it("applies one promo code", () => {
    const r = price({ promoCode: "welcome10" });
    expect(r.total).toBe(23400);
    expect(r.discounts).toEqual([
      {
        kind: "Promotional Code",
        code: "WELCOME10",
        descriptionKey: "catalogue:discounts.promotional-code",
        percentBased: true,
        amount: 10,
        appliedAmount: 2600,
        applied: true,
      },
    ]);
    expect(r.bestDiscountApplied).toBeUndefined();
  });
  it("allows one code per order", () => {
    expect(checkPromoCode(catalogue, "SAVE50", { now: NOW, currentCode: "WELCOME10" })).toEqual({
      ok: false,
      error: "one-promo-code-per-order",
    });
    expect(checkPromoCode(catalogue, "welcome10", { now: NOW, currentCode: "WELCOME10" })).toMatchObject({ ok: true });
    expect(checkPromoCode(catalogue, "SAVE50", { now: NOW, currentCode: null })).toMatchObject({ ok: true });
  });
  it("checks the code's validity", async () => {
    expect(checkPromoCode(catalogue, "  ", { now: NOW })).toEqual({ ok: false, error: "promo-code-empty" });
    expect(checkPromoCode(catalogue, "NOPE", { now: NOW })).toEqual({ ok: false, error: "promo-code-invalid" });
    expect(checkPromoCode(catalogue, "EXPIRED20", { now: NOW })).toEqual({ ok: false, error: "promo-code-expired" });
    expect(checkPromoCode(catalogue, "SPRING5", { now: new Date("2026-02-28T12:00:00Z") })).toEqual({
      ok: false,
      error: "promo-code-invalid",
    });
    expect(checkPromoCode(catalogue, "SPRING5", { now: NOW })).toMatchObject({ ok: true });
    await t.ctx.db.updateTable("promo_codes").set({ times_used: 100 }).where("code", "=", "FIRST100").execute();
    const c = await loadCatalogue(t.ctx.db);
    expect(checkPromoCode(c, "FIRST100", { now: NOW })).toEqual({ ok: false, error: "promo-code-used-up" });
    const r = price({ promoCode: "FIRST100" }, c);
    expect(r).toMatchObject({ promoCodeError: "promo-code-used-up", total: 26000, discounts: [] });
    await t.ctx.db.updateTable("promo_codes").set({ times_used: 0 }).where("code", "=", "FIRST100").execute();
  });
  it("does not apply a code when a better or equal discount already applies ('best-discount-applied')", () => {
    const r = price({ promoCode: "WELCOME10", preferredGroupCode: "UNI-DEMO" });
    expect(r.bestDiscountApplied).toBe(true);
    expect(r.notices).toContain("best-discount-applied");
    expect(r.total).toBe(23400);
    expect(r.discounts.map((d) => [d.kind, d.applied, d.appliedAmount])).toEqual([
      ["Preferred group discount", true, 2600],
      ["Promotional Code", false, 0],
    ]);
    const pub = price({ bundleId: bundleId("publication-ready"), selections: only("manuscript-formatting"), promoCode: "WELCOME10" });
    expect(pub.bestDiscountApplied).toBe(true);
  });
  it("applies a better code instead of the group discount", () => {
    const r = price({ promoCode: "FIRST100", preferredGroupCode: "UNI-DEMO" });
    expect(r.bestDiscountApplied).toBeUndefined();
    expect(r.total).toBe(22100);
    expect(r.discounts.map((d) => [d.kind, d.applied])).toEqual([
      ["Preferred group discount", false],
      ["Promotional Code", true],
    ]);
  });
  it("caps an amount discount at the order total", () => {
    expect(price({ selections: only("plagiarism-check"), promoCode: "SAVE50" }).total).toBe(0);
  });
  it("preferred groups: a percentage or an amount", () => {
    expect(price({ preferredGroupCode: "uni-demo" }).discounts).toEqual([
      {
        kind: "Preferred group discount",
        code: "UNI-DEMO",
        descriptionKey: "catalogue:discounts.preferred-group",
        percentBased: true,
        amount: 10,
        appliedAmount: 2600,
        applied: true,
      },
    ]);
    expect(price({ preferredGroupCode: "LAB-DEMO" }).discounts[0]).toMatchObject({
      percentBased: false,
      amount: 2500,
      appliedAmount: 2500,
    });
    expect(price({ preferredGroupCode: "NOT-A-GROUP" }).discounts).toEqual([]);
  });
});

describe("re-edit and service discounts", () => {
  it("takes the re-edit discount off every line of a re-edit order", () => {
    const r = price({ isReedit: true });
    expect(r.total).toBe(13000);
    expect(r.discounts).toEqual([
      {
        kind: "Re-edit discount",
        descriptionKey: "catalogue:discounts.re-edit",
        percentBased: true,
        amount: 50,
        appliedAmount: 13000,
        applied: true,
      },
    ]);
    expect(price({ isReedit: false }).discounts).toEqual([]);
    // An order discount then applies to what is left.
    expect(price({ isReedit: true, preferredGroupCode: "UNI-DEMO" }).total).toBe(11700);
  });
  it("discounts a plagiarism check ordered with editing", () => {
    const r = price({ selections: [{ serviceSlug: "standard-editing" }, { serviceSlug: "plagiarism-check" }] });
    expect(r.discounts).toEqual([
      {
        kind: "Service discount",
        descriptionKey: "catalogue:discounts.service",
        percentBased: true,
        amount: 20,
        appliedAmount: 900,
        applied: true,
      },
    ]);
    expect(r.lineItems[1]).toMatchObject({ listPrice: 4500, discountAmount: 900, totalPrice: 3600 });
    expect(price({ selections: only("plagiarism-check") }).discounts).toEqual([]);
  });
  it("keeps line totals equal to the order total", () => {
    const r = price({
      selections: [
        { serviceSlug: "premium-editing" },
        { serviceSlug: "plagiarism-check" },
        { serviceSlug: "figure-formatting", quantity: 3 },
      ],
      promoCode: "FIRST100",
    });
    expect(r.lineItems.reduce((s, l) => s + l.totalPrice, 0)).toBe(r.total);
    expect(r.subtotal - r.discounts.filter((d) => d.applied).reduce((s, d) => s + d.appliedAmount, 0)).toBe(r.total);
  });
});

describe("other price rules", () => {
  it("translation: per source word (Chinese per character) with a minimum; premium × 1.4", () => {
    expect(price({ languageId: 2, wordCount: 1000, selections: only("standard-translation-zh-en") }).total).toBe(15000);
    expect(price({ languageId: 2, wordCount: 1000, selections: only("premium-translation-zh-en") }).total).toBe(21000);
    expect(price({ languageId: 4, selections: only("standard-translation-pt-en") }).total).toBe(70000);
    expect(price({ languageId: 4, selections: only("premium-translation-pt-en") }).total).toBe(98000);
    expect(price({ selections: only("reverse-translation-en-ja") }).total).toBe(50000);
  });
  it("offers a translation only from the manuscript's language", () => {
    const r = price({ languageId: 2, selections: only("standard-translation-pt-en") });
    expect(r).toMatchObject({
      noServiceOption: true,
      unavailableServices: [{ serviceSlug: "standard-translation-pt-en", reason: "language" }],
      lineItems: [],
    });
    expect(r.notices).toContain("word-count-differs-no-service-option");
  });
  it("automated re-editing is free with a premium order", () => {
    expect(
      price({ selections: [{ serviceSlug: "premium-editing" }, { serviceSlug: "automated-re-editing" }] }).lineItems[1].listPrice,
    ).toBe(0);
    expect(
      price({ selections: [{ serviceSlug: "standard-editing" }, { serviceSlug: "automated-re-editing" }] }).lineItems[1].listPrice,
    ).toBe(4000);
  });
  it("touch-ups cost 30 % of the original service", () => {
    expect(price({ selections: only("touch-up-editing") }).total).toBe(7800);
    expect(price({ selections: only("touch-up-formatting") }).total).toBe(2850);
    expect(
      price({ languageId: 4, selections: only("touch-up-translation", { originalServiceSlug: "standard-translation-pt-en" }) }).total,
    ).toBe(21000);
    expect(price({ selections: only("touch-up-translation") })).toMatchObject({
      noServiceOption: true,
      unavailableServices: [{ serviceSlug: "touch-up-translation", reason: "no-base" }],
    });
  });
  it("prices fixed services and refuses unknown or repeated ones", () => {
    expect(price({ selections: only("custom-illustration") }).total).toBe(30000);
    expect(price({ selections: only("animated-figure") }).total).toBe(45000);
    expect(price({ selections: only("graphical-abstract") }).total).toBe(25000);
    expect(price({ selections: only("journal-recommendation") }).total).toBe(6000);
    expect(price({ selections: only("cover-letter") }).total).toBe(6000);
    const byId = catalogue.services.find((s) => s.slug === "manuscript-formatting")!;
    expect(price({ selections: [{ serviceId: byId.id }] }).total).toBe(9500);
    expect(price({ selections: [{ serviceIdentity: byId.identity }] }).total).toBe(9500);
    expect(inputError(() => price({ selections: only("no-such-service") }))).toBe("unknown-service");
    expect(inputError(() => price({ selections: [{ serviceSlug: "cover-letter" }, { serviceSlug: "cover-letter" }] }))).toBe(
      "duplicate-service",
    );
  });
  it("marks an inactive service as no service option", async () => {
    const c = structuredClone(catalogue);
    c.services.find((s) => s.slug === "cover-letter")!.active = false;
    expect(priceSelection(c, input({ selections: only("cover-letter") }))).toMatchObject({ noServiceOption: true, total: 0 });
  });
  it("prices an empty selection at zero with no deadline", () => {
    expect(price({ selections: [] })).toMatchObject({
      total: 0,
      subtotal: 0,
      deadline: null,
      rushAvailable: false,
      expressAvailable: false,
    });
  });
});

describe("card prices (priceTotal)", () => {
  it("equal the standard total of priceSelection for every service, currency and word count", () => {
    let priced = 0;
    for (const s of catalogue.services) {
      for (const [currencyIso, wordCount, languageId] of [
        ["USD", 3000, 1],
        ["CNY", 12_000, 2],
        ["EUR", 40_000, 1],
        ["JPY", 250, 1],
      ] as const) {
        const i = input({
          currencyIso,
          wordCount,
          languageId,
          selections: [{ serviceSlug: s.slug, quantity: 1 }],
          localization: currencyIso === "CNY" ? "CN" : "US",
        });
        let full: ReturnType<typeof priceSelection> | null = null;
        try {
          full = priceSelection(catalogue, i);
        } catch {
          full = null;
        }
        const quick = (() => {
          try {
            return priceTotal(catalogue, i);
          } catch {
            return null;
          }
        })();
        const expected = full && full.unavailableServices.length === 0 ? full.total : null;
        expect(quick, `${s.slug} ${currencyIso} ${wordCount}`).toBe(expected);
        if (quick !== null) priced++;
      }
    }
    expect(priced).toBeGreaterThan(catalogue.services.length);
  });
  it("give no price for a service the manuscript cannot have", () => {
    const fromEnglish = catalogue.services.find((s) => s.sourceLanguageId === 1)!;
    expect(priceTotal(catalogue, input({ languageId: 2, selections: only(fromEnglish.slug) }))).toBeNull();
  });
  it("include the bundle discount for a bundle", () => {
    const b = catalogue.bundles[0];
    const i = input({ selections: only(b.primaryServiceSlug), bundleId: b.id });
    expect(priceTotal(catalogue, i)).toBe(priceSelection(catalogue, i).total);
  });
});

describe("business-day arithmetic", () => {
  it("jumps whole weeks exactly as counting day by day would", async () => {
    const { addBusinessDaysToDate, isBusinessDay } = await import("../../server/catalogue/calendar");
    const holidays = new Set(catalogue.calendars.CN.holidays);
    const slow = (date: string, days: number) => {
      let t = Date.parse(`${date}T00:00:00Z`);
      for (let left = days; left > 0;) {
        t += 86_400_000;
        if (isBusinessDay(new Date(t).toISOString().slice(0, 10), holidays)) left--;
      }
      return new Date(t).toISOString().slice(0, 10);
    };
    for (const start of ["2025-12-20", "2026-02-10", "2026-09-26", "2027-01-02"]) {
      for (const days of [1, 4, 5, 10, 11, 12, 23, 60, 250, 700])
        expect(addBusinessDaysToDate(start, days, holidays), `${start} + ${days}`).toBe(slow(start, days));
    }
    // A very long turnaround still lands on a business day (the week jump does not step onto a weekend).
    const far = addBusinessDaysToDate("2026-01-01", 666_666, holidays);
    expect(far).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(isBusinessDay(far, holidays)).toBe(true);
  });
  it("gives no deadline beyond the word limits (agreed with support)", () => {
    expect(price({ wordCount: 1_000_000 })).toMatchObject({ deadline: null, deadlines: { standard: null } });
    expect(price({ wordCount: 999_999 }).deadline).toBeInstanceOf(Date);
  });
});
