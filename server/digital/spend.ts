// Spending one translation use (issue 24 item 3): one conditional UPDATE in the caller's transaction. The purchase
// is the user's oldest-ending active one, valid now, with a use left and the language allowed; the row is locked
// (FOR UPDATE) and the UPDATE re-checks `uses_remaining > 0`, so two creates racing for the last use spend it once:
// the loser finds no row (a package that ran dry meanwhile is skipped for the next one) and answers no-uses-left.
import { sql } from "kysely";
import type { TranslationLanguage } from "#common/digital/constants";
import type { DB } from "../db";

export async function spendOneUse(trx: DB, userId: number, language: TranslationLanguage): Promise<string | null> {
  const { rows } = await sql<{ id: string }>`
    update digital_purchases set uses_remaining = uses_remaining - 1
     where id = (
       select id from digital_purchases
        where user_id = ${userId} and type = 'translation' and status = 'active'
          and uses_remaining > 0 and starts_at <= now() and ends_at > now()
          and allowed_languages ? ${language}
        order by ends_at asc, created_at asc
        limit 1
        for update)
       and uses_remaining > 0
    returning id`.execute(trx);
  return rows[0]?.id ?? null;
}
