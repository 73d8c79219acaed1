// Preferred groups, the JSON API (spec 3 §7 "Preferred group", issue 25 item 5): join by code and leave, one's own
// user only ({id}: one's identity or numeric id; anyone else's is a 403, as GET /api/users/{id}/order-count).
import { fail, ok } from "#common/result";
import { joinGroupSchema, type JoinGroupInput } from "#common/groups/schemas";
import { endpoint, type EndpointTable, type HandlerAnswer, type HandlerInput } from "../http/api/endpoint";
import { joinPreferredGroup, leavePreferredGroup } from "./membership";

/** A call on one's own user only: `{id}` must be the signed-in user's identity or numeric id, else 403. */
export function ownUser<B>(handler: (input: HandlerInput<B, undefined>) => Promise<HandlerAnswer>) {
  return (input: HandlerInput<B, undefined>) => {
    const user = input.scope.session?.user;
    return user && (input.params.id === user.identity || input.params.id === String(user.id)) ? handler(input) : fail("forbidden");
  };
}

export const groupsApi: EndpointTable = [
  endpoint({
    method: "POST",
    path: "/api/users/:id/preferred-group",
    auth: "user",
    body: joinGroupSchema,
    summary:
      "Joins the preferred group of { groupCode } → { message, preferredGroup }; a wrong, inactive or unknown code is one generic 400, rate limited (429).",
    handler: ownUser<JoinGroupInput>(async ({ scope, body }) => {
      const r = await joinPreferredGroup(scope, body);
      return r.ok ? ok({ message: "You have been associated with the group code you entered.", preferredGroup: r.value }) : r;
    }),
  }),
  endpoint({
    method: "DELETE",
    path: "/api/users/:id/preferred-group",
    auth: "user",
    summary: "Leaves one's preferred group → { message: 'preferred-group-leave-success', left }.",
    handler: ownUser(async ({ scope }) => {
      const r = await leavePreferredGroup(scope);
      return r.ok ? ok({ message: "preferred-group-leave-success", left: r.value.left }) : r;
    }),
  }),
];
