// The home area's JSON API (spec 3 §7 "Other", issue 25 item 7): the spam banner's hide action.
import { endpoint, type EndpointTable } from "../http/api/endpoint";
import { ownUser } from "../groups/api";
import { hideCheckSpamMessage } from "./spam-banner";

export const homeApi: EndpointTable = [
  endpoint({
    method: "PUT",
    path: "/api/users/:id/hide-check-spam-message",
    auth: "user",
    summary: "Hides the 'check your spam folder' banner for good → { user } (as GET /api/account); anyone else's {id} is a 403.",
    handler: ownUser(async ({ scope }) => hideCheckSpamMessage(scope)),
  }),
];
