// Vouchers in the staff console (issue 12 §8): the list, a new voucher (a fixed amount in a currency or a
// percentage; use limit; last day; description; a blank code is generated from the certificate-code alphabet),
// and deactivation. Staff only; every write is audited. Researchers use them through server/vouchers.
import { randomInt } from "node:crypto";
import { fail, invalid, ok, type Result } from "#common/result";
import type { StaffVoucherInput } from "#common/vouchers/schemas";
import type { Scope } from "../scope";
import { CERTIFICATE_CODE_ALPHABET } from "../certificates";
import { parseMajor } from "#common/money";
import { findVoucher, normalizeVoucherCode, VOUCHER_CODE_MAX } from "../vouchers";
import { audit } from "../kernel/audit";
import { staffActor } from "./orders";

export const GENERATED_VOUCHER_CODE_LENGTH = 12;
const CODE = new RegExp(`^[A-Z0-9][A-Z0-9-]{2,${VOUCHER_CODE_MAX - 1}}$`);
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_USES = 1_000_000;

/** 12 characters of the certificate codes' alphabet (no 0/O, 1/I look-alikes): 60 bits. */
export function newVoucherCode(): string {
  let code = "";
  for (let i = 0; i < GENERATED_VOUCHER_CODE_LENGTH; i++) code += CERTIFICATE_CODE_ALPHABET[randomInt(CERTIFICATE_CODE_ALPHABET.length)];
  return code;
}

export interface StaffVoucherRow {
  id: number;
  code: string;
  description: string | null;
  percent: number | null;
  amount: number | null;
  currency: { isoCode: string; sign: string; numDecimals: number } | null;
  maxUses: number | null;
  timesUsed: number;
  validUntil: string | null;
  active: boolean;
  createdAt: string;
  createdBy: string | null;
}

/** Every voucher, newest first (staff). Errors: `not-allowed`. */
export async function listVouchers(scope: Scope, limit = 200): Promise<Result<StaffVoucherRow[]>> {
  const actor = staffActor(scope);
  if (!actor) return fail("not-allowed");
  const rows = await scope.app.db
    .selectFrom("vouchers as v")
    .leftJoin("currencies as c", "c.iso_code", "v.currency_iso")
    .leftJoin("users as u", "u.id", "v.created_by")
    .select([
      "v.id",
      "v.code",
      "v.description",
      "v.percent",
      "v.amount",
      "v.currency_iso",
      "v.max_uses",
      "v.times_used",
      "v.valid_until",
      "v.active",
      "v.created_at",
      "c.sign",
      "c.num_decimals",
      "u.email",
    ])
    .orderBy("v.created_at", "desc")
    .orderBy("v.id", "desc")
    .limit(limit)
    .execute();
  return ok(
    rows.map((r) => ({
      id: r.id,
      code: r.code,
      description: r.description,
      percent: r.percent,
      amount: r.amount === null ? null : Number(r.amount),
      currency: r.currency_iso
        ? { isoCode: r.currency_iso.trim(), sign: r.sign ?? r.currency_iso.trim(), numDecimals: r.num_decimals ?? 2 }
        : null,
      maxUses: r.max_uses,
      timesUsed: r.times_used,
      validUntil: r.valid_until ? new Date(r.valid_until).toISOString() : null,
      active: r.active,
      createdAt: new Date(r.created_at).toISOString(),
      createdBy: r.email,
    })),
  );
}

/** The currencies a fixed-amount voucher may be in: every currency with a rate (CNY too: staff may need it). */
export async function voucherCurrencies(scope: Scope): Promise<string[]> {
  const rows = await scope.app.db.selectFrom("currencies").select("iso_code").orderBy("sort_order").execute();
  return rows.map((r) => r.iso_code.trim());
}

const positiveInt = (v: string, max: number) => (/^\d{1,9}$/.test(v) && Number(v) >= 1 && Number(v) <= max ? Number(v) : null);

/**
 * Creates a voucher. Field errors (`staffpay:errors.*`): code (code-invalid, code-taken), kind (kind-required),
 * amount (invalid-amount), currencyIso (currency-unknown), percent (invalid-percent), maxUses (invalid-max-uses),
 * validUntil (invalid-date, date-past), description (description-too-long). Errors: `not-allowed`.
 */
export async function createVoucher(
  scope: Scope,
  input: StaffVoucherInput,
  now = new Date(),
): Promise<Result<{ id: number; code: string }>> {
  const actor = staffActor(scope);
  if (!actor) return fail("not-allowed");
  const db = scope.app.db;
  const errors: Record<string, string> = {};
  const typed = normalizeVoucherCode(input.code ?? "");
  const code = typed || newVoucherCode();
  if (!CODE.test(code)) errors.code = "staffpay:errors.code-invalid";
  else if (await findVoucher(db, code)) errors.code = "staffpay:errors.code-taken";
  const description = input.description?.trim() || null;
  if (description && description.length > 200) errors.description = "staffpay:errors.description-too-long";
  let amount: number | null = null;
  let currencyIso: string | null = null;
  let percent: number | null = null;
  if (input.kind === "amount") {
    currencyIso = (input.currencyIso ?? "").trim().toUpperCase();
    const currency = /^[A-Z]{3}$/.test(currencyIso)
      ? await db.selectFrom("currencies").select("num_decimals").where("iso_code", "=", currencyIso).executeTakeFirst()
      : undefined;
    if (!currency) errors.currencyIso = "staffpay:errors.currency-unknown";
    else {
      amount = parseMajor(input.amount ?? "", currency.num_decimals);
      if (amount === null) errors.amount = "staffpay:errors.invalid-amount";
    }
  } else if (input.kind === "percent") {
    percent = positiveInt((input.percent ?? "").trim(), 100);
    if (percent === null) errors.percent = "staffpay:errors.invalid-percent";
  } else errors.kind = "staffpay:errors.kind-required";
  let maxUses: number | null = null;
  if (input.maxUses?.trim()) {
    maxUses = positiveInt(input.maxUses.trim(), MAX_USES);
    if (maxUses === null) errors.maxUses = "staffpay:errors.invalid-max-uses";
  }
  let validUntil: Date | null = null;
  if (input.validUntil?.trim()) {
    const day = input.validUntil.trim();
    const end = DAY.test(day) ? new Date(`${day}T23:59:59.999Z`) : null;
    // The last day counts whole (to its end, UTC); a day that does not exist (2026-02-30) is refused.
    if (!end || Number.isNaN(end.getTime()) || end.toISOString().slice(0, 10) !== day) errors.validUntil = "staffpay:errors.invalid-date";
    else if (end.getTime() < now.getTime()) errors.validUntil = "staffpay:errors.date-past";
    else validUntil = end;
  }
  if (Object.keys(errors).length) return invalid(errors);
  try {
    const row = await db
      .insertInto("vouchers")
      .values({
        code,
        description,
        currency_iso: currencyIso && amount !== null ? currencyIso : null,
        amount,
        percent,
        max_uses: maxUses,
        valid_until: validUntil,
        created_by: actor.userId,
      })
      .returning(["id", "code"])
      .executeTakeFirstOrThrow();
    await audit(
      scope.app,
      actor.userId,
      "staff.voucher.create",
      { type: "voucher", id: String(row.id) },
      {
        code,
        amount,
        currencyIso,
        percent,
        maxUses,
        validUntil: validUntil?.toISOString() ?? null,
        ip: scope.ip,
      },
    );
    return ok(row);
  } catch (error) {
    // Two staff members creating the same code at once: the unique index on upper(code) decides.
    if ((error as { code?: string }).code === "23505") return invalid({ code: "staffpay:errors.code-taken" });
    throw error;
  }
}

/** Deactivates a voucher (idempotent): it can no longer be applied or used. Errors: `not-allowed`, `not-found`. */
export async function deactivateVoucher(scope: Scope, id: number): Promise<Result<{ code: string; already: boolean }>> {
  const actor = staffActor(scope);
  if (!actor) return fail("not-allowed");
  if (!Number.isSafeInteger(id) || id < 1) return fail("not-found");
  const before = await scope.app.db.selectFrom("vouchers").select(["code", "active"]).where("id", "=", id).executeTakeFirst();
  if (!before) return fail("not-found");
  if (!before.active) return ok({ code: before.code, already: true });
  await scope.app.db.updateTable("vouchers").set({ active: false }).where("id", "=", id).execute();
  await audit(
    scope.app,
    actor.userId,
    "staff.voucher.deactivate",
    { type: "voucher", id: String(id) },
    { code: before.code, ip: scope.ip },
  );
  return ok({ code: before.code, already: false });
}
