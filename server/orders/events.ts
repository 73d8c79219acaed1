// What the orders area tells the areas above it (issue 25): rewards reverse an order's points when it is cancelled,
// referrals credit the referrer once the colleague's first order is paid and completed. In the transition's
// transaction, like billing's events (server/billing/invoices/events.ts): the handlers' writes commit or roll back
// with the order's change. Registered in server/event-handlers.ts.
import type { DB } from "../db";
import type { Actor } from "../kernel/actor";
import { defineEvent } from "../kernel/events";
import type { OrderStatus } from "#common/orders/status";

export interface OrderTransitioned {
  orderId: number;
  externalId: string;
  userId: number;
  /** The event's name (ORDER_EVENTS): 'complete', 'cancel', 'reopen'… */
  event: string;
  from: OrderStatus;
  to: OrderStatus;
  actor: Actor;
}
export const orderTransitioned = defineEvent<DB, OrderTransitioned>("order-transitioned");
