// The visitor's order form in progress, for the scope's owner (the signed-in user, else the draft key).
import { sql } from "kysely";
import type { Scope } from "../scope";
import { getUserView } from "../accounts/account";
import { localizationForHost, type Localization } from "../config";
import { createOrderForm, currentDraft, hashDraftKey, ownerOf, resetDrafts, type OrderFormRow } from "./store";

/** The order form in progress of whoever the scope acts for, or null. */
export function currentDraftOf(scope: Scope): Promise<OrderFormRow | null> {
  return currentDraft(scope.app.db, ownerOf(scope));
}

/** "Start over": the drafts of whoever the scope acts for are cleared. */
export function resetDraftsOf(scope: Scope): Promise<void> {
  return resetDrafts(scope.app.db, ownerOf(scope));
}

/** A new page visitor's currency: the site's, except CNY which only the China site offers (spec 1 §9). */
export function siteDraftCurrency(site: Localization): string {
  return site.defaultCurrency === "CNY" && site.identity !== "CN" ? "USD" : site.defaultCurrency;
}

/**
 * The order form in progress, or a new one in the user's currency (a visitor: `defaultCurrency` of the
 * site the request came to). `created` tells which.
 */
export async function openDraft(
  scope: Scope,
  defaultCurrency: (site: Localization) => string = siteDraftCurrency,
): Promise<{ form: OrderFormRow; created: boolean }> {
  const existing = await currentDraftOf(scope);
  if (existing) return { form: existing, created: false };
  const [snapshot, user] = await Promise.all([
    scope.app.config.snapshot(),
    scope.userId ? getUserView(scope.app, scope.userId) : Promise.resolve(null),
  ]);
  const currencyIso = user?.currencyIso ?? defaultCurrency(localizationForHost(snapshot.localizations, scope.host));
  // One draft per owner (issue 22 item 8): requests that all found none above queue on the owner's transaction lock
  // and look again once they hold it, so only the first creates; the others answer the form it made. Nothing else
  // is read inside (no second pool client under a lock, ADR 048). No unique index: signing in claims an anonymous
  // draft beside the account's own, and a rework form is a draft too.
  const owner = ownerOf(scope);
  const lockKey = owner.userId ? `order-form-draft:user:${owner.userId}` : `order-form-draft:key:${hashDraftKey(owner.draftKey ?? "")}`;
  return scope.app.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${lockKey}))`.execute(trx);
    const raced = await currentDraft(trx, owner);
    if (raced) return { form: raced, created: false };
    return { form: await createOrderForm(trx, owner, { currencyIso }), created: true };
  });
}
