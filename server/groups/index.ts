// Preferred groups, the public face (spec 3 §2 "Preferred groups", issue 25 item 5, ADR 077). The JSON API table
// (./api) is registered in server/api-tables.ts, not exported here.
export {
  GROUP_JOIN_GENERIC_ERROR,
  joinPreferredGroup,
  leavePreferredGroup,
  preferredGroupOf,
  preferredGroupOfUser,
  type PreferredGroupView,
} from "./membership";
export { createGroup, listGroups, updateGroup, type StaffGroupRow } from "./staff";
