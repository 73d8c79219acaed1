// The methods a payment form offers this user now (spec 2 §6): the facts of the scope (localisation, staff acting,
// the account's flags) gathered once and handed to the one rule function (rules.ts).
import { methodFacts, type BrazilChoice, type PaymentPurposeName } from "#common/payments/methods";
import type { Scope } from "../scope";
import type { OrderFormRow } from "../order-form";
import { availableMethods, type MethodChoice, type MethodContext } from "./rules";
import { getProvider, usableProviders } from "./providers";
import { hasUsableCredits } from "./balances";

export interface OfferInput {
  purpose: PaymentPurposeName;
  /** Minor units still to pay. */
  total: number;
  /** The order form being paid (order purpose): its goal and applied voucher count. */
  form?: Pick<OrderFormRow, "customer_goal" | "voucher_code"> | null;
  adminCreated?: boolean;
  requireFapiao?: boolean;
  brazilChoice?: BrazilChoice | null;
  /** The payment's currency, for the credits' worth (else the user's own currency). */
  currencyIso?: string;
}

export interface OfferedMethod extends MethodChoice {
  /** The provider runs as its built-in sandbox: the page labels the method "test mode". */
  sandbox: boolean;
}

export async function methodContext(scope: Scope, input: OfferInput): Promise<MethodContext> {
  const [snapshot, user] = await Promise.all([
    scope.app.config.snapshot(),
    scope.userId
      ? scope.app.db
          .selectFrom("users")
          .select(["wfoe_migrated", "voucher_available", "currency_iso"])
          .where("id", "=", scope.userId)
          .executeTakeFirst()
      : null,
  ]);
  // Credits are a method of orders and invoices only (the prepay and digital purposes exclude them).
  const creditsRelevant = user && (input.purpose === "order" || input.purpose === "invoices");
  const usableCredits = creditsRelevant ? await hasUsableCredits(scope, input.currencyIso ?? user.currency_iso.trim()) : false;
  const localization = snapshot.localizations.find((l) => l.identity === scope.localization) ?? snapshot.localizations[0];
  return {
    purpose: input.purpose,
    localizationMethods: localization?.paymentMethods ?? [],
    total: input.total,
    impersonating: scope.impersonatorId !== null,
    adminCreated: Boolean(input.adminCreated),
    multimedia: input.form?.customer_goal === "multimedia",
    requireFapiao: Boolean(input.requireFapiao),
    brazilChoice: input.brazilChoice ?? null,
    // The order's or invoices' currency (FAPESP: USD); a prepayment is charged in the user's own currency.
    chargeCurrencyIso: input.currencyIso ?? user?.currency_iso.trim() ?? null,
    // The real balances (issue 13): worth at least 1 in the user's currency, invoices not hidden.
    usableCredits,
    voucherApplied: Boolean(input.form?.voucher_code) && Boolean(user?.voucher_available),
    localEntity: Boolean(user?.wfoe_migrated),
    providers: usableProviders(scope.app.env),
    prepayBankTransfer: snapshot.config.prepayBankTransfer,
  };
}

export async function offeredMethods(scope: Scope, input: OfferInput): Promise<OfferedMethod[]> {
  const ctx = await methodContext(scope, input);
  return availableMethods(ctx).map((m) => {
    const provider = methodFacts(m.id).provider;
    return { ...m, sandbox: provider ? getProvider(scope.app, provider).sandbox : false };
  });
}

/** The ids of the methods that may be used now (offered and not disabled). */
export async function offeredMethodIds(scope: Scope, input: OfferInput): Promise<number[]> {
  return availableMethods(await methodContext(scope, input))
    .filter((m) => !m.disabled)
    .map((m) => m.id);
}
