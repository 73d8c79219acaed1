// When a fapiao (Chinese tax invoice) may be asked for (spec 2 §6, issue 13 §4). Isomorphic: pages show the
// fapiao form, column or link from these, and the server refuses by the same rules.

/**
 * The order fapiao form (asked for while paying) applies only when the feature is on, the researcher's country is
 * China and their localisation does not process fapiao after payment (there, the stored-fapiao pages serve).
 */
export function orderFapiaoApplies(f: { enabled: boolean; userCountryIso2: string | null; allowsAfterPayment: boolean }): boolean {
  return f.enabled && f.userCountryIso2 === "CN" && !f.allowsAfterPayment;
}

/**
 * Retainer invoices are numbered "P" + the issuing localisation + digits (PCN100001, PUS100001). One issued by
 * the US entity cannot carry a Chinese fapiao: the prepayments list shows '--' for it (spec 2 §6).
 */
export const US_RETAINER_PATTERN = /^PUS\d+$/;
export const prepaymentTakesFapiao = (retainerInvoiceNumber: string) => !US_RETAINER_PATTERN.test(retainerInvoiceNumber);
