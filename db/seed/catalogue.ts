// Catalogue seed (services, prices, bundles, discounts, areas of study, holidays).
// Idempotent: rows that exist (which staff may have changed) are kept, so running
// it on every start only adds what is missing.
import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../types";
import {
  BUNDLE_QUESTIONS,
  BUNDLES,
  DELIVERY_TIERS,
  PREFERRED_GROUPS,
  PROMO_CODES,
  RUSH_RULES,
  SERVICE_DISCOUNTS,
  SERVICE_GROUPS,
  SERVICES,
  WORD_BINS,
  keys,
} from "./catalogue-data";
import { AREAS_OF_STUDY } from "./catalogue-areas";
import { HOLIDAYS } from "./catalogue-holidays";

/** Namespace of the services' v5 UUIDs: the same slug gives the same identity on every install. */
const SERVICE_NAMESPACE = "6f1d3c2a-4b5e-5f60-8a7b-9c0d1e2f3a4b";

/** RFC 4122 version-5 (SHA-1, name-based) UUID. */
export function uuidV5(name: string, namespace: string = SERVICE_NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ""), "hex");
  const hash = createHash("sha1")
    .update(Buffer.concat([ns, Buffer.from(name, "utf8")]))
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The identity a seeded service gets (tests and fixtures may use it). */
export const serviceIdentityForSlug = (slug: string) => uuidV5(`service:${slug}`);

export async function seedCatalogue(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("service_groups")
      .values(
        SERVICE_GROUPS.map((g, i) => ({
          slug: g.slug,
          name_key: keys.group(g.slug),
          service_type: g.serviceType,
          columns: g.columns,
          sort_order: i + 1,
        })),
      )
      .onConflict((oc) => oc.column("slug").doNothing())
      .execute();

    await trx
      .insertInto("services")
      .values(
        SERVICES.map((s, i) => ({
          identity: serviceIdentityForSlug(s.slug),
          slug: s.slug,
          type: s.type,
          group_slug: s.group,
          name_key: keys.service(s.slug),
          description_key: s.description ? keys.description(s.description) : null,
          price_kind: s.price.kind,
          price_cents: s.price.cents ?? null,
          per_word_usd: s.price.perWordUsd ?? null,
          minimum_cents: s.price.minimumCents ?? null,
          multiplier: s.price.multiplier ?? "1",
          base_service_slug: s.price.baseSlug ?? null,
          free_with_slugs: JSON.stringify(s.price.freeWith ?? []),
          unit: s.price.unit ?? null,
          turnaround_kind: s.turnaround.kind,
          turnaround_days: s.turnaround.days ?? null,
          turnaround_up_to_words: s.turnaround.upToWords ?? null,
          turnaround_step_words: s.turnaround.stepWords ?? null,
          turnaround_step_days: s.turnaround.stepDays ?? null,
          max_words: s.maxWords ?? null,
          source_language_id: s.sourceLanguageId ?? null,
          target_language_id: s.targetLanguageId ?? null,
          rush_eligible: s.rush ?? false,
          express_eligible: s.express ?? false,
          featured: s.featured ?? false,
          recommended: s.recommended ?? false,
          sort_order: (i + 1) * 10,
        })),
      )
      .onConflict((oc) => oc.column("slug").doNothing())
      .execute();

    await trx
      .insertInto("word_bins")
      .values(
        WORD_BINS.map((b) => ({
          name: b.name,
          min_words: b.minWords,
          max_words: b.maxWords,
          price_cents: b.cents ?? null,
          per_word_usd: b.perWordUsd ?? null,
        })),
      )
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();

    await trx
      .insertInto("delivery_tiers")
      .values(
        DELIVERY_TIERS.map((t, i) => ({
          code: t.code,
          name_key: keys.tier(t.code),
          multiplier: t.multiplier,
          turnaround_days: t.turnaroundDays,
          sort_order: i + 1,
        })),
      )
      .onConflict((oc) => oc.column("code").doNothing())
      .execute();

    await trx
      .insertInto("rush_rules")
      .values(
        RUSH_RULES.map((r) => ({
          name: r.name,
          starts_on: r.startsOn,
          ends_on: r.endsOn,
          grandparent_area_of_study_id: r.grandparentAreaOfStudyId,
          lower_word_count_limit: r.lower,
          upper_word_count_limit: r.upper,
          loyalty_level_identities: JSON.stringify(r.loyaltyLevels),
          service_identities: JSON.stringify(r.serviceSlugs.map(serviceIdentityForSlug)),
        })),
      )
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();

    await trx
      .insertInto("bundles")
      .values(
        BUNDLES.map((b, i) => ({
          slug: b.slug,
          name_key: keys.bundle(b.slug),
          description_key: keys.bundleDescription(b.slug),
          primary_service_slug: b.primary,
          discount_percent: b.discountPercent,
          deadlines: JSON.stringify(b.deadlines),
          learn_more_terms: JSON.stringify(b.learnMoreTerms),
          sort_order: i + 1,
        })),
      )
      .onConflict((oc) => oc.column("slug").doNothing())
      .execute();
    const bundleIds = new Map((await trx.selectFrom("bundles").select(["id", "slug"]).execute()).map((b) => [b.slug, b.id]));
    await trx
      .insertInto("bundle_services")
      .values(
        BUNDLES.flatMap((b) => b.addOns.map((slug, i) => ({ bundle_id: bundleIds.get(b.slug)!, service_slug: slug, sort_order: i + 1 }))),
      )
      .onConflict((oc) => oc.columns(["bundle_id", "service_slug"]).doNothing())
      .execute();

    await trx
      .insertInto("bundle_questions")
      .values(
        BUNDLE_QUESTIONS.map((q, i) => ({
          slug: q.slug,
          term: keys.question(q.slug),
          type: q.type,
          required: q.required,
          service_slug: q.serviceSlug ?? null,
          required_with: q.requiredWith ?? null,
          sort_order: i + 1,
        })),
      )
      .onConflict((oc) => oc.column("slug").doNothing())
      .execute();
    const questionIds = new Map((await trx.selectFrom("bundle_questions").select(["id", "slug"]).execute()).map((q) => [q.slug, q.id]));
    const choices = BUNDLE_QUESTIONS.flatMap((q) =>
      (q.choices ?? []).map((c, i) => ({
        question_id: questionIds.get(q.slug)!,
        choice: c.choice,
        bundle_slugs: JSON.stringify(c.bundles),
        sort_order: i + 1,
      })),
    );
    if (choices.length) {
      await trx
        .insertInto("bundle_question_choices")
        .values(choices)
        .onConflict((oc) => oc.columns(["question_id", "choice"]).doNothing())
        .execute();
    }

    await trx
      .insertInto("promo_codes")
      .values(
        PROMO_CODES.map((p) => ({
          code: p.code,
          description_key: keys.promo(),
          percent_off: p.percentOff ?? null,
          amount_off_cents: p.amountOffCents ?? null,
          starts_at: p.startsAt ?? null,
          ends_at: p.endsAt ?? null,
          max_uses: p.maxUses ?? null,
        })),
      )
      .onConflict((oc) => oc.column("code").doNothing())
      .execute();

    await trx
      .insertInto("preferred_groups")
      .values(
        PREFERRED_GROUPS.map((g) => ({
          code: g.code,
          name: g.name,
          discount: g.discount,
          percentage_discount: g.percentageDiscount,
          membership_displayed: "membershipDisplayed" in g ? g.membershipDisplayed : true,
        })),
      )
      .onConflict((oc) => oc.column("code").doNothing())
      .execute();

    await trx
      .insertInto("service_discounts")
      .values(
        SERVICE_DISCOUNTS.map((d) => ({
          code: d.code,
          kind: d.kind,
          description_key: d.descriptionKey,
          service_slug: d.serviceSlug,
          requires_service_type: d.requiresServiceType,
          percent_off: d.percentOff,
        })),
      )
      .onConflict((oc) => oc.column("code").doNothing())
      .execute();

    await trx
      .insertInto("areas_of_study")
      .values(
        AREAS_OF_STUDY.map((a, i) => ({
          id: a.id,
          parent_id: a.parentId,
          level: a.level,
          name_en: a.en,
          name_zh: a.zh,
          name_ja: a.ja,
          name_pt: a.pt,
          name_es: a.es,
          sort_order: i + 1,
        })),
      )
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();

    await trx
      .insertInto("holidays")
      .values(HOLIDAYS.map((h) => ({ localization: h.localization, date: h.date, name: h.name })))
      .onConflict((oc) => oc.columns(["localization", "date"]).doNothing())
      .execute();
  });
}
