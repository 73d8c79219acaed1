// Who may use digital editing and translation (spec 3 §2, issue 24), and the Chinese trial (spec 3 §2 "Chinese
// digital trial"): settings allowsDigitalEditing / allowsDigitalTranslations, flag
// chinese_to_english_digital_translation. Signed-in researchers only: a visitor has no access to either area.
import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { CHINESE_LANGUAGE, PACKAGE_MONTHS, TRANSLATION_LANGUAGES, type TranslationLanguage } from "#common/digital/constants";
import { fail, ok, type Result } from "#common/result";
import type { Scope } from "../scope";
import type { DB } from "../db";
import { setUserState } from "./store";
import { auditImpersonated } from "../kernel/audit";
import { translationEngineFor, translationOptionsFromEnv } from "./translate";

export interface DigitalAccess {
  editing: boolean;
  translations: boolean;
  chineseTranslation: boolean;
}

export async function digitalAccess(scope: Scope): Promise<DigitalAccess> {
  if (scope.userId === null) return { editing: false, translations: false, chineseTranslation: false };
  const { config, flags } = await scope.app.config.snapshot();
  const translations = Boolean(config.allowsDigitalTranslations);
  return {
    editing: Boolean(config.allowsDigitalEditing),
    translations,
    chineseTranslation: translations && Boolean(flags.chinese_to_english_digital_translation),
  };
}

/** The translation languages the user may choose now (zh_CN only with its flag). */
export function languagesFor(access: DigitalAccess): TranslationLanguage[] {
  return TRANSLATION_LANGUAGES.filter((l) => l !== CHINESE_LANGUAGE || access.chineseTranslation);
}

/** A receipt code: the success page's handle of a purchase (unguessable, URL-safe). */
export const newReceiptCode = (): string => randomBytes(12).toString("base64url");

/** `now() + n months` as SQL. */
export const monthsFromNow = (months: number) => sql<Date>`now() + make_interval(months => ${months}::int)`;

async function isChinese(scope: Scope, db: DB, userId: number): Promise<boolean> {
  if (scope.localization.toUpperCase() === "CN") return true;
  const row = await db
    .selectFrom("users as u")
    .leftJoin("countries as c", "c.id", "u.country_id")
    .select(["c.iso2", "u.localization"])
    .where("u.id", "=", userId)
    .executeTakeFirst();
  return row?.iso2?.trim().toUpperCase() === "CN" || row?.localization?.trim().toUpperCase() === "CN";
}

/**
 * Eligible for the free Chinese translation (spec 3 §2): signed in, Chinese translation offered (its flag), in the
 * China localisation or a user whose country is CN, and never granted before (once per user).
 */
export async function chineseTrialEligibility(scope: Scope): Promise<Result<{ eligible: boolean }>> {
  if (scope.userId === null) return fail("sign-in-required");
  const access = await digitalAccess(scope);
  if (!access.chineseTranslation) return ok({ eligible: false });
  // A free use nothing can spend is no gift: without a Chinese engine (live mode has none, ADR 072) nobody is eligible.
  if (!translationEngineFor(CHINESE_LANGUAGE, translationOptionsFromEnv(scope.app.env))) return ok({ eligible: false });
  if (!(await isChinese(scope, scope.app.db, scope.userId))) return ok({ eligible: false });
  const granted = await scope.app.db
    .selectFrom("digital_purchases")
    .select("id")
    .where("user_id", "=", scope.userId)
    .where("trial", "=", true)
    .executeTakeFirst();
  return ok({ eligible: !granted });
}

/**
 * Grants the trial: a free translation purchase (1 use, zh_CN, price 0, no invoice, no payment) in one transaction,
 * unique per user (a partial unique index: two racing grants give one). Error `not-eligible`.
 */
export async function grantChineseTrial(scope: Scope): Promise<Result<{ granted: true }>> {
  const eligibility = await chineseTrialEligibility(scope);
  if (!eligibility.ok) return eligibility;
  if (!eligibility.value.eligible) return fail("not-eligible");
  const userId = scope.userId!;
  const user = await scope.app.db.selectFrom("users").select("currency_iso").where("id", "=", userId).executeTakeFirstOrThrow();
  const granted = await scope.app.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("digital_purchases")
      .values({
        id: randomUUID(),
        user_id: userId,
        type: "translation",
        offer_identity: "chinese-trial",
        invoice_number: null,
        price: 0,
        currency_iso: user.currency_iso.trim(),
        starts_at: sql<Date>`now()`,
        ends_at: monthsFromNow(PACKAGE_MONTHS),
        months: PACKAGE_MONTHS,
        uses_total: 1,
        uses_remaining: 1,
        allowed_languages: JSON.stringify([CHINESE_LANGUAGE]),
        receipt_code: newReceiptCode(),
        status: "active",
        trial: true,
        activated_at: sql<Date>`now()`,
      })
      .onConflict((oc) => oc.column("user_id").where("trial", "=", true).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!row) return false;
    await setUserState(trx, userId, { chinese_trial_granted_at: new Date() });
    await auditImpersonated({ ...scope, app: { db: trx } }, "digital.chinese-trial", { type: "user", id: String(userId) });
    return true;
  });
  return granted ? ok({ granted: true as const }) : fail("not-eligible");
}
