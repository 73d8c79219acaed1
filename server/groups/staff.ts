// Preferred groups in the staff console (issue 25 item 5, ADR 077): the list with member counts, a new group, an
// edit of discount, greeting, active and membership displayed. Staff only (not while viewing as a researcher);
// every write audited; the catalogue (which prices the group discount) is invalidated after each write.
import { fail, invalid, ok, type Result } from "#common/result";
import { majorText, parseMajor } from "#common/money";
import type { StaffGroupInput } from "#common/groups/schemas";
import type { Scope } from "../scope";
import { audit } from "../kernel/audit";
import { invalidateCatalogue } from "../catalogue";

const CODE = /^[A-Z0-9][A-Z0-9-]{1,63}$/;

export interface StaffGroupRow {
  id: number;
  code: string;
  name: string;
  /** A percent when percentageDiscount; else an amount in USD cents. */
  discount: number;
  percentageDiscount: boolean;
  active: boolean;
  membershipDisplayed: boolean;
  shareable: boolean;
  greetingText: string | null;
  members: number;
}

function staffId(scope: Scope): number | null {
  const s = scope.session;
  return s?.user.isStaff && !s.impersonatorId ? s.user.id : null;
}

export async function listGroups(scope: Scope): Promise<Result<StaffGroupRow[]>> {
  if (staffId(scope) === null) return fail("not-allowed");
  const rows = await scope.app.db
    .selectFrom("preferred_groups as g")
    .select([
      "g.id",
      "g.code",
      "g.name",
      "g.discount",
      "g.percentage_discount",
      "g.active",
      "g.membership_displayed",
      "g.shareable",
      "g.greeting_text",
    ])
    .select((eb) =>
      eb.selectFrom("users as u").select(eb.fn.countAll<string>().as("n")).whereRef("u.preferred_group_id", "=", "g.id").as("members"),
    )
    .orderBy("g.code")
    .execute();
  return ok(
    rows.map((r) => ({
      id: r.id,
      code: r.code,
      name: r.name,
      discount: Math.round(Number(r.discount) * 100) / 100,
      percentageDiscount: r.percentage_discount,
      active: r.active,
      membershipDisplayed: r.membership_displayed,
      shareable: r.shareable,
      greetingText: r.greeting_text,
      members: Number(r.members ?? 0),
    })),
  );
}

interface GroupValues {
  name: string;
  discount: string;
  percentage_discount: boolean;
  greeting_text: string | null;
  active: boolean;
  membership_displayed: boolean;
  shareable: boolean;
}

/** The form's values, checked. Field errors `home:staff.errors.*`. */
function groupValues(input: StaffGroupInput): Result<GroupValues> {
  const errors: Record<string, string> = {};
  const name = (input.name ?? "").trim();
  if (!name || name.length > 200) errors.name = "home:staff.errors.name-required";
  const percent = input.kind !== "amount";
  let discount: string | null = null;
  const typed = (input.discount ?? "").trim();
  if (percent) {
    // A percent with up to two decimals, above 0 and at most 100.
    const bp = parseMajor(typed, 2);
    if (bp === null || bp > 10_000) errors.discount = "home:staff.errors.invalid-percent";
    else discount = majorText(bp, 2);
  } else {
    // An amount in US dollars, stored in cents.
    const cents = parseMajor(typed, 2);
    if (cents === null || cents > 100_000_000) errors.discount = "home:staff.errors.invalid-amount";
    else discount = String(cents);
  }
  const greeting = (input.greetingText ?? "").trim();
  if (greeting.length > 500) errors.greetingText = "home:staff.errors.greeting-too-long";
  if (Object.keys(errors).length || discount === null) return invalid(errors);
  return ok({
    name,
    discount,
    percentage_discount: percent,
    greeting_text: greeting || null,
    active: input.active === "on" || input.active === "true",
    membership_displayed: input.membershipDisplayed === "on" || input.membershipDisplayed === "true",
    shareable: input.shareable === "on" || input.shareable === "true",
  });
}

/** A new group. Field errors: code (code-invalid, code-taken) and those of the values. Errors: `not-allowed`. */
export async function createGroup(scope: Scope, input: StaffGroupInput): Promise<Result<{ id: number; code: string }>> {
  const actor = staffId(scope);
  if (actor === null) return fail("not-allowed");
  const code = (input.code ?? "").trim().toUpperCase();
  const values = groupValues(input);
  const errors: Record<string, string> = values.ok ? {} : { ...values.fieldErrors };
  if (!CODE.test(code)) errors.code = "home:staff.errors.code-invalid";
  else if (await scope.app.db.selectFrom("preferred_groups").select("id").where("code", "=", code).executeTakeFirst())
    errors.code = "home:staff.errors.code-taken";
  if (!values.ok || Object.keys(errors).length) return invalid(errors);
  const id = await scope.app.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("preferred_groups")
      .values({ code, ...values.value })
      .onConflict((oc) => oc.column("code").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!row) return null;
    await audit({ db: trx }, actor, "preferred-group.create", { type: "preferred_group", id: String(row.id) }, { code, ...values.value });
    return row.id;
  });
  if (id === null) return invalid({ code: "home:staff.errors.code-taken" });
  await invalidateCatalogue(scope.app.cache);
  return ok({ id, code });
}

/** Changes a group's name, discount, greeting and switches (its code stays). Errors: `not-allowed`, `not-found`. */
export async function updateGroup(scope: Scope, id: number, input: StaffGroupInput): Promise<Result<{ id: number; code: string }>> {
  const actor = staffId(scope);
  if (actor === null) return fail("not-allowed");
  if (!Number.isSafeInteger(id) || id <= 0) return fail("not-found");
  const values = groupValues(input);
  if (!values.ok) return values;
  const code = await scope.app.db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom("preferred_groups").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
    if (!before) return null;
    await trx.updateTable("preferred_groups").set(values.value).where("id", "=", id).execute();
    await audit(
      { db: trx },
      actor,
      "preferred-group.update",
      { type: "preferred_group", id: String(id) },
      {
        code: before.code,
        before: {
          name: before.name,
          discount: String(before.discount),
          percentage_discount: before.percentage_discount,
          greeting_text: before.greeting_text,
          active: before.active,
          membership_displayed: before.membership_displayed,
          shareable: before.shareable,
        },
        after: values.value,
      },
    );
    return before.code;
  });
  if (code === null) return fail("not-found");
  await invalidateCatalogue(scope.app.cache);
  return ok({ id, code });
}
