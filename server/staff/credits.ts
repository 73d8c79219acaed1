// Courtesy credits in the staff console (issue 13, ADR 041): find a researcher by e-mail, see their credits
// (total, available, expiry) and grant one (amount in major units, the researcher's currency by default,
// validity in days, a note). Staff only; each grant writes one audit row. The money itself moves through the
// balance ledger (server/billing/ledger grantCredit), in the same transaction as the audit row.
import { fail, invalid, ok, type Result } from "#common/result";
import type { Scope } from "../scope";
import { grantCredit, userBalances } from "../billing";
import { minorOf, parseMajor } from "#common/money";
import { staffActor } from "./orders";

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const MAX_VALIDITY_DAYS = 3650;
const NOTE_MAX = 200;
const E = (code: string) => `credits:errors.${code}`;

export interface StaffCreditUser {
  id: number;
  email: string;
  name: string;
  currencyIso: string;
  hideInvoices: boolean;
}

export interface StaffCreditRow {
  referenceNumber: string;
  kind: string;
  currency: { isoCode: string; sign: string; numDecimals: number };
  total: number;
  available: number;
  expiresAt: string | null;
  createdAt: string;
  note: string | null;
  grantedBy: string | null;
  email?: string;
}

async function currencies(scope: Scope) {
  const rows = await scope.app.db.selectFrom("currencies").select(["iso_code", "sign", "num_decimals"]).orderBy("sort_order").execute();
  return new Map(rows.map((r) => [r.iso_code.trim(), { isoCode: r.iso_code.trim(), sign: r.sign, numDecimals: r.num_decimals }]));
}

/** A researcher by e-mail (case-insensitive). Errors: `not-allowed`, `not-found`, field `email`. */
export async function findCreditUser(scope: Scope, email: string): Promise<Result<StaffCreditUser>> {
  if (!staffActor(scope)) return fail("not-allowed");
  const e = email.trim().toLowerCase();
  if (!EMAIL.test(e)) return invalid({ email: E("email-invalid") });
  const u = await scope.app.db
    .selectFrom("users")
    .select(["id", "email", "first_name", "last_name", "currency_iso", "hide_invoices"])
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", e))
    .executeTakeFirst();
  if (!u) return invalid({ email: E("user-not-found") }, "not-found");
  return ok({
    id: u.id,
    email: u.email,
    name: `${u.first_name ?? ""} ${u.last_name ?? ""}`.trim(),
    currencyIso: u.currency_iso.trim(),
    hideInvoices: u.hide_invoices,
  });
}

/** The researcher's credits, newest first, each with what is left; and the currencies staff may grant in. */
export async function creditsOfUser(scope: Scope, userId: number, now = new Date()): Promise<Result<StaffCreditRow[]>> {
  if (!staffActor(scope)) return fail("not-allowed");
  const [balances, rows, cur] = await Promise.all([
    userBalances(scope.app.db, userId, now),
    scope.app.db
      .selectFrom("credits as c")
      .leftJoin("users as g", "g.id", "c.granted_by")
      .select(["c.reference_number", "c.kind", "c.note", "g.email"])
      .where("c.user_id", "=", userId)
      .execute(),
    currencies(scope),
  ]);
  const extra = new Map(rows.map((r) => [r.reference_number, r]));
  return ok(
    [...balances.credits]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .map((c) => ({
        referenceNumber: c.number,
        kind: extra.get(c.number)?.kind ?? "courtesy",
        currency: cur.get(c.currencyIso) ?? { isoCode: c.currencyIso, sign: c.currencyIso, numDecimals: 2 },
        total: c.total,
        available: c.available,
        expiresAt: c.expiresAt?.toISOString() ?? null,
        createdAt: c.createdAt.toISOString(),
        note: extra.get(c.number)?.note ?? null,
        grantedBy: extra.get(c.number)?.email ?? null,
      })),
  );
}

/** The latest courtesy credits granted by staff (any researcher). */
export async function recentGrants(scope: Scope, limit = 10): Promise<Result<StaffCreditRow[]>> {
  if (!staffActor(scope)) return fail("not-allowed");
  const [rows, cur] = await Promise.all([
    scope.app.db
      .selectFrom("credits as c")
      .innerJoin("users as u", "u.id", "c.user_id")
      .leftJoin("users as g", "g.id", "c.granted_by")
      .select([
        "c.reference_number",
        "c.kind",
        "c.currency_iso",
        "c.amount",
        "c.expires_at",
        "c.created_at",
        "c.note",
        "u.email",
        "g.email as granted",
      ])
      .where("c.kind", "=", "courtesy")
      .orderBy("c.created_at", "desc")
      .orderBy("c.id", "desc")
      .limit(limit)
      .execute(),
    currencies(scope),
  ]);
  return ok(
    rows.map((r) => ({
      referenceNumber: r.reference_number,
      kind: r.kind,
      currency: cur.get(r.currency_iso.trim()) ?? { isoCode: r.currency_iso.trim(), sign: r.currency_iso.trim(), numDecimals: 2 },
      total: Number(r.amount),
      available: Number(r.amount),
      expiresAt: new Date(r.expires_at).toISOString(),
      createdAt: new Date(r.created_at).toISOString(),
      note: r.note,
      grantedBy: r.granted,
      email: r.email,
    })),
  );
}

export interface GrantInput {
  email: string;
  amount: string;
  currencyIso?: string;
  validityDays?: string;
  note?: string;
}

/**
 * Grants a courtesy credit. Field errors (`credits:errors.*`): email (email-invalid, user-not-found), amount
 * (amount-invalid), currencyIso (currency-unknown), validityDays (validity-invalid), note (note-too-long).
 * Errors: `not-allowed`.
 */
export async function grantCourtesyCredit(
  scope: Scope,
  input: GrantInput,
  now = new Date(),
): Promise<Result<{ referenceNumber: string; user: StaffCreditUser }>> {
  const actor = staffActor(scope);
  if (!actor) return fail("not-allowed");
  const found = await findCreditUser(scope, input.email ?? "");
  if (!found.ok) return found;
  const user = found.value;
  const errors: Record<string, string> = {};
  const cur = await currencies(scope);
  const iso = (input.currencyIso?.trim() || user.currencyIso).toUpperCase();
  const currency = cur.get(iso);
  let amount: number | null = null;
  if (!currency) errors.currencyIso = E("currency-unknown");
  else {
    amount = parseMajor(input.amount ?? "", currency.numDecimals);
    // A courtesy credit above a million in any currency is a typing error, not a courtesy.
    if (amount === null || amount > minorOf(1_000_000, currency.numDecimals)) errors.amount = E("amount-invalid");
  }
  const defaultDays = (await scope.app.config.snapshot()).config.creditValidityDays;
  const daysText = input.validityDays?.trim() ?? "";
  const days = daysText === "" ? defaultDays : /^\d{1,4}$/.test(daysText) ? Number(daysText) : NaN;
  if (!Number.isInteger(days) || days < 1 || days > MAX_VALIDITY_DAYS) errors.validityDays = E("validity-invalid");
  const note = input.note?.trim() || null;
  if (note && note.length > NOTE_MAX) errors.note = E("note-too-long");
  if (Object.keys(errors).length || amount === null) return invalid(errors);
  const expiresAt = new Date(now.getTime() + days * 24 * 3600 * 1000);
  const granted = await scope.app.db.transaction().execute(async (trx) => {
    const g = await grantCredit(trx, {
      userId: user.id,
      currencyIso: iso,
      amount: amount!,
      kind: "courtesy",
      note,
      expiresAt,
      grantedBy: actor.userId,
    });
    await trx
      .insertInto("audit_log")
      .values({
        actor_user_id: actor.userId,
        action: "staff.credit.grant",
        target_type: "credit",
        target_id: g.referenceNumber,
        data: JSON.stringify({ userId: user.id, amount, currencyIso: iso, validityDays: days, note, ip: scope.ip }),
      })
      .execute();
    return g;
  });
  return ok({ referenceNumber: granted.referenceNumber, user });
}

/** What the grant form offers: the currencies, and the default validity (config creditValidityDays). */
export async function grantOptions(scope: Scope): Promise<{ currencies: string[]; defaultDays: number }> {
  const [cur, snapshot] = await Promise.all([currencies(scope), scope.app.config.snapshot()]);
  return { currencies: [...cur.keys()], defaultDays: snapshot.config.creditValidityDays };
}
