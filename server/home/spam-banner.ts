// The "check your spam folder" banner (spec 3 §4 "Spam message banner", issue 25 item 7, ADR 077): shown while the
// user has not hidden it and their e-mail address is not verified yet (our first e-mails — the verification link —
// are the ones that land in spam). Hidden for good with a form POST or PUT /api/users/{id}/hide-check-spam-message.
import { ok, fail, type Result } from "#common/result";
import type { Scope } from "../scope";
import { accountOf } from "../accounts/account";
import { invalidateUser } from "../accounts/user-cache";

/** Hides the banner (idempotent) → `{ user }`, the user as GET /api/account shows it. */
export async function hideCheckSpamMessage(scope: Scope): Promise<Result<{ user: Awaited<ReturnType<typeof accountOf>>["user"] }>> {
  if (scope.userId === null) return fail("sign-in-required");
  await scope.app.db.updateTable("users").set({ hide_check_spam_message: true }).where("id", "=", scope.userId).execute();
  await invalidateUser(scope.app, scope.userId);
  return ok({ user: (await accountOf(scope)).user });
}
