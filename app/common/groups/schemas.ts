// Preferred groups (spec 3 §2 "Preferred groups", issue 25 item 5): the join form and body, the staff console's
// group form. Messages are translation keys of the "home" namespace.
import * as z from "zod/mini";

import { GROUP_CODE_MAX } from "./outcomes";

export * from "./outcomes";

const text = z.optional(z.string());

/** Join a group by its code: the page form (intent join) and POST /api/users/{id}/preferred-group alike. */
export const joinGroupSchema = z.object({
  intent: text,
  groupCode: z
    .string({ error: "home:errors.group-code-required" })
    .check(
      z.trim(),
      z.minLength(1, { error: "home:errors.group-code-required" }),
      z.maxLength(GROUP_CODE_MAX, { error: "home:errors.preferred-group-join-generic-error" }),
    ),
});
export type JoinGroupInput = z.output<typeof joinGroupSchema>;

/** Leave (intent leave): no field but the intent. */
export const leaveGroupSchema = z.object({ intent: text });

/** Staff: a new group or an edit of one (id set). Discount as typed: a percent ('10') or an amount in USD ('25.00'). */
export const staffGroupForm = z.object({
  intent: text,
  id: text,
  code: text,
  name: text,
  kind: text,
  discount: text,
  greetingText: text,
  active: text,
  membershipDisplayed: text,
  shareable: text,
});
export type StaffGroupInput = z.output<typeof staffGroupForm>;
