// The researcher's balances as GET /api/invoice/load shows them (spec 2 §3 "Prepayment", "Credit", §7): the
// ledger's own view, so the invoices API reads it from billing (it lived in payments/balances.ts, which made
// billing import payments; ADR 056).
import type { Scope } from "../../scope";
import { currencyRate, getCatalogue } from "../../catalogue";
import { totalIn, userBalances } from "./ledger";

/**
 * The user's credits and prepayments as GET /api/invoice/load answers them (spec 2 §3 "Prepayment", "Credit"):
 * credits only with a positive balance, and usdCredits their worth in USD cents. Empty when invoices are hidden.
 */
export async function balancesOfUser(scope: Scope, now = new Date()) {
  const none = { credits: [] as unknown[], prepayments: [] as unknown[], usdCredits: 0 };
  if (!scope.userId) return none;
  const user = await scope.app.db.selectFrom("users").select("hide_invoices").where("id", "=", scope.userId).executeTakeFirst();
  if (!user || user.hide_invoices) return none;
  const [catalogue, b] = await Promise.all([getCatalogue(scope.app), userBalances(scope.app.db, scope.userId, now)]);
  const usd = currencyRate(catalogue, "USD", now);
  const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);
  return {
    credits: b.credits
      .filter((c) => c.available > 0)
      .map((c) => ({
        referenceNumber: c.number,
        currencyIso: c.currencyIso,
        totalAmount: c.total,
        balance: c.available,
        transactionDate: day(c.createdAt),
        expirationDate: day(c.expiresAt),
      })),
    prepayments: b.prepayments.map((p) => ({
      retainerInvoiceNumber: p.number,
      currencyIso: p.currencyIso,
      totalAmount: p.total,
      availablePrepaymentAmount: p.available,
      balance: p.available,
      transactionDate: day(p.createdAt),
      expirationDate: day(p.expiresAt),
    })),
    usdCredits: usd ? totalIn(b.credits, usd, catalogue, now) : 0,
  };
}
