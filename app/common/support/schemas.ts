// Schemas of the support forms (issue 11 §4, spec 2 §2 "Support"): lenient shapes; server/support checks values.
import * as z from "zod/mini";

export const SUPPORT_TYPES = ["general", "inactive-service", "proof-of-payment"] as const;
export type SupportType = (typeof SUPPORT_TYPES)[number];
export const SUPPORT_MESSAGE_MAX = 5000;
export const SUPPORT_SUBJECT_MAX = 200;
export const SUPPORT_NAME_MAX = 100;

const anything = z.optional(z.unknown());

export const supportForm = z.object({ email: anything, name: anything, subject: anything, message: anything });
export const closeSupportForm = z.object({ intent: z.literal("close") });

export function isSupportType(v: unknown): v is SupportType {
  return typeof v === "string" && (SUPPORT_TYPES as readonly string[]).includes(v);
}
