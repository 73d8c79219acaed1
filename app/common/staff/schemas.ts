// Staff forms (spec 1 §2 "Staff"). "View as" names the researcher by identity; an unknown or missing one
// is the domain's `not-found`, not a form error (the button carries it, nobody types it). Anything but a UUID
// is such an unknown one: the column is a uuid, and PostgreSQL refuses to compare it with other text (a 500
// for every malformed "view as" post, issue 14 item 7).
import * as z from "zod/mini";

export const impersonationSchema = z.object({
  identity: z.catch(z.guid(), ""),
});

export type ImpersonationInput = z.output<typeof impersonationSchema>;
