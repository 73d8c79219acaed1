// The states of an order after it is placed (issue 11 §1, spec 2 §4) and the events that move it. Isomorphic:
// the staff console shows which buttons an order has, the server (server/orders/life.ts) enforces the same table.

export const ORDER_STATUSES = ["placed", "in-progress", "completed", "reedit-requested", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * Events and the states they leave from. `complete` needs at least one deliverable; `request-reedit` is the
 * portal's own event when a rework order of a completed order is placed (ADR 009), and completing that rework
 * order returns the original to `completed` (`rework-completed`).
 */
export const ORDER_EVENTS = {
  start: { from: ["placed", "reedit-requested"], to: "in-progress" },
  complete: { from: ["in-progress"], to: "completed" },
  reopen: { from: ["completed"], to: "in-progress" },
  "request-reedit": { from: ["completed"], to: "reedit-requested" },
  "rework-completed": { from: ["reedit-requested"], to: "completed" },
  cancel: { from: ["placed", "in-progress"], to: "cancelled" },
} as const satisfies Record<string, { from: readonly OrderStatus[]; to: OrderStatus }>;
export type OrderEvent = keyof typeof ORDER_EVENTS;

/** The events staff may trigger by hand in the console (the others happen as consequences). */
export const STAFF_EVENTS = ["start", "complete", "reopen", "cancel"] as const satisfies readonly OrderEvent[];
export type StaffEvent = (typeof STAFF_EVENTS)[number];

export function canTransition(status: string, event: OrderEvent): boolean {
  return (ORDER_EVENTS[event].from as readonly string[]).includes(status);
}

/** Events open from a state, in console order. */
export function eventsFrom(status: string): StaffEvent[] {
  return STAFF_EVENTS.filter((e) => canTransition(status, e));
}

/**
 * What a researcher sees (spec 2 §2 "Order panel"): a placed order billed by invoice and unpaid is "awaiting
 * payment"; a completed one whose files are held back until payment is "awaiting payment" too.
 */
export type DisplayStatus = "awaiting-payment" | "received" | "in-progress" | "completed" | "reedit-requested" | "cancelled";

export const ORDER_DATE_FILTER = /^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/\d{4}$/;
