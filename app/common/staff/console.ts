// The staff operations console's forms (issue 11 §2): the order search, the order page's actions (one
// `intent` each) and the admin order form. Lenient about values: the domain functions check them and answer
// translated field errors (`staffops:errors.*`); a schema only fixes the shape a handler reads.
import * as z from "zod/mini";
import { ORDER_STATUSES, STAFF_EVENTS } from "#common/orders/status";

const text = (max: number) => z.optional(z.string().check(z.maxLength(max)));
const checkbox = z.optional(z.catch(z.boolean(), false));

export const STAFF_ORDER_PAGE_SIZE = 30;

/** GET /staff/orders: every filter optional; a bad value is a field error, not a 500. */
export const staffOrderSearchSchema = z.object({
  number: text(40),
  title: text(200),
  email: text(254),
  status: z.optional(z.enum(ORDER_STATUSES)),
  from: text(10),
  to: text(10),
  page: text(6),
});
export type StaffOrderSearch = z.output<typeof staffOrderSearchSchema>;

export const ORDER_PAGE_INTENTS = ["transition", "payment", "certificate", "override", "remove-deliverable", "upload"] as const;
export type OrderPageIntent = (typeof ORDER_PAGE_INTENTS)[number];

export const transitionSchema = z.object({
  intent: z.literal("transition"),
  event: z.enum(STAFF_EVENTS),
  note: text(2000),
});

export const paymentSchema = z.object({
  intent: z.literal("payment"),
  amount: z.catch(z.string().check(z.maxLength(20)), ""),
  reference: z.catch(z.string().check(z.maxLength(200)), ""),
  receivedOn: z.catch(z.string().check(z.maxLength(10)), ""),
});
export type PaymentForm = z.output<typeof paymentSchema>;

export const certificateSchema = z.object({ intent: z.literal("certificate") });

export const overrideSchema = z.object({ intent: z.literal("override"), value: z.enum(["on", "off"]) });

export const removeDeliverableSchema = z.object({
  intent: z.literal("remove-deliverable"),
  key: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,20}$/)),
});

/** GET /staff/orders/new (admin options of spec 2 §6: suppressInvoiceCreation MUST be chosen, no default). */
export const adminOrderSchema = z.object({
  email: z.catch(z.string().check(z.maxLength(254)), ""),
  projectTitle: z.catch(z.string().check(z.maxLength(500)), ""),
  serviceSlugs: z.optional(z.union([z.string().check(z.maxLength(80)), z.array(z.string().check(z.maxLength(80))).check(z.maxLength(30))])),
  wordCount: z.optional(z.string().check(z.maxLength(12))),
  languageId: z.optional(z.string().check(z.maxLength(12))),
  areaOfStudyId: z.optional(z.string().check(z.maxLength(12))),
  styleOfEnglish: z.optional(z.string().check(z.maxLength(20))),
  currencyIso: z.optional(z.string().check(z.maxLength(3))),
  suppressInvoiceCreation: z.optional(z.enum(["yes", "no"])),
  requireCustomerNotification: checkbox,
  note: text(2000),
});
export type AdminOrderForm = z.output<typeof adminOrderSchema>;
