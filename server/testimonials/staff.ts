// Testimonials in the staff console (issue 25 item 4): the list (submitted first), one testimonial with its photo
// (served only to staff), approve or reject — audited. Staff viewing as a researcher may not review.
import { fail, ok, type Result } from "#common/result";
import type { TestimonialStatus } from "../../db/types-rewards";
import type { Scope } from "../scope";
import { audit } from "../kernel/audit";
import { testimonialPhotoKey } from "./submit";

export interface StaffTestimonial {
  id: string;
  text: string;
  status: TestimonialStatus;
  hasPhoto: boolean;
  photoType: string | null;
  createdAt: string;
  reviewedAt: string | null;
  researcher: { name: string; email: string; identity: string };
  reviewedBy: string | null;
}

const staffOf = (scope: Scope) => {
  const s = scope.session;
  return s?.user.isStaff && !s.impersonatorId ? s.user.id : null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function query(scope: Scope) {
  return scope.app.db
    .selectFrom("testimonials as t")
    .innerJoin("users as u", "u.id", "t.user_id")
    .leftJoin("users as r", "r.id", "t.reviewed_by")
    .select([
      "t.id",
      "t.text",
      "t.status",
      "t.photo_path",
      "t.photo_type",
      "t.created_at",
      "t.reviewed_at",
      "u.first_name",
      "u.last_name",
      "u.email",
      "u.identity",
      "r.email as reviewer",
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof query>["executeTakeFirstOrThrow"]>>;
const view = (r: Row): StaffTestimonial => ({
  id: r.id,
  text: r.text,
  status: r.status,
  hasPhoto: Boolean(r.photo_path),
  photoType: r.photo_type,
  createdAt: new Date(r.created_at).toISOString(),
  reviewedAt: r.reviewed_at ? new Date(r.reviewed_at).toISOString() : null,
  researcher: { name: `${r.first_name} ${r.last_name}`.trim(), email: r.email, identity: r.identity },
  reviewedBy: r.reviewer,
});

/** Testimonials, those waiting for review first, newest first. Errors: `not-allowed`. */
export async function listTestimonials(scope: Scope, status?: TestimonialStatus): Promise<Result<StaffTestimonial[]>> {
  if (staffOf(scope) === null) return fail("not-allowed");
  let q = query(scope);
  if (status) q = q.where("t.status", "=", status);
  const rows = await q
    .orderBy((eb) => eb.case().when("t.status", "=", "submitted").then(0).else(1).end())
    .orderBy("t.created_at", "desc")
    .limit(200)
    .execute();
  return ok(rows.map(view));
}

/** One testimonial. Errors: `not-allowed`, `not-found`. */
export async function staffTestimonial(scope: Scope, id: string): Promise<Result<StaffTestimonial>> {
  if (staffOf(scope) === null) return fail("not-allowed");
  if (!UUID.test(id)) return fail("not-found");
  const row = await query(scope).where("t.id", "=", id).executeTakeFirst();
  return row ? ok(view(row)) : fail("not-found");
}

/** Approves or rejects one testimonial (again allowed: staff may change their mind), audited. */
export async function reviewTestimonial(
  scope: Scope,
  id: string,
  decision: "approve" | "reject",
): Promise<Result<{ id: string; status: TestimonialStatus }>> {
  const staffId = staffOf(scope);
  if (staffId === null) return fail("not-allowed");
  if (!UUID.test(id)) return fail("not-found");
  const status: TestimonialStatus = decision === "approve" ? "approved" : "rejected";
  const done = await scope.app.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("testimonials")
      .set({ status, reviewed_by: staffId, reviewed_at: new Date() })
      .where("id", "=", id)
      .returning(["id", "user_id"])
      .executeTakeFirst();
    if (row) await audit({ db: trx }, staffId, `testimonial.${decision}`, { type: "testimonial", id }, { userId: row.user_id });
    return row;
  });
  return done ? ok({ id, status }) : fail("not-found");
}

/** The stored photo, for staff only. Errors: `not-allowed`, `not-found`. */
export async function testimonialPhoto(scope: Scope, id: string): Promise<Result<{ data: Buffer; type: string }>> {
  if (staffOf(scope) === null) return fail("not-allowed");
  if (!UUID.test(id)) return fail("not-found");
  const row = await scope.app.db.selectFrom("testimonials").select(["photo_path", "photo_type"]).where("id", "=", id).executeTakeFirst();
  if (!row?.photo_path || !row.photo_type || !/^[0-9a-f-]{36}\.(jpg|png|webp)$/.test(row.photo_path)) return fail("not-found");
  // A re-encoded photo is small (TESTIMONIAL_PHOTO_STORED_SIDE): read whole from the store, sent with its length.
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await scope.app.storage.read(testimonialPhotoKey(row.photo_path))) chunks.push(chunk as Buffer);
    return ok({ data: Buffer.concat(chunks), type: row.photo_type });
  } catch {
    return fail("not-found");
  }
}
