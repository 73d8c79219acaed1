// Reads the catalogue tables into one plain object for the pricing engine.
// Pricing then needs no database round trips, and the object is JSON so callers
// may cache it (getCatalogue keeps it in the shared cache for a few minutes).
import { sql, type Selectable } from "kysely";
import type { DB } from "../db";
import type { Cache } from "../cache";
import { scaleDecimal } from "#common/money";
import { BP } from "./money";
import type { Catalogue, DeliveryTier, DeliveryTierCode, PromoCode } from "./types";
import type { PromoCodeTable } from "../../db/types-catalogue";

/** Per-word rates are held in millionths of a USD. */
const MICRO_DIGITS = 6;
/** Multipliers and percentages are held in basis points. */
const BP_DIGITS = 4;

const bp = (value: string | number) => scaleDecimal(value, BP_DIGITS);
/** A percent ("10.00") as basis points of 1 (1,000). */
const percentBp = (value: string | number) => scaleDecimal(value, 2);
const micros = (value: string | number | null) => (value === null ? null : scaleDecimal(value, MICRO_DIGITS));
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
/** jsonb arrives parsed from pg and PGlite; a string only if a driver did not parse it. */
const json = <T>(value: unknown): T => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T));

export async function loadCatalogue(db: DB): Promise<Catalogue> {
  const [
    groups,
    services,
    bins,
    tiers,
    rushRules,
    bundles,
    bundleServices,
    questions,
    choices,
    promos,
    groupsRows,
    discounts,
    currencies,
    rates,
    localizations,
    holidays,
    areas,
  ] = await Promise.all([
    db.selectFrom("service_groups").selectAll().orderBy("sort_order").execute(),
    db.selectFrom("services").selectAll().orderBy("sort_order").orderBy("id").execute(),
    db.selectFrom("word_bins").selectAll().orderBy("min_words").execute(),
    db.selectFrom("delivery_tiers").selectAll().orderBy("sort_order").execute(),
    db
      .selectFrom("rush_rules")
      .select([
        "id",
        "name",
        sql<string | null>`to_char(starts_on, 'YYYY-MM-DD')`.as("starts_on"),
        sql<string | null>`to_char(ends_on, 'YYYY-MM-DD')`.as("ends_on"),
        "grandparent_area_of_study_id",
        "lower_word_count_limit",
        "upper_word_count_limit",
        "loyalty_level_identities",
        "service_identities",
      ])
      .where("active", "=", true)
      .orderBy("id")
      .execute(),
    db.selectFrom("bundles").selectAll().where("active", "=", true).orderBy("sort_order").execute(),
    db.selectFrom("bundle_services").selectAll().orderBy("sort_order").execute(),
    db.selectFrom("bundle_questions").selectAll().orderBy("sort_order").execute(),
    db.selectFrom("bundle_question_choices").selectAll().orderBy("sort_order").execute(),
    // Personal codes (issue 25: earned benefits, a referred colleague's first-order code) are read per user, not cached here.
    db.selectFrom("promo_codes").selectAll().where("active", "=", true).where("user_id", "is", null).execute(),
    db.selectFrom("preferred_groups").selectAll().where("active", "=", true).execute(),
    db.selectFrom("service_discounts").selectAll().where("active", "=", true).orderBy("id").execute(),
    db.selectFrom("currencies").select(["iso_code", "sign", "num_decimals"]).execute(),
    db
      .selectFrom("exchange_rates")
      .select(["iso_code", sql<string>`rate::text`.as("rate"), sql<string>`to_char(effective_on, 'YYYY-MM-DD')`.as("effective_on")])
      .orderBy("effective_on", "desc")
      .execute(),
    db.selectFrom("localizations").select(["identity", "time_zone"]).execute(),
    db
      .selectFrom("holidays")
      .select(["localization", sql<string>`to_char(date, 'YYYY-MM-DD')`.as("date")])
      .orderBy("date")
      .execute(),
    db.selectFrom("areas_of_study").select(["id", "parent_id"]).execute(),
  ]);

  const parents = new Map(areas.map((a) => [a.id, a.parent_id]));
  const areaGrandparents: Record<string, number> = {};
  for (const a of areas) {
    let top = a.id;
    for (let p = parents.get(top); p !== null && p !== undefined; p = parents.get(top)) top = p;
    areaGrandparents[String(a.id)] = top;
  }

  const tierMap = {} as Record<DeliveryTierCode, DeliveryTier>;
  for (const t of tiers)
    tierMap[t.code] = { code: t.code, nameKey: t.name_key, multiplierBp: bp(t.multiplier), turnaroundDays: t.turnaround_days };
  // A catalogue without tier rows still prices: standard only, rush and express never available.
  tierMap.standard ??= { code: "standard", nameKey: "catalogue:tiers.standard", multiplierBp: BP, turnaroundDays: null };

  const calendars: Catalogue["calendars"] = {};
  for (const l of localizations) calendars[l.identity] = { timeZone: l.time_zone, holidays: [] };
  for (const h of holidays) calendars[h.localization]?.holidays.push(h.date);

  return {
    loadedAt: new Date().toISOString(),
    groups: groups.map((g) => ({
      slug: g.slug,
      nameKey: g.name_key,
      serviceType: g.service_type,
      columns: g.columns,
      sortOrder: g.sort_order,
    })),
    services: services.map((s) => ({
      id: s.id,
      identity: s.identity,
      slug: s.slug,
      type: s.type,
      group: s.group_slug,
      nameKey: s.name_key,
      descriptionKey: s.description_key,
      price: {
        kind: s.price_kind,
        cents: s.price_cents,
        perWordMicros: micros(s.per_word_usd),
        minimumCents: s.minimum_cents,
        multiplierBp: bp(s.multiplier),
        baseSlug: s.base_service_slug,
        freeWith: json<string[]>(s.free_with_slugs),
        unit: s.unit,
        minQuantity: s.min_quantity,
        maxQuantity: s.max_quantity,
      },
      turnaround: {
        kind: s.turnaround_kind,
        days: s.turnaround_days,
        upToWords: s.turnaround_up_to_words,
        stepWords: s.turnaround_step_words,
        stepDays: s.turnaround_step_days,
      },
      maxWords: s.max_words,
      sourceLanguageId: s.source_language_id,
      targetLanguageId: s.target_language_id,
      rushEligible: s.rush_eligible,
      expressEligible: s.express_eligible,
      featured: s.featured,
      recommended: s.recommended,
      active: s.active,
      sortOrder: s.sort_order,
    })),
    bins: bins.map((b) => ({
      id: b.id,
      name: b.name,
      minWords: b.min_words,
      maxWords: b.max_words,
      cents: b.price_cents,
      perWordMicros: micros(b.per_word_usd),
    })),
    tiers: tierMap,
    rushRules: rushRules.map((r) => ({
      id: r.id,
      name: r.name,
      startsOn: r.starts_on,
      endsOn: r.ends_on,
      grandparentAreaOfStudyId: r.grandparent_area_of_study_id,
      lowerWordCountLimit: r.lower_word_count_limit,
      upperWordCountLimit: r.upper_word_count_limit,
      loyaltyLevelIdentities: json<string[]>(r.loyalty_level_identities),
      serviceIdentities: json<string[]>(r.service_identities),
    })),
    bundles: bundles.map((b) => ({
      id: b.id,
      slug: b.slug,
      nameKey: b.name_key,
      descriptionKey: b.description_key,
      primaryServiceSlug: b.primary_service_slug,
      addOnSlugs: bundleServices.filter((s) => s.bundle_id === b.id).map((s) => s.service_slug),
      discountBp: percentBp(b.discount_percent),
      deadlines: json<Record<string, number>>(b.deadlines),
      learnMoreTerms: json<{ serviceSlug: string; key: string }[]>(b.learn_more_terms),
      sortOrder: b.sort_order,
    })),
    bundleQuestions: questions.map((q) => ({
      id: q.id,
      slug: q.slug,
      term: q.term,
      type: q.type,
      required: q.required,
      serviceSlug: q.service_slug,
      requiredWith: q.required_with,
      choices: choices
        .filter((c) => c.question_id === q.id)
        .map((c) => ({ id: c.id, choice: c.choice, bundleSlugs: json<string[]>(c.bundle_slugs) })),
    })),
    promoCodes: Object.fromEntries(promos.map((p) => [p.code.toUpperCase(), promoCodeOf(p)])),
    preferredGroups: Object.fromEntries(
      groupsRows.map((g) => [
        g.code.toUpperCase(),
        {
          code: g.code.toUpperCase(),
          name: g.name,
          percentBp: g.percentage_discount ? percentBp(g.discount) : null,
          // A non-percentage group discount is an amount in USD cents.
          amountUsdCents: g.percentage_discount ? null : scaleDecimal(g.discount, 0),
        },
      ]),
    ),
    serviceDiscounts: discounts.map((d) => ({
      code: d.code,
      kind: d.kind,
      descriptionKey: d.description_key,
      serviceSlug: d.service_slug,
      requiresServiceType: d.requires_service_type,
      percentBp: percentBp(d.percent_off),
      startsAt: iso(d.starts_at),
      endsAt: iso(d.ends_at),
    })),
    currencies: Object.fromEntries(
      currencies.map((c) => {
        const code = c.iso_code.trim();
        return [
          code,
          {
            isoCode: code,
            sign: c.sign,
            numDecimals: c.num_decimals,
            rates: rates.filter((r) => r.iso_code.trim() === code).map((r) => ({ effectiveOn: r.effective_on, rate: r.rate })),
          },
        ];
      }),
    ),
    calendars,
    areaGrandparents,
  };
}

const CACHE_KEY = "catalogue:v1";
/** Staff edits show within this time on every process (or at once after invalidateCatalogue). */
export const CATALOGUE_CACHE_SECONDS = 300;

/** Parsed catalogues kept for a few seconds per cache, so one page does not parse the JSON several times. */
const MEMO_MS = 5000;
const memo = new WeakMap<Cache, { at: number; catalogue: Catalogue }>();

/** The catalogue from the shared cache, loading it when missing. */
export async function getCatalogue(ctx: { db: DB; cache: Cache }): Promise<Catalogue> {
  const hit = memo.get(ctx.cache);
  if (hit && Date.now() - hit.at < MEMO_MS) return hit.catalogue;
  let catalogue = await ctx.cache.getJson<Catalogue>(CACHE_KEY);
  if (!catalogue) {
    catalogue = await loadCatalogue(ctx.db);
    await ctx.cache.setJson(CACHE_KEY, catalogue, CATALOGUE_CACHE_SECONDS);
  }
  memo.set(ctx.cache, { at: Date.now(), catalogue });
  return catalogue;
}

/** Call after changing catalogue rows so the next request reloads them. */
export async function invalidateCatalogue(cache: Cache): Promise<void> {
  memo.delete(cache);
  await cache.del(CACHE_KEY);
}

/** A promo_codes row as the pricing engine takes it: the catalogue's public codes and a user's own (issue 25). */
export function promoCodeOf(p: Selectable<PromoCodeTable>): PromoCode {
  return {
    code: p.code.toUpperCase(),
    descriptionKey: p.description_key ?? "catalogue:discounts.promotional-code",
    percentBp: p.percent_off === null ? null : percentBp(p.percent_off),
    amountUsdCents: p.amount_off_cents,
    startsAt: iso(p.starts_at),
    endsAt: iso(p.ends_at),
    maxUses: p.max_uses,
    timesUsed: p.times_used,
  };
}
