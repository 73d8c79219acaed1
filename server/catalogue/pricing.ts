// The pricing engine: a pure function from a loaded catalogue and a selection to
// line items, discounts, totals, deadlines and notices. No database, no clock
// (the caller passes `now`), so the order form, the price quote and the API all
// get the same answer for the same input.
//
// Order of work:
//   1. resolve the selections (a bundle adds its primary service; counts are checked);
//   2. standard price of each line in USD cents (word bins, per word, fixed, per unit, share of a base service);
//   3. delivery tiers: which lines rush or express changes, their turnaround, the deadlines and which tiers are offered;
//   4. price the chosen tier (and the others, for the price differences): line prices in the
//      currency, line discounts (service, re-edit), then the single best order discount
//      (bundle, preferred group or promotional code);
//   5. notices.
import { businessDeadline, type BusinessCalendar } from "./calendar";
import { convertMinor, USD, type CurrencyRate } from "#common/money";
import { allocate, applyBp, perWordCents } from "./money";
import {
  CHINESE_LANGUAGE_ID,
  CUSTOM_EDITING_DEADLINE_WORDS,
  CUSTOM_TRANSLATION_DEADLINE_WORDS,
  ENGLISH_LANGUAGE_ID,
  EXPRESS_MAX_WORDS,
  EXPRESS_MIN_WORDS,
  MULTIMEDIA_GROUP,
  MULTIMEDIA_NOTICE_WORDS,
  PricingInputError,
  SCIENTIFIC_EDITING_SLUG,
  TRANSLATION_NOTICE_WORDS,
  binPriceCents,
  checkPromoCode,
  findService,
  getBinForWordCount,
  inForce,
  matchingRushRules,
  serviceTurnaroundDays,
  extensionDays,
  validateQuantity,
  validateWordCount,
} from "./rules";
import type {
  Bundle,
  Catalogue,
  CatalogueService,
  DeliveryTierCode,
  PriceInput,
  PriceResult,
  PricedDiscount,
  PricedLine,
  PromoCode,
} from "./types";
import { WORD_COUNT_MAX } from "#common/order-form/constants";

interface Line {
  service: CatalogueService;
  quantity: number;
  originalServiceSlug?: string;
  /** Standard-tier price in USD cents. */
  standardUsd: number;
  /** A rush rule applies to this line. */
  rushMatched: boolean;
}

interface Priced {
  lines: PricedLine[];
  discounts: PricedDiscount[];
  subtotal: number;
  total: number;
  bestDiscountApplied: boolean;
  promoCodeError?: string;
}

const isEditingOrTranslation = (s: CatalogueService) => s.type === "editing" || s.type === "translation";

/** The exchange rate in force on `now` (the newest not after it; the oldest if all are later). */
export function rateOn(catalogue: Catalogue, currencyIso: string, now: Date): string {
  const currency = catalogue.currencies[currencyIso];
  if (!currency || currency.rates.length === 0) throw new PricingInputError("unknown-currency", currencyIso);
  const day = now.toISOString().slice(0, 10);
  return (currency.rates.find((r) => r.effectiveOn <= day) ?? currency.rates[currency.rates.length - 1]).rate;
}

/** The currency's decimals and rate in force on `now`, or undefined for a currency the catalogue lacks. */
export function currencyRate(catalogue: Catalogue, iso: string, now: Date): CurrencyRate | undefined {
  const c = catalogue.currencies[iso];
  if (!c) return undefined;
  try {
    return { isoCode: iso, numDecimals: c.numDecimals, rate: rateOn(catalogue, iso, now) };
  } catch {
    return undefined;
  }
}

/** Converts USD cents into minor units of `currencyIso` at the rate in force on `now`. */
export function toCurrency(catalogue: Catalogue, usdCents: number, currencyIso: string, now: Date): number {
  return convertMinor(usdCents, USD, {
    isoCode: currencyIso,
    numDecimals: catalogue.currencies[currencyIso].numDecimals,
    rate: rateOn(catalogue, currencyIso, now),
  });
}

type StandardPrice = { ok: true; cents: number } | { ok: false; reason: "no-base" };

/**
 * Standard-tier price of one service in USD cents. `orderSlugs` are the services
 * of the whole order (automated re-editing is free with a premium order).
 */
export function standardPriceUsd(
  catalogue: Catalogue,
  service: CatalogueService,
  options: { wordCount: number; quantity?: number; originalServiceSlug?: string; orderSlugs?: string[] },
  depth = 0,
): StandardPrice {
  const p = service.price;
  const { wordCount } = options;
  switch (p.kind) {
    case "word_bins": {
      const bin = getBinForWordCount(catalogue, wordCount);
      if (!bin) return { ok: false, reason: "no-base" };
      return { ok: true, cents: applyBp(binPriceCents(bin, wordCount), p.multiplierBp) };
    }
    case "per_word": {
      const raw = perWordCents(wordCount, p.perWordMicros ?? 0);
      return { ok: true, cents: applyBp(Math.max(raw, p.minimumCents ?? 0), p.multiplierBp) };
    }
    case "fixed": {
      // Free with a service in the same order, or (a re-edit) after an order that had it.
      if (p.freeWith.some((slug) => options.orderSlugs?.includes(slug) || options.originalServiceSlug === slug))
        return { ok: true, cents: 0 };
      return { ok: true, cents: applyBp(p.cents ?? 0, p.multiplierBp) };
    }
    case "per_unit":
      return { ok: true, cents: applyBp((p.cents ?? 0) * (options.quantity ?? 1), p.multiplierBp) };
    case "of_base": {
      // A touch-up is a share of the service it touches up; premium translation a multiple of the standard one.
      const baseSlug = options.originalServiceSlug ?? p.baseSlug;
      const base = baseSlug ? catalogue.services.find((s) => s.slug === baseSlug) : undefined;
      if (!base || base.id === service.id || depth > 3) return { ok: false, reason: "no-base" };
      const basePrice = standardPriceUsd(
        catalogue,
        base,
        { wordCount, quantity: options.quantity, orderSlugs: options.orderSlugs },
        depth + 1,
      );
      return basePrice.ok ? { ok: true, cents: applyBp(basePrice.cents, p.multiplierBp) } : basePrice;
    }
  }
}

/** Whether `tier` changes this line's price and turnaround. */
function tierApplies(line: Line, tier: DeliveryTierCode): boolean {
  if (tier === "rush") return line.service.rushEligible && line.rushMatched;
  if (tier === "express") return line.service.expressEligible;
  return false;
}

/** Business days of one line in a tier: the tier's base days plus the service's word extension, never slower than standard. */
function lineDays(catalogue: Catalogue, line: Line, tier: DeliveryTierCode, wordCount: number): number | null {
  const standard = serviceTurnaroundDays(line.service, wordCount);
  const tierDays = catalogue.tiers[tier]?.turnaroundDays ?? null;
  if (standard === null || !tierApplies(line, tier) || tierDays === null) return standard;
  return Math.min(standard, tierDays + extensionDays(line.service, wordCount));
}

/**
 * Spec 1 §9: a bundle's timeline is the longest of its figure and table services
 * (they run side by side) plus the sum of the others, then looked up in the
 * bundle's deadlines ({timeline days: promised days}): the smallest key not below
 * the timeline gives the promise; beyond the last key the last key's saving is
 * kept. A bundle is never slower than its timeline, so the lookup stays monotone
 * and a rush timeline always stays ahead of the standard one.
 */
export function bundleTurnaround(bundle: Pick<Bundle, "deadlines">, timelines: { days: number; figuresOrTables: boolean }[]): number {
  const parallel = Math.max(0, ...timelines.filter((t) => t.figuresOrTables).map((t) => t.days));
  const serial = timelines.filter((t) => !t.figuresOrTables).reduce((sum, t) => sum + t.days, 0);
  const timeline = parallel + serial;
  const keys = Object.keys(bundle.deadlines)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0)
    .sort((a, b) => a - b);
  if (keys.length === 0) return timeline;
  const key = keys.find((k) => k >= timeline);
  const last = keys[keys.length - 1];
  const promised = key !== undefined ? bundle.deadlines[String(key)] : bundle.deadlines[String(last)] + (timeline - last);
  return Math.min(timeline, promised);
}

function orderDays(catalogue: Catalogue, lines: Line[], tier: DeliveryTierCode, wordCount: number, bundle: Bundle | null): number | null {
  if (lines.length === 0) return null;
  const days = lines.map((l) => lineDays(catalogue, l, tier, wordCount));
  if (days.some((d) => d === null)) return null;
  if (bundle)
    return bundleTurnaround(
      bundle,
      lines.map((l, i) => ({ days: days[i]!, figuresOrTables: l.service.price.unit !== null })),
    );
  // Services run side by side: the order is ready when the slowest is (spec 2 §4, edit mode).
  return Math.max(...(days as number[]));
}

function percentOf(bp: number): number {
  return bp / 100;
}

function resolveLines(catalogue: Catalogue, input: PriceInput, bundle: Bundle | null) {
  const selections = [...input.selections];
  if (bundle) {
    const allowed = new Set([bundle.primaryServiceSlug, ...bundle.addOnSlugs]);
    for (const sel of selections) {
      const service = findService(catalogue, sel);
      if (!service) throw new PricingInputError("unknown-service", JSON.stringify(sel));
      if (!allowed.has(service.slug)) throw new PricingInputError("service-not-in-bundle", service.slug);
    }
    // The primary service is what the bundle is built around: it is always in.
    if (!selections.some((sel) => findService(catalogue, sel)?.slug === bundle.primaryServiceSlug)) {
      selections.unshift({ serviceSlug: bundle.primaryServiceSlug });
    }
  }
  const seen = new Set<number>();
  const resolved: { service: CatalogueService; quantity: number; originalServiceSlug?: string }[] = [];
  for (const sel of selections) {
    const service = findService(catalogue, sel);
    if (!service) throw new PricingInputError("unknown-service", JSON.stringify(sel));
    if (seen.has(service.id)) throw new PricingInputError("duplicate-service", service.slug);
    seen.add(service.id);
    let quantity = 1;
    if (service.price.unit !== null) {
      quantity = sel.quantity ?? (service.price.unit === "figure" ? sel.figureCount : sel.tableCount) ?? service.price.minQuantity;
      const error = validateQuantity(quantity, service);
      if (error) throw new PricingInputError(error, `${service.slug}: ${quantity}`);
    }
    resolved.push({ service, quantity, originalServiceSlug: sel.originalServiceSlug });
  }
  return resolved;
}

/** Steps 1–2 shared by priceSelection and priceTotal: the lines that can be priced, and those that cannot. */
function prepare(catalogue: Catalogue, input: PriceInput) {
  const wordError = validateWordCount(input.wordCount);
  if (wordError) throw new PricingInputError(wordError, String(input.wordCount));
  const currency = catalogue.currencies[input.currencyIso];
  const rate = rateOn(catalogue, input.currencyIso, input.now);
  const calendarRow = catalogue.calendars[input.localization];
  if (!calendarRow) throw new PricingInputError("unknown-localization", input.localization);
  const calendar: BusinessCalendar = calendarRow;
  const { wordCount, now } = input;

  let bundle: Bundle | null = null;
  if (input.bundleId !== undefined && input.bundleId !== null) {
    bundle = catalogue.bundles.find((b) => b.id === input.bundleId) ?? null;
    if (!bundle) throw new PricingInputError("unknown-bundle", String(input.bundleId));
  }

  // 1–2. Lines and their standard prices.
  const resolved = resolveLines(catalogue, input, bundle);
  const orderSlugs = resolved.map((r) => r.service.slug);
  const unavailable: PriceResult["unavailableServices"] = [];
  const lines: Line[] = [];
  for (const r of resolved) {
    const s = r.service;
    if (!s.active) {
      unavailable.push({ serviceSlug: s.slug, reason: "inactive" });
      continue;
    }
    // A translation is offered only from the manuscript's language.
    if (s.sourceLanguageId !== null && s.sourceLanguageId !== input.languageId) {
      unavailable.push({ serviceSlug: s.slug, reason: "language" });
      continue;
    }
    const price = standardPriceUsd(catalogue, s, {
      wordCount,
      quantity: r.quantity,
      originalServiceSlug: r.originalServiceSlug,
      orderSlugs,
    });
    if (!price.ok) {
      unavailable.push({ serviceSlug: s.slug, reason: price.reason });
      continue;
    }
    const rushMatched =
      s.rushEligible &&
      matchingRushRules(catalogue, {
        now,
        localization: input.localization,
        areaOfStudyId: input.areaOfStudyId,
        loyaltyLevel: input.loyaltyLevel,
        serviceIdentity: s.identity,
        wordCount,
      }).length > 0;
    lines.push({ service: s, quantity: r.quantity, originalServiceSlug: r.originalServiceSlug, standardUsd: price.cents, rushMatched });
  }
  return { currency, rate, calendar, bundle, resolved, lines, unavailable, wordCount, now };
}

/**
 * The standard-delivery total of a selection, without deadlines or notices: the
 * "from" prices of service cards and bundle cards. Equal to
 * priceSelection(...).total for deliveryTier "standard"; null when a line cannot
 * be priced (the card then shows no price).
 */
export function priceTotal(catalogue: Catalogue, input: PriceInput): number | null {
  const p = prepare(catalogue, input);
  if (p.unavailable.length > 0) return null;
  return priceTier(catalogue, input, p.lines, "standard", p.bundle, p.rate, p.currency.numDecimals).total;
}

/**
 * Prices a selection: line items, discounts, totals in minor units of the
 * currency, deadlines per tier, which tiers are offered, and notices. Throws
 * PricingInputError for input the forms never send (word count out of range,
 * quantity outside 1–25, unknown service, bundle, currency or localisation).
 */
export function priceSelection(catalogue: Catalogue, input: PriceInput): PriceResult {
  const { currency, rate, calendar, bundle, resolved, lines, unavailable, wordCount, now } = prepare(catalogue, input);

  const noServiceOption = unavailable.length > 0;
  const veryLongWordCount = wordCount > WORD_COUNT_MAX || lines.some((l) => l.service.maxWords !== null && wordCount > l.service.maxWords);
  const quoteOnly = veryLongWordCount || lines.some((l) => l.service.turnaround.kind === "quote");

  // 3. Tiers and deadlines.
  const primary = bundle
    ? lines.find((l) => l.service.slug === bundle!.primaryServiceSlug)
    : lines.find((l) => isEditingOrTranslation(l.service));
  const deadlineFor = (tier: DeliveryTierCode) => {
    // Beyond the limits the deadline is agreed with support, like the price.
    const days = veryLongWordCount ? null : orderDays(catalogue, lines, tier, wordCount, bundle);
    return { days, date: days === null ? null : businessDeadline(now, days, calendar) };
  };
  const standard = deadlineFor("standard");
  const rushOffered = !quoteOnly && !!catalogue.tiers.rush && lines.some((l) => tierApplies(l, "rush"));
  const expressOffered =
    !quoteOnly &&
    !!catalogue.tiers.express &&
    input.flags?.show_express_service_options === true &&
    wordCount >= EXPRESS_MIN_WORDS &&
    wordCount <= EXPRESS_MAX_WORDS &&
    primary !== undefined &&
    primary.service.expressEligible;
  const rush = rushOffered ? deadlineFor("rush") : null;
  const express = expressOffered ? deadlineFor("express") : null;
  const same = (a: Date | null | undefined, b: Date | null | undefined) => !!a && !!b && a.getTime() === b.getTime();
  // Rush must be faster than standard to be worth offering.
  let rushAvailable = !!rush?.date && !!standard.date && rush.date < standard.date;
  // Spec 1 §4: express equal to the non-rush deadline resets to standard; rush equal to express is hidden.
  const expressAvailable = !!express?.date && !same(express.date, standard.date);
  if (rushAvailable && expressAvailable && same(rush!.date, express!.date)) rushAvailable = false;

  let tier: DeliveryTierCode = "standard";
  if (input.deliveryTier === "rush" && rushAvailable) tier = "rush";
  if (input.deliveryTier === "express" && expressAvailable) tier = "express";

  // 4. Prices.
  const priceAt = (t: DeliveryTierCode): Priced => priceTier(catalogue, input, lines, t, bundle, rate, currency.numDecimals);
  const standardPriced = priceAt("standard");
  const chosen = tier === "standard" ? standardPriced : priceAt(tier);
  const rushPriceDifference = rushAvailable ? priceAt("rush").total - standardPriced.total : 0;
  const expressPriceDifference = expressAvailable ? priceAt("express").total - standardPriced.total : 0;

  // 5. Notices (spec 1 §5, §8; spec 2 §9). The two custom-deadline notices fire strictly above their
  // limits (spec 1 §5 and §9 say "over"; ADR 023), the others at and above (spec 2 §9).
  const notices: string[] = [];
  const all = resolved.map((r) => r.service);
  const hasTranslation = all.some((s) => s.type === "translation");
  const hasScientific = all.some((s) => s.slug === SCIENTIFIC_EDITING_SLUG);
  if (input.languageId === CHINESE_LANGUAGE_ID && wordCount >= TRANSLATION_NOTICE_WORDS) notices.push("translation-notice");
  if (!input.impersonating && wordCount > CUSTOM_TRANSLATION_DEADLINE_WORDS && (hasTranslation || hasScientific))
    notices.push("custom-translation-deadline-notice");
  if (wordCount >= MULTIMEDIA_NOTICE_WORDS && all.some((s) => s.group === MULTIMEDIA_GROUP)) notices.push("multimedia-notice");
  if (!input.impersonating && wordCount > CUSTOM_EDITING_DEADLINE_WORDS && input.languageId === ENGLISH_LANGUAGE_ID && !hasTranslation)
    notices.push("custom-editing-deadline-notice");
  if (hasScientific) notices.push("scientific-editing-aos-notice");
  if (noServiceOption) notices.push("word-count-differs-no-service-option");
  if (veryLongWordCount) notices.push("very-long-word-count-notice");
  else if (quoteOnly) notices.push("quote-only-notice");
  if (chosen.bestDiscountApplied) notices.push("best-discount-applied");

  const chosenDeadline = tier === "rush" ? rush!.date : tier === "express" ? express!.date : standard.date;
  const chosenDays = tier === "rush" ? rush!.days : tier === "express" ? express!.days : standard.days;
  const deadlines: PriceResult["deadlines"] = { standard: standard.date };
  if (rushAvailable) deadlines.rush = rush!.date!;
  if (expressAvailable) deadlines.express = express!.date!;

  const result: PriceResult = {
    currency: { isoCode: currency.isoCode, sign: currency.sign, numDecimals: currency.numDecimals, rate },
    deliveryTier: tier,
    lineItems: chosen.lines,
    discounts: chosen.discounts,
    subtotal: chosen.subtotal,
    total: chosen.total,
    turnaroundDays: chosenDays,
    deadline: chosenDeadline,
    deadlines,
    rushPriceDifference,
    expressPriceDifference,
    rushAvailable,
    expressAvailable,
    notices,
    noServiceOption,
    veryLongWordCount,
    quoteOnly,
    wordBin: getBinForWordCount(catalogue, wordCount)?.name ?? null,
    unavailableServices: unavailable,
  };
  if (chosen.bestDiscountApplied) result.bestDiscountApplied = true;
  if (chosen.promoCodeError) result.promoCodeError = chosen.promoCodeError;
  return result;
}

function priceTier(
  catalogue: Catalogue,
  input: PriceInput,
  lines: Line[],
  tier: DeliveryTierCode,
  bundle: Bundle | null,
  rate: string,
  numDecimals: number,
): Priced {
  const convert = (usd: number) => convertMinor(usd, USD, { isoCode: input.currencyIso, numDecimals, rate });
  const multiplier = catalogue.tiers[tier]?.multiplierBp;
  const list = lines.map((l) => {
    const applies = tier !== "standard" && tierApplies(l, tier) && multiplier !== undefined;
    return {
      line: l,
      applies,
      listPrice: convert(applies ? applyBp(l.standardUsd, multiplier!) : l.standardUsd),
      standardPrice: convert(l.standardUsd),
    };
  });

  // Line discounts: service discounts, then the re-edit discount, each on what is left of the line.
  const lineDiscount = list.map(() => 0);
  const discounts: PricedDiscount[] = [];
  const types = new Set(lines.map((l) => l.service.type));
  for (const d of catalogue.serviceDiscounts) {
    if (!inForce(d, input.now)) continue;
    if (d.kind === "re-edit" && !input.isReedit) continue;
    if (d.requiresServiceType !== null && !types.has(d.requiresServiceType)) continue;
    let applied = 0;
    list.forEach((item, i) => {
      if (d.serviceSlug !== null && d.serviceSlug !== item.line.service.slug) return;
      // Service discounts need another service of the required type, not the discounted one itself.
      if (d.requiresServiceType !== null && !lines.some((l, j) => j !== i && l.service.type === d.requiresServiceType)) return;
      const amount = applyBp(item.listPrice - lineDiscount[i], d.percentBp);
      lineDiscount[i] += amount;
      applied += amount;
    });
    if (applied > 0) {
      discounts.push({
        kind: d.kind === "re-edit" ? "Re-edit discount" : "Service discount",
        descriptionKey: d.descriptionKey,
        percentBased: true,
        amount: percentOf(d.percentBp),
        appliedAmount: applied,
        applied: true,
      });
    }
  }

  const net = list.map((item, i) => item.listPrice - lineDiscount[i]);
  const base = net.reduce((a, b) => a + b, 0);

  // Order discounts: only the best one applies (spec 1 §8 'best-discount-applied').
  type Candidate = PricedDiscount & { value: number };
  const candidates: Candidate[] = [];
  if (bundle && bundle.discountBp > 0) {
    // Only a selection that mixes editing or translation with other services earns the bundle discount,
    // and only on the non-rush, non-express total (the tier add-on is paid in full).
    const mixes = lines.some((l) => isEditingOrTranslation(l.service)) && lines.some((l) => l.service.type === "other");
    const addOn = list.reduce(
      (sum, item) => sum + (item.applies && isEditingOrTranslation(item.line.service) ? item.listPrice - item.standardPrice : 0),
      0,
    );
    const value = mixes ? applyBp(Math.max(0, base - addOn), bundle.discountBp) : 0;
    candidates.push({
      kind: "Service bundle discount",
      code: bundle.slug,
      descriptionKey: "catalogue:discounts.service-bundle",
      percentBased: true,
      amount: percentOf(bundle.discountBp),
      appliedAmount: 0,
      applied: false,
      value,
    });
  }
  const group = input.preferredGroupCode ? catalogue.preferredGroups[input.preferredGroupCode.trim().toUpperCase()] : undefined;
  if (group) {
    const value = group.percentBp !== null ? applyBp(base, group.percentBp) : Math.min(base, convert(group.amountUsdCents ?? 0));
    candidates.push({
      kind: "Preferred group discount",
      code: group.code,
      descriptionKey: "catalogue:discounts.preferred-group",
      percentBased: group.percentBp !== null,
      amount: group.percentBp !== null ? percentOf(group.percentBp) : convert(group.amountUsdCents ?? 0),
      appliedAmount: 0,
      applied: false,
      value,
    });
  }
  let promoCodeError: string | undefined;
  let promo: PromoCode | undefined;
  if (input.promoCode) {
    const check = checkPromoCode(withOwnPromoCodes(catalogue, input.ownPromoCodes), input.promoCode, { now: input.now });
    if (check.ok) promo = check.promo;
    else promoCodeError = check.error;
  }
  const best = candidates.reduce<Candidate | undefined>((b, c) => (c.value > (b?.value ?? 0) ? c : b), undefined);
  let bestDiscountApplied = false;
  let winner = best;
  if (promo) {
    const amountOff = promo.amountUsdCents !== null ? convert(promo.amountUsdCents) : 0;
    const value = promo.percentBp !== null ? applyBp(base, promo.percentBp) : Math.min(base, amountOff);
    const promoCandidate: Candidate = {
      kind: "Promotional Code",
      code: promo.code,
      descriptionKey: promo.descriptionKey,
      percentBased: promo.percentBp !== null,
      amount: promo.percentBp !== null ? percentOf(promo.percentBp) : amountOff,
      appliedAmount: 0,
      applied: false,
      value,
    };
    candidates.push(promoCandidate);
    // The code wins only when it is strictly better than what already applies.
    if (value > (best?.value ?? 0)) winner = promoCandidate;
    else if (best && best.value > 0) bestDiscountApplied = true;
  }
  let orderDiscount = 0;
  if (winner && winner.value > 0) {
    winner.applied = true;
    winner.appliedAmount = winner.value;
    orderDiscount = winner.value;
  }
  for (const { value: _value, ...c } of candidates) discounts.push(c);

  const shares = allocate(orderDiscount, net);
  const priced: PricedLine[] = list.map((item, i) => {
    const discountAmount = lineDiscount[i] + shares[i];
    return {
      serviceId: item.line.service.id,
      serviceIdentity: item.line.service.identity,
      serviceSlug: item.line.service.slug,
      nameKey: item.line.service.nameKey,
      type: item.line.service.type,
      quantity: item.line.quantity,
      deliveryTier: item.applies ? tier : "standard",
      turnaroundDays: lineDays(catalogue, item.line, tier, input.wordCount),
      listPrice: item.listPrice,
      discountAmount,
      totalPrice: item.listPrice - discountAmount,
    };
  });
  const subtotal = priced.reduce((sum, l) => sum + l.listPrice, 0);
  const total = priced.reduce((sum, l) => sum + l.totalPrice, 0);
  return { lines: priced, discounts, subtotal, total, bestDiscountApplied, promoCodeError };
}

/**
 * get-bin-price (spec 1 §7): the word bin of a new word count and what the
 * service costs at it, so the form can tell the user the bin changed.
 */
export function getBinPrice(
  catalogue: Catalogue,
  input: { serviceSlug: string; wordCount: number; currencyIso: string; now: Date },
): { ok: true; newWordBin: string | null; price: number } | { ok: false; error: string } {
  const wordError = validateWordCount(input.wordCount);
  if (wordError) return { ok: false, error: wordError };
  const service = catalogue.services.find((s) => s.slug === input.serviceSlug);
  if (!service || !service.active) return { ok: false, error: "unknown-service" };
  if (service.maxWords !== null && input.wordCount > service.maxWords) return { ok: false, error: "very-long-word-count-notice" };
  const price = standardPriceUsd(catalogue, service, { wordCount: input.wordCount });
  if (!price.ok) return { ok: false, error: "word-count-differs-no-service-option" };
  return {
    ok: true,
    newWordBin: getBinForWordCount(catalogue, input.wordCount)?.name ?? null,
    price: toCurrency(catalogue, price.cents, input.currencyIso, input.now),
  };
}

/** The catalogue's public promo codes and the user's own (issue 25), as checkPromoCode reads them. */
export function withOwnPromoCodes(
  catalogue: Pick<Catalogue, "promoCodes">,
  own: Record<string, PromoCode> | undefined,
): Pick<Catalogue, "promoCodes"> {
  return own && Object.keys(own).length ? { promoCodes: { ...catalogue.promoCodes, ...own } } : catalogue;
}
