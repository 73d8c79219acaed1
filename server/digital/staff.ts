// The digital editing trial flag (issue 24 item 1): staff (not while viewing as someone) let a researcher upload to
// digital editing without a subscription, or take that back. Audited. Another staff account is not found.
import { fail, ok, type Result } from "#common/result";
import type { Scope } from "../scope";
import { audit } from "../kernel/audit";
import { setUserState, userState } from "./store";

export async function setDigitalEditingTrial(
  scope: Scope,
  userId: number,
  enabled: boolean,
): Promise<Result<{ digitalEditingTrial: boolean }>> {
  const staff = scope.session;
  if (!staff?.user.isStaff || staff.impersonatorId) return fail("not-allowed");
  if (!Number.isSafeInteger(userId) || userId <= 0) return fail("not-found");
  const user = await scope.app.db.selectFrom("users").select(["id", "is_staff"]).where("id", "=", userId).executeTakeFirst();
  if (!user || user.is_staff) return fail("not-found");
  await scope.app.db.transaction().execute(async (trx) => {
    await setUserState(trx, userId, { editing_trial: enabled });
    await audit({ db: trx }, staff.user.id, "digital.editing-trial", { type: "user", id: String(userId) }, { enabled });
  });
  return ok({ digitalEditingTrial: (await userState(scope.app.db, userId)).editingTrial });
}
