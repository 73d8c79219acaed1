// Staff forms (spec 1 §2 "Staff"). "View as" names the researcher by identity; an unknown or missing one
// is the domain's `not-found`, not a form error (the button carries it, nobody types it). Anything but a UUID
// is such an unknown one: the column is a uuid, and PostgreSQL refuses to compare it with other text (a 500
// for every malformed "view as" post, issue 14 item 7).
import * as z from "zod/mini";

export const impersonationSchema = z.object({
  identity: z.catch(z.guid(), ""),
});

export type ImpersonationInput = z.output<typeof impersonationSchema>;

// A researcher's account states set by staff (issue 22 item 5, ADR 066): one form per control, told apart by its
// intent; a switch carries "on" or "off".
const onOff = z.enum(["on", "off"]);
export const askCountrySchema = z.object({ intent: z.literal("ask-country") });
export const hideInvoicesSchema = z.object({ intent: z.literal("hide-invoices"), value: onOff });
export const wfoeGroupSchema = z.object({ intent: z.literal("wfoe-group"), value: onOff });
export const wfoeMigratedSchema = z.object({ intent: z.literal("wfoe-migrated") });

export type AccountControl =
  | z.output<typeof askCountrySchema>
  | z.output<typeof hideInvoicesSchema>
  | z.output<typeof wfoeGroupSchema>
  | z.output<typeof wfoeMigratedSchema>;
