// What 'My Referrals' shows (issue 25 item 3, spec 3 §2 "Referrals", §3 "Referral rewards"): the referral link and
// its QR code (SVG drawn on the server, no third-party script), the offer in the user's currency, the referrals sent
// (colleagues' names masked, status) and the total earned in credits. GET /api/referral-rewards/load and
// /total-credits answer the same facts. Always the signed-in user's own.
import QRCode from "qrcode";
import { fail, ok, type Result } from "#common/result";
import { convertMinor, formatMoney } from "#common/money";
import type { ReferralStatus } from "../../db/types-rewards";
import type { Scope } from "../scope";
import { referralLinkOf } from "../orders/dashboard";
import { latestExchangeRate } from "../kernel/reference";
import { referralAmountUsdCents } from "./register";
import { maskedName } from "./rules";

export interface Currency {
  isoCode: string;
  sign: string;
  numDecimals: number;
}

export interface ReferralRow {
  id: number;
  colleague: string;
  status: ReferralStatus;
  createdAt: string;
  creditedAt: string | null;
  /** Minor units of `creditCurrency`; null unless credited. */
  creditAmount: number | null;
  creditCurrency: string | null;
  /** The credit as people read it ("$40", "¥280"); null unless credited. */
  creditText: string | null;
}

export interface ReferralPage {
  referralCode: string;
  referralLink: string;
  numberOfReferralsSent: number;
  /** Minor units of `currency`. */
  totalEarnedCredits: number;
  /** What each side gets, in the user's currency (minor units); null when not configured. */
  offerAmount: number | null;
  currency: Currency;
  referrals: ReferralRow[];
}

async function userCurrency(scope: Scope, userId: number): Promise<(Currency & { rate: string | null; referralCode: string }) | null> {
  const row = await scope.app.db
    .selectFrom("users as u")
    .innerJoin("currencies as c", "c.iso_code", "u.currency_iso")
    .select(["c.iso_code", "c.sign", "c.num_decimals", "u.referral_code"])
    .where("u.id", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  const isoCode = row.iso_code.trim();
  return {
    isoCode,
    sign: row.sign,
    numDecimals: row.num_decimals,
    rate: await latestExchangeRate(scope.app.db, isoCode),
    referralCode: row.referral_code,
  };
}

/** The sum of the user's referral credits, each converted to `currency` at today's rate (its own currency as is). */
async function earned(scope: Scope, userId: number, currency: Currency & { rate: string | null }): Promise<number> {
  const rows = await scope.app.db
    .selectFrom("referrals as r")
    .innerJoin("currencies as c", "c.iso_code", "r.credit_currency")
    .select(["r.credit_amount", "r.credit_currency", "c.num_decimals"])
    .where("r.referrer_user_id", "=", userId)
    .where("r.status", "=", "credited")
    .where("r.credit_amount", "is not", null)
    .execute();
  let total = 0;
  for (const r of rows) {
    const iso = (r.credit_currency ?? "").trim();
    if (iso === currency.isoCode) total += r.credit_amount!;
    else {
      const rate = await latestExchangeRate(scope.app.db, iso);
      if (rate && currency.rate)
        total += convertMinor(r.credit_amount!, { isoCode: iso, numDecimals: r.num_decimals, rate }, { ...currency, rate: currency.rate });
    }
  }
  return total;
}

/** The page's facts. Errors: `sign-in-required`. */
export async function referralPage(scope: Scope): Promise<Result<ReferralPage>> {
  const userId = scope.userId;
  if (userId === null) return fail("sign-in-required");
  const [currency, link, rows, snapshot] = await Promise.all([
    userCurrency(scope, userId),
    referralLinkOf(scope),
    scope.app.db
      .selectFrom("referrals as r")
      .innerJoin("users as u", "u.id", "r.referred_user_id")
      .leftJoin("currencies as c", "c.iso_code", "r.credit_currency")
      .select([
        "r.id",
        "r.status",
        "r.created_at",
        "r.credited_at",
        "r.credit_amount",
        "r.credit_currency",
        "c.sign",
        "c.num_decimals",
        "u.first_name",
        "u.last_name",
        "u.email",
      ])
      .where("r.referrer_user_id", "=", userId)
      .orderBy("r.id", "desc")
      .limit(200)
      .execute(),
    scope.app.config.snapshot(),
  ]);
  if (!currency || !link) return fail("not-found");
  const usdCents = referralAmountUsdCents(snapshot.config.referralAmount);
  const offerAmount =
    usdCents && currency.rate
      ? convertMinor(usdCents, { isoCode: "USD", numDecimals: 2, rate: "1" }, { ...currency, rate: currency.rate })
      : null;
  const { rate: _rate, referralCode, ...plain } = currency;
  return ok({
    referralCode,
    referralLink: link,
    numberOfReferralsSent: rows.filter((r) => r.status !== "refused").length,
    totalEarnedCredits: await earned(scope, userId, currency),
    offerAmount,
    currency: plain,
    referrals: rows.map((r) => ({
      id: r.id,
      colleague: maskedName(r.first_name, r.last_name, r.email),
      status: r.status,
      createdAt: new Date(r.created_at).toISOString(),
      creditedAt: r.credited_at ? new Date(r.credited_at).toISOString() : null,
      creditAmount: r.credit_amount,
      creditCurrency: r.credit_currency?.trim() ?? null,
      creditText:
        r.credit_amount !== null && r.credit_currency && r.num_decimals !== null
          ? formatMoney(r.credit_amount, { isoCode: r.credit_currency.trim(), sign: r.sign ?? "", numDecimals: r.num_decimals })
          : null,
    })),
  });
}

/** GET /api/referral-rewards/total-credits: the total in the user's currency. */
export async function totalEarnedCredits(scope: Scope): Promise<Result<{ totalEarnedCredits: number; currency: Currency }>> {
  if (scope.userId === null) return fail("sign-in-required");
  const currency = await userCurrency(scope, scope.userId);
  if (!currency) return fail("not-found");
  const { rate: _rate, referralCode: _code, ...plain } = currency;
  return ok({ totalEarnedCredits: await earned(scope, scope.userId, currency), currency: plain });
}

/** The referral link's QR code as an inline SVG (drawn here: no image from elsewhere). */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2, color: { dark: "#1a1a1a", light: "#ffffff" } });
}

/** The referred colleague's unused welcome code (the first-order discount), for the dashboard's notice; null without one. */
export async function welcomeCodeOf(scope: Scope): Promise<{ code: string; amountUsdCents: number } | null> {
  if (scope.userId === null) return null;
  const row = await scope.app.db
    .selectFrom("promo_codes")
    .select(["code", "amount_off_cents", "times_used", "max_uses"])
    .where("user_id", "=", scope.userId)
    .where("source", "=", "referral-welcome")
    .where("active", "=", true)
    .executeTakeFirst();
  if (!row || row.amount_off_cents === null || (row.max_uses !== null && row.times_used >= row.max_uses)) return null;
  return { code: row.code, amountUsdCents: row.amount_off_cents };
}
