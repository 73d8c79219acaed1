// The catalogue as data: migration, seed, loader and cache, areas of study,
// holidays, bundle questions, and the translations the catalogue refers to.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { createTestContext, type TestContext } from "../helpers/context";
import {
  loadCatalogue,
  getCatalogue,
  invalidateCatalogue,
  searchAreasOfStudy,
  areaTree,
  getAreaOfStudy,
  validateBundleAnswers,
  availableBundles,
  bundleSelections,
  learnMoreTerms,
  noticeKey,
  errorKey,
  type Catalogue,
} from "../../server/catalogue";
import { seedCatalogue, serviceIdentityForSlug, uuidV5 } from "../../db/seed/catalogue";
import { SERVICES } from "../../db/seed/catalogue-data";

let t: TestContext;
let catalogue: Catalogue;

beforeAll(async () => {
  t = await createTestContext();
  catalogue = await loadCatalogue(t.ctx.db);
});
afterAll(async () => t.close());

const LOCALES = ["en_US", "zh_CN", "ja_JP", "pt_BR", "es_ES"] as const;
type Tree = Record<string, unknown>;
const readLocale = (locale: string) => JSON.parse(fs.readFileSync(path.resolve("locales", locale, "catalogue.json"), "utf8")) as Tree;
function flatten(tree: Tree, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tree)) {
    if (v && typeof v === "object") Object.assign(out, flatten(v as Tree, `${prefix}${k}.`));
    else out[`${prefix}${k}`] = v as string;
  }
  return out;
}
const english = flatten(readLocale("en_US"));
/** "catalogue:a.b" exists as a string, or (for modal keys) as an object with title and body. */
const hasKey = (key: string) => {
  const k = key.replace(/^catalogue:/, "");
  return english[k] !== undefined || (english[`${k}.title`] !== undefined && english[`${k}.body`] !== undefined);
};

describe("seeded catalogue", () => {
  it("has every service of catalogue.md with a stable identity", () => {
    expect(catalogue.services).toHaveLength(31);
    const slugs = catalogue.services.map((s) => s.slug);
    for (const slug of [
      "standard-editing",
      "premium-advanced-editing",
      "scientific-editing",
      "premium-translation-ja-en",
      "reverse-translation-en-zh",
      "touch-up-formatting",
      "book-editing",
      "cover-letter",
    ]) {
      expect(slugs).toContain(slug);
    }
    for (const s of catalogue.services) {
      expect(s.identity).toBe(serviceIdentityForSlug(s.slug));
      expect(s.identity).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(new Set(catalogue.services.map((s) => s.identity)).size).toBe(31);
    // RFC 4122 appendix test vector (DNS namespace, "www.example.com").
    expect(uuidV5("www.example.com", "6ba7b810-9dad-11d1-80b4-00c04fd430c8")).toBe("2ed6657d-e927-568b-95e1-2665a8aea6a2");
  });

  it("loads prices as exact integers from the numeric columns", () => {
    const s = (slug: string) => catalogue.services.find((x) => x.slug === slug)!;
    expect(s("advanced-editing").price).toMatchObject({ kind: "word_bins", multiplierBp: 12500 });
    expect(s("standard-translation-zh-en").price).toMatchObject({ kind: "per_word", perWordMicros: 120000, minimumCents: 15000 });
    expect(s("book-editing").price.perWordMicros).toBe(35000);
    expect(s("figure-formatting").price).toMatchObject({ kind: "per_unit", cents: 2500, unit: "figure", minQuantity: 1, maxQuantity: 25 });
    expect(s("standard-editing")).toMatchObject({ rushEligible: true, expressEligible: true, featured: true });
    expect(s("premium-editing")).toMatchObject({ expressEligible: true, recommended: true });
    expect(s("scientific-editing").maxWords).toBe(12000);
    expect(catalogue.tiers.rush).toMatchObject({ multiplierBp: 13500, turnaroundDays: 4 });
    expect(catalogue.tiers.express).toMatchObject({ multiplierBp: 16000, turnaroundDays: 2 });
    expect(catalogue.bins.map((b) => b.name)).toEqual(["1-1500", "1501-3000", "3001-6000", "6001-9000", "9001-12000", "12001+"]);
    expect(catalogue.promoCodes.WELCOME10).toMatchObject({ percentBp: 1000, amountUsdCents: null });
    expect(catalogue.promoCodes.SAVE50).toMatchObject({ percentBp: null, amountUsdCents: 5000 });
    expect(catalogue.preferredGroups["UNI-DEMO"]).toMatchObject({ percentBp: 1000, amountUsdCents: null });
    expect(catalogue.bundles.map((b) => [b.slug, b.primaryServiceSlug, b.addOnSlugs, b.discountBp])).toEqual([
      ["publication-ready", "premium-editing", ["manuscript-formatting", "journal-recommendation"], 1000],
      ["figure-ready", "standard-editing", ["figure-formatting", "table-formatting"], 800],
      ["integrity-ready", "standard-editing", ["plagiarism-check", "cover-letter"], 500],
    ]);
    expect(catalogue.rushRules.map((r) => r.name)).toEqual(["Editing rush", "Translation rush"]);
    expect(catalogue.rushRules[0].serviceIdentities).toContain(serviceIdentityForSlug("premium-editing"));
  });

  it("keeps prices out of the engine's code", () => {
    const dir = path.resolve("server/catalogue");
    const source = fs
      .readdirSync(dir)
      .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
      .join("\n");
    for (const literal of ["9500", "15000", "26000", "37000", "48000", "0.14", "0.12", "0.035", "1.35", "1.25", "WELCOME10", "UNI-DEMO"]) {
      expect(source, literal).not.toContain(literal);
    }
  });

  it("is JSON, so it can be cached, and getCatalogue caches it until invalidated", async () => {
    expect(JSON.parse(JSON.stringify(catalogue))).toEqual(catalogue);
    const first = await getCatalogue(t.ctx);
    await t.ctx.db.updateTable("services").set({ price_cents: 9900 }).where("slug", "=", "manuscript-formatting").execute();
    const cached = await getCatalogue(t.ctx);
    expect(cached.loadedAt).toBe(first.loadedAt);
    expect(cached.services.find((s) => s.slug === "manuscript-formatting")!.price.cents).toBe(9500);
    await invalidateCatalogue(t.ctx.cache);
    expect((await getCatalogue(t.ctx)).services.find((s) => s.slug === "manuscript-formatting")!.price.cents).toBe(9900);
    await t.ctx.db.updateTable("services").set({ price_cents: 9500 }).where("slug", "=", "manuscript-formatting").execute();
    await invalidateCatalogue(t.ctx.cache);
  });

  it("seeds idempotently and keeps what staff changed", async () => {
    const count = async () => {
      const tables = [
        "services",
        "word_bins",
        "rush_rules",
        "bundles",
        "bundle_services",
        "bundle_questions",
        "bundle_question_choices",
        "promo_codes",
        "preferred_groups",
        "service_discounts",
        "areas_of_study",
        "holidays",
      ] as const;
      const out: Record<string, number> = {};
      for (const table of tables)
        out[table] = (
          await t.ctx.db
            .selectFrom(table)
            .select(sql<number>`count(*)::int`.as("n"))
            .executeTakeFirstOrThrow()
        ).n;
      return out;
    };
    const before = await count();
    await t.ctx.db.updateTable("promo_codes").set({ percent_off: "12" }).where("code", "=", "WELCOME10").execute();
    await seedCatalogue(t.ctx.db);
    expect(await count()).toEqual(before);
    const row = await t.ctx.db
      .selectFrom("promo_codes")
      .select(sql<string>`percent_off::text`.as("p"))
      .where("code", "=", "WELCOME10")
      .executeTakeFirstOrThrow();
    expect(Number(row.p)).toBe(12);
    await t.ctx.db.updateTable("promo_codes").set({ percent_off: "10" }).where("code", "=", "WELCOME10").execute();
  });

  it("refuses inconsistent rows", async () => {
    await expect(
      t.ctx.db.insertInto("promo_codes").values({ code: "BOTH", percent_off: "5", amount_off_cents: 500 }).execute(),
    ).rejects.toThrow();
    await expect(t.ctx.db.insertInto("promo_codes").values({ code: "lower", percent_off: "5" }).execute()).rejects.toThrow();
    await expect(
      t.ctx.db.insertInto("word_bins").values({ name: "bad", min_words: 10, max_words: 5, price_cents: 1 }).execute(),
    ).rejects.toThrow();
  });
});

describe("areas of study", () => {
  it("has a three-level taxonomy with at least 60 specialties named in five languages", async () => {
    const rows = await t.ctx.db.selectFrom("areas_of_study").selectAll().execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const leaves = rows.filter((r) => r.level === 3);
    expect(leaves.length).toBeGreaterThanOrEqual(60);
    for (const leaf of leaves) {
      const parent = byId.get(leaf.parent_id!)!;
      expect(parent.level).toBe(2);
      expect(byId.get(parent.parent_id!)!.level).toBe(1);
    }
    for (const r of rows) for (const name of [r.name_en, r.name_zh, r.name_ja, r.name_pt, r.name_es]) expect(name.trim()).not.toBe("");
    const fields = rows.filter((r) => r.level === 1).map((r) => r.name_en);
    expect(fields).toEqual(
      expect.arrayContaining([
        "Life Sciences",
        "Medicine and Health",
        "Physical Sciences",
        "Engineering and Technology",
        "Social Sciences",
        "Humanities",
      ]),
    );
    expect(byId.get(494)).toMatchObject({ name_en: "Undetermined", parent_id: 493, level: 3 });
    expect(catalogue.areaGrandparents["120"]).toBe(2);
    expect(catalogue.areaGrandparents["494"]).toBe(492);
  });

  it("searches the names of all three levels in the page's language (min 2 characters, max 6 results)", async () => {
    expect(await searchAreasOfStudy(t.ctx.db, "b", "en")).toEqual([]);
    expect(await searchAreasOfStudy(t.ctx.db, "  c ", "en")).toEqual([]);
    const cardio = await searchAreasOfStudy(t.ctx.db, "CARDIO", "en");
    expect(cardio).toEqual([
      {
        id: 120,
        name: "Cardiology",
        parentId: 20,
        parentName: "Clinical Medicine",
        grandparentId: 2,
        grandparentName: "Medicine and Health",
        searchParam: "Medicine and Health › Clinical Medicine › Cardiology",
      },
    ]);
    // By discipline (level 2) and by field (level 1).
    expect((await searchAreasOfStudy(t.ctx.db, "Surgery", "en")).map((a) => a.name)).toEqual([
      "General Surgery",
      "Oral Surgery",
      "Orthopedics",
      "Ophthalmology",
    ]);
    const humanities = await searchAreasOfStudy(t.ctx.db, "Humanities", "en");
    expect(humanities).toHaveLength(6);
    expect(humanities.every((a) => a.grandparentId === 7)).toBe(true);
    expect((await searchAreasOfStudy(t.ctx.db, "bio", "en")).length).toBe(6);
    // A wildcard typed by the user matches literally.
    expect(await searchAreasOfStudy(t.ctx.db, "%%", "en")).toEqual([]);
  });

  it("finds areas by their English name on every site, named in the page's language", async () => {
    const cardio = await searchAreasOfStudy(t.ctx.db, "Cardio", "cn");
    expect(cardio.map((a) => a.id)).toEqual([120]);
    expect(cardio[0].name).not.toBe("Cardiology");
    expect(await searchAreasOfStudy(t.ctx.db, "bio", "cn")).toHaveLength(6);
    expect((await searchAreasOfStudy(t.ctx.db, "Surgery", "br")).map((a) => a.name)).toEqual(
      expect.arrayContaining(["Cirurgia Geral", "Cirurgia Oral"]),
    );
  });

  it("searches in Chinese, Japanese, Portuguese and Spanish", async () => {
    expect((await searchAreasOfStudy(t.ctx.db, "心脏", "cn")).map((a) => a.id)).toEqual([120]);
    expect((await searchAreasOfStudy(t.ctx.db, "未定", "jp")).map((a) => a.id)).toEqual([494]);
    expect((await searchAreasOfStudy(t.ctx.db, "cirurgia", "br")).map((a) => a.name)).toEqual(
      expect.arrayContaining(["Cirurgia Geral", "Cirurgia Oral"]),
    );
    expect((await searchAreasOfStudy(t.ctx.db, "Ingeniería Civil", "es"))[0]).toMatchObject({
      grandparentName: "Ingeniería y Tecnología",
      parentName: "Ingeniería Civil",
    });
    // The English name matches on the Chinese page too (issue 9 §3.14), shown in Chinese.
    expect((await searchAreasOfStudy(t.ctx.db, "Cardiology", "cn")).map((a) => [a.id, a.name])).toEqual([[120, "心脏病学"]]);
  });

  it("gives the tree for the cascading selects and one area with its ancestors", async () => {
    const tree = await areaTree(t.ctx.db, "jp");
    expect(tree.map((f) => f.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 492]);
    expect(tree[0]).toMatchObject({ name: "生命科学" });
    expect(tree[0].children[0]).toMatchObject({ id: 10, name: "生物学" });
    expect(tree[0].children[0].children[0]).toEqual({ id: 100, name: "細胞生物学", children: [] });
    expect(tree.at(-1)!.children[0].children[0]).toMatchObject({ id: 494, name: "未定" });
    expect(await getAreaOfStudy(t.ctx.db, 494, "br")).toMatchObject({ name: "Indeterminado", parentId: 493, grandparentId: 492 });
    expect(await getAreaOfStudy(t.ctx.db, 20, "en")).toBeUndefined();
  });
});

describe("holidays", () => {
  it("has US, China and Brazil public holidays for 2026 and 2027", async () => {
    const rows = await t.ctx.db
      .selectFrom("holidays")
      .select(["localization", sql<string>`to_char(date, 'YYYY')`.as("year"), sql<number>`count(*)::int`.as("n")])
      .groupBy(["localization", sql`to_char(date, 'YYYY')`])
      .execute();
    const n = (l: string, y: string) => rows.find((r) => r.localization === l && r.year === y)?.n ?? 0;
    for (const l of ["US", "CN", "BR"]) for (const y of ["2026", "2027"]) expect(n(l, y), `${l} ${y}`).toBeGreaterThanOrEqual(7);
    expect(catalogue.calendars.US.holidays).toEqual(expect.arrayContaining(["2026-07-03", "2026-11-26", "2027-12-24"]));
    expect(catalogue.calendars.CN.holidays).toEqual(expect.arrayContaining(["2026-02-17", "2026-10-01", "2027-02-08"]));
    expect(catalogue.calendars.BR.holidays).toEqual(expect.arrayContaining(["2026-02-17", "2026-11-20", "2027-03-26"]));
    expect(catalogue.calendars.CN.timeZone).toBe("Asia/Shanghai");
  });
});

describe("bundle questions (spec 1 §5)", () => {
  it("needs at least one goal, a count for a toggle that is on (1 to 25), and the journal with tables", () => {
    expect(validateBundleAnswers(catalogue, {})).toEqual({ goals: "selectOneCheckbox" });
    expect(validateBundleAnswers(catalogue, { goals: { choices: ["not-a-choice"] } })).toEqual({ goals: "selectOneCheckbox" });
    expect(validateBundleAnswers(catalogue, { goals: { choices: ["polish-figures"] } })).toEqual({});
    expect(
      validateBundleAnswers(catalogue, {
        goals: { choices: ["polish-figures"] },
        tables: { on: true },
        figures: { on: true, count: null },
      }),
    ).toEqual({
      tables: "tables-on-with-no-table-count",
      figures: "figures-on-with-no-figure-count",
      journal: "journalForTableFormatting",
    });
    expect(
      validateBundleAnswers(catalogue, {
        goals: { choices: ["polish-figures"] },
        tables: { on: true, count: 26 },
        figures: { on: true, count: 0 },
        journal: { journal: "Nature" },
      }),
    ).toEqual({
      tables: "quantity-range-error",
      figures: "quantity-range-error",
    });
    expect(
      validateBundleAnswers(catalogue, {
        goals: { choices: ["polish-figures"] },
        tables: { on: true, count: 25 },
        figures: { on: true, count: 1 },
        journal: { journal: "Nature" },
      }),
    ).toEqual({});
    expect(validateBundleAnswers(catalogue, { goals: { choices: ["improve-language"] }, tables: { on: false } })).toEqual({});
  });

  it("offers the bundles the goals lead to, none for no goal", () => {
    expect(availableBundles(catalogue, {}).map((b) => b.slug)).toEqual([]);
    expect(availableBundles(catalogue, { goals: { choices: ["polish-figures"] } }).map((b) => b.slug)).toEqual(["figure-ready"]);
    expect(availableBundles(catalogue, { goals: { choices: ["choose-journal", "polish-figures"] } }).map((b) => b.slug)).toEqual([
      "publication-ready",
      "figure-ready",
    ]);
    expect(availableBundles(catalogue, { goals: { choices: ["improve-language"] } })).toHaveLength(3);
  });

  it("turns answers into the bundle's selections and shows the matching learn-more terms", () => {
    const figureReady = catalogue.bundles.find((b) => b.slug === "figure-ready")!;
    expect(bundleSelections(catalogue, figureReady, { figures: { on: true, count: 4 }, tables: { on: false, count: 3 } })).toEqual([
      { serviceSlug: "standard-editing" },
      { serviceSlug: "figure-formatting", quantity: 4 },
    ]);
    const publication = catalogue.bundles.find((b) => b.slug === "publication-ready")!;
    expect(bundleSelections(catalogue, publication, {})).toEqual([
      { serviceSlug: "premium-editing" },
      { serviceSlug: "manuscript-formatting" },
      { serviceSlug: "journal-recommendation" },
    ]);
    expect(learnMoreTerms(figureReady, ["standard-editing", "figure-formatting"])).toEqual([
      "catalogue:bundles.terms.figure-formatting",
      "catalogue:bundles.terms.plagiarism-check",
    ]);
  });
});

describe("translations (locales/*/catalogue.json)", () => {
  it("has the same keys in all five languages, none empty, with the same placeholders, really translated", () => {
    const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
    for (const locale of LOCALES) {
      const flat = flatten(readLocale(locale));
      expect(Object.keys(flat).sort(), locale).toEqual(Object.keys(english).sort());
      for (const [key, value] of Object.entries(flat)) {
        expect(typeof value === "string" && value.trim().length > 0, `${locale}:${key}`).toBe(true);
        expect(placeholders(value), `${locale}:${key}`).toEqual(placeholders(english[key]));
      }
      if (locale !== "en_US") {
        const same = Object.entries(flat).filter(([k, v]) => v === english[k]);
        expect(same.length / Object.keys(flat).length, `${locale}: ${same.map(([k]) => k).join(", ")}`).toBeLessThan(0.02);
      }
    }
  });

  it("has every key the catalogue rows and the engine refer to", () => {
    const keys = [
      ...catalogue.services.flatMap((s) => [s.nameKey, ...(s.descriptionKey ? [s.descriptionKey] : [])]),
      ...catalogue.groups.map((g) => g.nameKey),
      ...Object.values(catalogue.tiers).map((x) => x.nameKey),
      ...catalogue.bundles.flatMap((b) => [b.nameKey, b.descriptionKey!, ...b.learnMoreTerms.map((x) => x.key)]),
      ...catalogue.bundleQuestions.flatMap((q) => [q.term, ...q.choices.map((c) => q.term.replace(/\.term$/, `.choices.${c.choice}`))]),
      ...Object.values(catalogue.promoCodes).map((p) => p.descriptionKey),
      ...catalogue.serviceDiscounts.map((d) => d.descriptionKey),
      "catalogue:discounts.service-bundle",
      "catalogue:discounts.preferred-group",
    ];
    const notices = [
      "translation-notice",
      "custom-translation-deadline-notice",
      "multimedia-notice",
      "custom-editing-deadline-notice",
      "scientific-editing-aos-notice",
      "word-count-differs-no-service-option",
      "very-long-word-count-notice",
      "quote-only-notice",
      "best-discount-applied",
    ];
    const errors = [
      "word-count-range-error",
      "quantity-range-error",
      "unknown-service",
      "unknown-bundle",
      "unknown-currency",
      "unknown-localization",
      "duplicate-service",
      "service-not-in-bundle",
      "promo-code-empty",
      "promo-code-invalid",
      "promo-code-expired",
      "promo-code-used-up",
      "one-promo-code-per-order",
      "selectOneCheckbox",
      "tables-on-with-no-table-count",
      "figures-on-with-no-figure-count",
      "journalForTableFormatting",
    ];
    const missing = [...keys, ...notices.map(noticeKey), ...errors.map(errorKey)].filter((k) => !hasKey(k));
    expect(missing).toEqual([]);
    // Every code the engine can return has a translation (found by reading its source).
    const dir = path.resolve("server/catalogue");
    const source = fs
      .readdirSync(dir)
      .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
      .join("\n");
    const used = new Set([...source.matchAll(/(?:notices\.push|error:|PricingInputError\()\s*\(?"([a-zA-Z-]+)"/g)].map((m) => m[1]));
    for (const code of used) expect(hasKey(noticeKey(code)) || hasKey(errorKey(code)), code).toBe(true);
    expect(used.size).toBeGreaterThan(10);
    // The description modals of spec 1 §2 (about twenty-one).
    expect(Object.keys(readLocale("en_US").descriptions as Tree).length).toBeGreaterThanOrEqual(21);
    expect(SERVICES.length).toBe(catalogue.services.length);
  });
});
