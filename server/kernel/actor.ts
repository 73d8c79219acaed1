// Who makes a change (issue 21 §5): a staff member, the researcher (perhaps with a staff member viewing as them),
// or the portal itself. Every area records it (order history, ledger movements, audit rows), so the type lives on
// the lowest floor: before, it was orders/life.ts's, and billing, payments and balances imported orders for it.
// Kernel files are imported by path (no barrel), and import no area.

/** Who makes a change: a staff member or the researcher (with the staff member viewing as them), or the portal. */
export interface Actor {
  userId: number | null;
  impersonatorId?: number | null;
}

/** The portal itself (jobs, provider notifications). */
export const SYSTEM_ACTOR: Actor = { userId: null };
