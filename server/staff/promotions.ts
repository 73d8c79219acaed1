// Promotions in the staff console (issue 25 item 2, ADR 075): campaigns, and the public promo codes of a campaign (a
// percentage or a USD amount, start and end days, a use limit, highlighted on the researchers' rewards page), and
// deactivation of a code. Staff only; every change audited. A public code goes to promo_codes with its campaign
// (user_id null) and the cached catalogue is dropped, so the order wizard's promo field accepts it at once under
// the one-best-discount rule of pricing.
import { fail, invalid, ok, type Result } from "#common/result";
import { parseMajor } from "#common/money";
import type { StaffCampaignInput, StaffPromoCodeInput } from "#common/rewards/schemas";
import type { Scope } from "../scope";
import { invalidateCatalogue } from "../catalogue";
import { newRewardCode } from "../rewards";
import { audit } from "../kernel/audit";
import { staffActor } from "./orders";

const CODE = /^[A-Z0-9][A-Z0-9-]{2,39}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_USES = 1_000_000;

export interface StaffCampaignRow {
  id: number;
  name: string;
  description: string | null;
  highlighted: boolean;
  startsAt: string | null;
  endsAt: string | null;
  createdAt: string;
  createdBy: string | null;
  codes: number;
}

export interface StaffPromoCodeRow {
  id: number;
  code: string;
  name: string | null;
  percent: number | null;
  amountUsdCents: number | null;
  startsAt: string | null;
  endsAt: string | null;
  maxUses: number | null;
  timesUsed: number;
  highlighted: boolean;
  active: boolean;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const checked = (v: string | undefined) => v === "on" || v === "true" || v === "1";

/** A typed day (yyyy-mm-dd) as the start (00:00 UTC) or the end (23:59:59.999 UTC) of that day; undefined when invalid. */
function dayOf(v: string | undefined, end: boolean): Date | null | undefined {
  const day = v?.trim() ?? "";
  if (!day) return null;
  const d = DAY.test(day) ? new Date(`${day}T${end ? "23:59:59.999" : "00:00:00.000"}Z`) : null;
  if (!d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== day) return undefined;
  return d;
}

/** The campaigns, newest first, with how many codes each has. Errors: `not-allowed`. */
export async function listCampaigns(scope: Scope, limit = 200): Promise<Result<StaffCampaignRow[]>> {
  if (!staffActor(scope)) return fail("not-allowed");
  const rows = await scope.app.db
    .selectFrom("promo_campaigns as c")
    .leftJoin("users as u", "u.id", "c.created_by")
    .select(["c.id", "c.name", "c.description", "c.highlighted", "c.starts_at", "c.ends_at", "c.created_at", "u.email"])
    .select((eb) =>
      eb.selectFrom("promo_codes as p").whereRef("p.campaign_id", "=", "c.id").select(eb.fn.countAll<string>().as("n")).as("codes"),
    )
    .orderBy("c.created_at", "desc")
    .orderBy("c.id", "desc")
    .limit(limit)
    .execute();
  return ok(
    rows.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      highlighted: r.highlighted,
      startsAt: iso(r.starts_at),
      endsAt: iso(r.ends_at),
      createdAt: new Date(r.created_at).toISOString(),
      createdBy: r.email,
      codes: Number(r.codes ?? 0),
    })),
  );
}

/** One campaign and its codes. Errors: `not-allowed`, `not-found`. */
export async function campaignOf(scope: Scope, id: number): Promise<Result<{ campaign: StaffCampaignRow; codes: StaffPromoCodeRow[] }>> {
  const list = await listCampaigns(scope, 100000);
  if (!list.ok) return list;
  const campaign = list.value.find((c) => c.id === id);
  if (!campaign) return fail("not-found");
  const rows = await scope.app.db
    .selectFrom("promo_codes")
    .selectAll()
    .where("campaign_id", "=", id)
    .where("user_id", "is", null)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return ok({
    campaign,
    codes: rows.map((r) => ({
      id: r.id,
      code: r.code,
      name: r.name,
      percent: r.percent_off === null ? null : Number(r.percent_off),
      amountUsdCents: r.amount_off_cents,
      startsAt: iso(r.starts_at),
      endsAt: iso(r.ends_at),
      maxUses: r.max_uses,
      timesUsed: r.times_used,
      highlighted: r.highlighted,
      active: r.active,
    })),
  });
}

/**
 * Creates a campaign. Field errors (`rewards:errors.*`): name (name-required, name-too-long), description
 * (description-too-long), startsOn/endsOn (invalid-date), endsOn (ends-before-start). Errors: `not-allowed`.
 */
export async function createCampaign(scope: Scope, input: StaffCampaignInput): Promise<Result<{ id: number; name: string }>> {
  const actor = staffActor(scope);
  if (!actor) return fail("not-allowed");
  const errors: Record<string, string> = {};
  const name = input.name?.trim() ?? "";
  if (!name) errors.name = "rewards:errors.name-required";
  else if (name.length > 120) errors.name = "rewards:errors.name-too-long";
  const description = input.description?.trim() || null;
  if (description && description.length > 2000) errors.description = "rewards:errors.description-too-long";
  const startsAt = dayOf(input.startsOn, false);
  const endsAt = dayOf(input.endsOn, true);
  if (startsAt === undefined) errors.startsOn = "rewards:errors.invalid-date";
  if (endsAt === undefined) errors.endsOn = "rewards:errors.invalid-date";
  else if (endsAt && startsAt && endsAt < startsAt) errors.endsOn = "rewards:errors.ends-before-start";
  if (Object.keys(errors).length) return invalid(errors);
  const highlighted = checked(input.highlighted);
  const row = await scope.app.db
    .insertInto("promo_campaigns")
    .values({ name, description, highlighted, starts_at: startsAt ?? null, ends_at: endsAt ?? null, created_by: actor.userId })
    .returning(["id", "name"])
    .executeTakeFirstOrThrow();
  await audit(
    scope.app,
    actor.userId,
    "staff.promotion.campaign-create",
    { type: "promo_campaign", id: String(row.id) },
    {
      name,
      highlighted,
      startsAt: iso(startsAt ?? null),
      endsAt: iso(endsAt ?? null),
      ip: scope.ip,
    },
  );
  return ok(row);
}

/**
 * Adds a public code to a campaign (blank code: generated). Field errors (`rewards:errors.*`): code (code-invalid,
 * code-taken), name (name-too-long), kind (kind-required), percent (invalid-percent), amount (invalid-amount),
 * startsOn/endsOn (invalid-date, ends-before-start, date-past), maxUses (invalid-max-uses). Errors: `not-allowed`,
 * `not-found` (no such campaign).
 */
export async function createCampaignCode(
  scope: Scope,
  campaignId: number,
  input: StaffPromoCodeInput,
  now = new Date(),
): Promise<Result<{ id: number; code: string }>> {
  const actor = staffActor(scope);
  if (!actor) return fail("not-allowed");
  const db = scope.app.db;
  const campaign = Number.isSafeInteger(campaignId)
    ? await db.selectFrom("promo_campaigns").select(["id", "starts_at", "ends_at"]).where("id", "=", campaignId).executeTakeFirst()
    : undefined;
  if (!campaign) return fail("not-found");
  const errors: Record<string, string> = {};
  const code = (input.code ?? "").trim().toUpperCase() || newRewardCode().replace(/^RW/, "PR");
  if (!CODE.test(code)) errors.code = "rewards:errors.code-invalid";
  else if (await db.selectFrom("promo_codes").select("id").where("code", "=", code).executeTakeFirst())
    errors.code = "rewards:errors.code-taken";
  const name = input.name?.trim() || null;
  if (name && name.length > 120) errors.name = "rewards:errors.name-too-long";
  let percent: number | null = null;
  let amount: number | null = null;
  if (input.kind === "percent") {
    const p = (input.percent ?? "").trim();
    percent = /^\d{1,3}$/.test(p) && Number(p) >= 1 && Number(p) <= 100 ? Number(p) : null;
    if (percent === null) errors.percent = "rewards:errors.invalid-percent";
  } else if (input.kind === "amount") {
    amount = parseMajor(input.amount ?? "", 2);
    if (amount === null || amount <= 0) errors.amount = "rewards:errors.invalid-amount";
  } else errors.kind = "rewards:errors.kind-required";
  // A code's dates default to its campaign's.
  const startsAt = input.startsOn?.trim() ? dayOf(input.startsOn, false) : campaign.starts_at;
  const endsAt = input.endsOn?.trim() ? dayOf(input.endsOn, true) : campaign.ends_at;
  if (startsAt === undefined) errors.startsOn = "rewards:errors.invalid-date";
  if (endsAt === undefined) errors.endsOn = "rewards:errors.invalid-date";
  else if (endsAt && startsAt && endsAt < startsAt) errors.endsOn = "rewards:errors.ends-before-start";
  else if (endsAt && endsAt < now) errors.endsOn = "rewards:errors.date-past";
  let maxUses: number | null = null;
  if (input.maxUses?.trim()) {
    const m = input.maxUses.trim();
    maxUses = /^\d{1,7}$/.test(m) && Number(m) >= 1 && Number(m) <= MAX_USES ? Number(m) : null;
    if (maxUses === null) errors.maxUses = "rewards:errors.invalid-max-uses";
  }
  if (Object.keys(errors).length) return invalid(errors);
  const highlighted = checked(input.highlighted);
  try {
    const row = await db
      .insertInto("promo_codes")
      .values({
        code,
        description_key: null,
        percent_off: percent === null ? null : String(percent),
        amount_off_cents: amount,
        starts_at: startsAt ?? null,
        ends_at: endsAt ?? null,
        active: true,
        max_uses: maxUses,
        user_id: null,
        campaign_id: campaign.id,
        name,
        highlighted,
        source: "campaign",
      })
      .returning(["id", "code"])
      .executeTakeFirstOrThrow();
    await invalidateCatalogue(scope.app.cache);
    await audit(
      scope.app,
      actor.userId,
      "staff.promotion.code-create",
      { type: "promo_code", id: String(row.id) },
      {
        campaignId: campaign.id,
        code,
        percent,
        amountUsdCents: amount,
        maxUses,
        highlighted,
        startsAt: iso(startsAt ?? null),
        endsAt: iso(endsAt ?? null),
        ip: scope.ip,
      },
    );
    return ok(row);
  } catch (error) {
    // Two staff members adding the same code at once: the unique index decides.
    if ((error as { code?: string }).code === "23505") return invalid({ code: "rewards:errors.code-taken" });
    throw error;
  }
}

/** Deactivates a campaign's public code (idempotent). Errors: `not-allowed`, `not-found`. */
export async function deactivateCampaignCode(
  scope: Scope,
  campaignId: number,
  codeId: number,
): Promise<Result<{ code: string; already: boolean }>> {
  const actor = staffActor(scope);
  if (!actor) return fail("not-allowed");
  if (!Number.isSafeInteger(codeId) || codeId < 1) return fail("not-found");
  const before = await scope.app.db
    .selectFrom("promo_codes")
    .select(["code", "active"])
    .where("id", "=", codeId)
    .where("campaign_id", "=", campaignId)
    .where("user_id", "is", null)
    .executeTakeFirst();
  if (!before) return fail("not-found");
  if (!before.active) return ok({ code: before.code, already: true });
  await scope.app.db.updateTable("promo_codes").set({ active: false }).where("id", "=", codeId).execute();
  await invalidateCatalogue(scope.app.cache);
  await audit(
    scope.app,
    actor.userId,
    "staff.promotion.code-deactivate",
    { type: "promo_code", id: String(codeId) },
    {
      campaignId,
      code: before.code,
      ip: scope.ip,
    },
  );
  return ok({ code: before.code, already: false });
}
