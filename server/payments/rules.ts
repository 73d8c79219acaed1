// Which payment methods a payment form offers (spec 2 §6, spec 3 §6, issue 12 §1): decided here, on the server,
// in one function, from the localisation, who pays (staff acting for a user, an admin-created order), what is
// paid for, the total, the researcher's choices (fapiao, the Brazil choice) and which providers can take payments
// here. The page shows what this returns; the service refuses any other method.
import { PAYMENT_METHOD, methodFacts, type BrazilChoice, type PaymentPurposeName, type ProviderId } from "#common/payments/methods";

export interface MethodContext {
  purpose: PaymentPurposeName;
  /** The localisation's own list of methods (localizations.payment_methods), in its display order. */
  localizationMethods: readonly number[];
  /** Minor units still to pay after credits, prepayment and voucher; at most 0 means nothing is due. */
  total: number;
  /** Staff act for the user (impersonation). */
  impersonating: boolean;
  /** An order staff create for a researcher (spec 2 §6 "Admin-created orders"). */
  adminCreated: boolean;
  /** The order is for multimedia services (customer goal "multimedia"). */
  multimedia: boolean;
  /** The researcher asked for a fapiao: only methods that support one remain (spec 2 §6). */
  requireFapiao: boolean;
  /** The Brazil choice, in the Brazilian localisation; null before it is made (then every method shows). */
  brazilChoice: BrazilChoice | null;
  /** A credit balance worth at least 1 in the user's currency (spec 2 §6, issue 13). */
  usableCredits: boolean;
  /**
   * The currency the provider would be asked to charge, when known: a method whose provider cannot charge in it
   * (a boleto for a dollar invoice) is not offered rather than refused after the researcher chose it.
   */
  chargeCurrencyIso?: string | null;
  /** A valid voucher is applied to this order (spec 2 §4: applying one selects the voucher method). */
  voucherApplied: boolean;
  /** The account was migrated to the Chinese local entity (wfoe_migrated): its two methods show. */
  localEntity: boolean;
  /**
   * The providers that can take payments here (live, or their sandbox in PAYMENTS_MODE=sandbox): a method whose
   * provider is not among them is not offered (issue 21 §3).
   */
  providers: ReadonlySet<ProviderId>;
  /**
   * Config `prepayBankTransfer`: the prepay form lets bank transfer be chosen. Off (the default), the form shows it
   * disabled, as spec 2 §6 and spec 3 §6 say (ADR 067).
   */
  prepayBankTransfer: boolean;
}

export interface MethodChoice {
  id: number;
  /** Shown but not selectable (spec 3 §6: the prepay form shows bank transfer disabled). */
  disabled: boolean;
}

const LOCAL_ENTITY = new Set<number>([PAYMENT_METHOD.localEntityTransfer, PAYMENT_METHOD.localEntityOnline]);
/** Methods that are not chosen from the list but follow from the situation. */
const SITUATIONAL = new Set<number>([PAYMENT_METHOD.free, PAYMENT_METHOD.voucher, PAYMENT_METHOD.credits]);

/** Methods each purpose never offers (spec 2 §6 prepay, spec 3 §6 digital purchases). */
const EXCLUDED: Record<PaymentPurposeName, ReadonlySet<number>> = {
  order: new Set(),
  // Invoices are already issued: methods that would bill by another invoice, and vouchers (they discount an
  // order while it is formed), have no meaning when paying them.
  invoices: new Set([
    PAYMENT_METHOD.bankTransfer,
    PAYMENT_METHOD.localEntityTransfer,
    PAYMENT_METHOD.localEntityOnline,
    PAYMENT_METHOD.voucher,
  ]),
  prepay: new Set([PAYMENT_METHOD.alipay, PAYMENT_METHOD.credits, PAYMENT_METHOD.voucher]),
  digital: new Set([PAYMENT_METHOD.bankTransfer, PAYMENT_METHOD.boleto, PAYMENT_METHOD.credits, PAYMENT_METHOD.voucher]),
};
/**
 * Shown disabled. Spec 2 §6 and spec 3 §6: the prepay form "disables bank transfer" — the default (ADR 067). An
 * installation may let it be chosen (config `prepayBankTransfer`): it then issues the retainer invoice unpaid and
 * nothing is spendable until staff record the money (ADR 040).
 */
const disabledFor = (ctx: MethodContext, id: number): boolean =>
  ctx.purpose === "prepay" && id === PAYMENT_METHOD.bankTransfer && !ctx.prepayBankTransfer;

export function availableMethods(ctx: MethodContext): MethodChoice[] {
  const choice = (id: number): MethodChoice => ({ id, disabled: disabledFor(ctx, id) });
  // Nothing due: the method becomes free, or the voucher that covered it (spec 2 §4).
  if (ctx.total <= 0) return [choice(ctx.voucherApplied && ctx.purpose === "order" ? PAYMENT_METHOD.voucher : PAYMENT_METHOD.free)];
  // Staff create orders for researchers who pay them later from their invoice (ADR 030): bank transfer, or
  // the researcher's credits.
  if (ctx.purpose === "order" && ctx.adminCreated)
    return [PAYMENT_METHOD.bankTransfer, ...(ctx.usableCredits ? [PAYMENT_METHOD.credits] : [])].map(choice);
  // Multimedia orders: bank transfer only, and only when staff act for the user; others see every other method.
  if (ctx.purpose === "order" && ctx.multimedia && ctx.impersonating) return [choice(PAYMENT_METHOD.bankTransfer)];

  const ids = ctx.localizationMethods.filter((id) => {
    if (EXCLUDED[ctx.purpose].has(id)) return false;
    if (id === PAYMENT_METHOD.credits) return ctx.usableCredits;
    if (SITUATIONAL.has(id)) return false;
    if (LOCAL_ENTITY.has(id)) return ctx.localEntity;
    if (ctx.purpose === "order" && ctx.multimedia && id === PAYMENT_METHOD.bankTransfer) return false;
    const facts = methodFacts(id);
    if (facts.provider && !ctx.providers.has(facts.provider)) return false;
    if (facts.currencies && ctx.chargeCurrencyIso && !facts.currencies.includes(ctx.chargeCurrencyIso)) return false;
    if (ctx.requireFapiao && !facts.supportsFapiao) return false;
    if (ctx.brazilChoice === "fapesp") return facts.supportsFapesp;
    if (ctx.brazilChoice === "allpago") return facts.brazilOnly;
    if (ctx.brazilChoice === "no-requirements") return !facts.brazilOnly;
    return true;
  });
  return ids.map(choice);
}

/** Whether `id` may be used now: offered by availableMethods and not disabled. */
export function methodAllowed(ctx: MethodContext, id: number): boolean {
  return availableMethods(ctx).some((m) => m.id === id && !m.disabled);
}

/** The localisation offers the Brazil choice (its methods include the local Brazilian ones). */
export function offersBrazilChoice(localizationMethods: readonly number[]): boolean {
  return localizationMethods.some((id) => methodFacts(id).brazilOnly);
}
