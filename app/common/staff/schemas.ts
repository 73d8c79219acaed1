// Staff forms (spec 1 §2 "Staff"). "View as" names the researcher by identity; an unknown or missing one
// is the domain's `not-found`, not a form error (the button carries it, nobody types it).
import * as z from "zod/mini";

export const impersonationSchema = z.object({
  identity: z.catch(z.string(), ""),
});

export type ImpersonationInput = z.output<typeof impersonationSchema>;
