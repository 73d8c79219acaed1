// The preferred group forms (intent join / leave) of the dashboard and /home (issue 25 item 5): one handler for
// both pages' actions. Success is a 303 to the page with `?group=joined|left`; a refused join is a 400 (429 when
// rate limited) with the page re-rendered and the message under the field. Works without JavaScript.
import { redirect } from "@remix-run/node";
import { parseFields } from "#app/lib/forms.server";
import { joinGroupSchema, type JoinGroupInput } from "#common/groups/schemas";
import { errorStatus } from "#common/result";
import { joinPreferredGroup, leavePreferredGroup, GROUP_JOIN_GENERIC_ERROR } from "#server/groups";
import type { Scope } from "#server/scope";

export interface GroupActionData {
  groupError: string;
  groupCode: string;
}

/** Answers the join and leave intents; null for any other intent (the page's own forms). */
export async function groupIntent(scope: Scope, form: FormData, back: (outcome: "joined" | "left") => string): Promise<Response | null> {
  const intent = form.get("intent");
  if (intent === "leave") {
    const r = await leavePreferredGroup(scope);
    if (!r.ok) throw new Response("Forbidden", { status: errorStatus(r.error) });
    return redirect(back("left"), 303);
  }
  if (intent !== "join") return null;
  const typed = String(form.get("groupCode") ?? "").slice(0, 200);
  const submission = parseFields<JoinGroupInput>(form, joinGroupSchema);
  if (submission.status !== "success") {
    const key = submission.error?.groupCode?.[0] ?? GROUP_JOIN_GENERIC_ERROR;
    return Response.json({ groupError: key, groupCode: typed } satisfies GroupActionData, { status: 400 });
  }
  const r = await joinPreferredGroup(scope, submission.value);
  if (r.ok) return redirect(back("joined"), 303);
  const key = r.error === "too-many-attempts" ? "home:errors.too-many-attempts" : (r.fieldErrors.groupCode ?? GROUP_JOIN_GENERIC_ERROR);
  return Response.json({ groupError: key, groupCode: typed } satisfies GroupActionData, { status: errorStatus(r.error) });
}
