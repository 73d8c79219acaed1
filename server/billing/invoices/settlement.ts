// What settled an invoice's ledger row of kind payment (ADR 052): printed by its kind on the invoice page and the
// documents, so that a balance spend is never shown as money received nor by the ledger's internal key.
import { PAYMENT_METHOD } from "#common/payments/methods";

/** Money received (a provider's or staff's payment), or a balance spent: prepayment or credit. */
export type SettlementKind = "payment" | "prepayment" | "credit";

/**
 * What a ledger row of kind payment settled the invoice with: a balance spend is written with the credits method
 * and the reference `prepayment:<number>:<movement>` or `credit:<number>:<movement>` (server/balances/ledger.ts).
 */
export function settlementOf(methodId: number, reference: string): { kind: SettlementKind; number: string | null } {
  const m = /^(prepayment|credit):([^:]+):\d+$/.exec(reference);
  if (methodId === PAYMENT_METHOD.credits && m) return { kind: m[1] as SettlementKind, number: m[2] };
  return { kind: "payment", number: null };
}
