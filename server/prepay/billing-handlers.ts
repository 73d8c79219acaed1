// How a prepayment follows its payment (issue 21 §1, ADR 056): payments emits `prepaymentSettled` in settle()'s
// transaction and this handler, registered at start-up by server/event-handlers.ts, puts the money on the retainer
// invoice (creditRetainer: once paid, a prepaid balance). Before, payments imported prepay to do it.
import { prepaymentSettled } from "../payments/events";
import { settlePrepayPayment } from "./credit";

export function registerPrepayBillingHandlers(): void {
  prepaymentSettled.on(onPrepaymentSettled);
}

const onPrepaymentSettled: Parameters<typeof prepaymentSettled.on>[0] = async (trx, e) => {
  e.leftOver(await settlePrepayPayment(trx, e.payment, e.actor));
};
