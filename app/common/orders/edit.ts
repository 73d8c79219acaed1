// Schemas of the order details page's forms and of the order edit API (issue 11 §4, spec 2 §7). Lenient about
// values (the domain, server/orders/edit.ts, checks them and answers every field error at once): a schema only
// fixes the shape a handler reads.
import * as z from "zod/mini";

const anything = z.optional(z.unknown());

/** PUT /api/order/{externalId}/save: the journal as one object or two fields; services by slug or identity. */
export const orderSaveBody = z.pipe(
  z.object({
    version: anything,
    services: anything,
    serviceIdentities: anything,
    deadline: anything,
    styleOfEnglish: anything,
    journal: anything,
    journalName: anything,
    journalUrl: anything,
    answers: anything,
  }),
  z.transform(({ journal, journalName, journalUrl, services, serviceIdentities, ...rest }) => {
    const j = journal !== null && typeof journal === "object" ? (journal as Record<string, unknown>) : null;
    return {
      ...rest,
      services: services ?? serviceIdentities,
      journalName: j ? (j.name ?? "") : journalName,
      journalUrl: j ? (j.url ?? "") : journalUrl,
    };
  }),
);

/** The edit form of the details page (checkboxes `services`, answers as `answers.<label>`). */
export const orderEditForm = z.object({
  intent: z.literal("save"),
  version: anything,
  services: anything,
  deadline: anything,
  styleOfEnglish: anything,
  journalName: anything,
  journalUrl: anything,
  answers: anything,
});

/** POST /api/order/{externalId}/email-notifications and the thank-you page's form. */
export const notificationEmailsBody = z.object({ notificationEmails: anything });
export const notificationEmailsForm = z.object({ intent: z.literal("notification-emails"), notificationEmails: anything });

/** GET /api/service-details?serviceIdentities=a,b */
export const serviceDetailsQuery = z.object({ serviceIdentities: z._default(z.string(), "") });

/** The re-edit success page's payload (spec 2 §2): base64url JSON `{ files: [{ identity, name }] }`. */
export interface ReworkSuccessData {
  files: { identity: string; name: string }[];
}

const reworkFile = z.object({ identity: z.string().check(z.maxLength(100)), name: z.string().check(z.maxLength(255)) });
const reworkSuccessSchema = z.object({ files: z.array(reworkFile).check(z.maxLength(50)) });

/** Decodes the payload; null for anything that is not one (the page answers 400). Isomorphic (no Buffer). */
export function decodeReworkSuccess(data: string | undefined): ReworkSuccessData | null {
  if (!data) return { files: [] };
  if (data.length > 8000 || !/^[A-Za-z0-9_-]+$/.test(data)) return null;
  try {
    const b64 = data.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (data.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const parsed = reworkSuccessSchema.safeParse(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Encodes the payload (the rework flow links here; tests build links with it). */
export function encodeReworkSuccess(data: ReworkSuccessData): string {
  const bytes = new TextEncoder().encode(JSON.stringify(data));
  let bin = "";
  bytes.forEach((b) => (bin += String.fromCharCode(b)));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
