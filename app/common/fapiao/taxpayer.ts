// Chinese taxpayer numbers (纳税人识别号) as a fapiao's buyer gives them (/work/shared/PAYMENTS.md "China:
// taxpayer numbers and fapiao"). Written here, not taken from npm: the `stdnum` validator was measured to reject
// valid codes whose check character is 0 and registration-authority letters such as Y.
//
// Accepted forms (6–20 upper-case letters or digits, spec 2 §5):
// - 18 characters: a unified social credit code (GB 32100-2015), its check character and the check of its embedded
//   organisation code both right; or a personal resident ID (GB 11643, ISO 7064 MOD 11-2).
// - 15 characters: the older region code (6 digits) + organisation code (GB 11714, with its check character).
// - 20 characters: the older personal form, a resident ID + 2 characters.
// - Any other length from 6 to 20: accepted by shape only (foreign and special registrations have no check).

/** The code's 31 characters: digits and upper-case letters without I, O, Z, S, V. */
export const USCC_ALPHABET = "0123456789ABCDEFGHJKLMNPQRTUWXY";
const USCC_SHAPE = /^[0-9A-HJ-NPQRTUWXY]{18}$/;
const ORG_WEIGHTS = [3, 7, 9, 10, 5, 8, 4, 2];
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECKS = "10X98765432";

export const TAXPAYER_NUMBER_SHAPE = /^[0-9A-Z]{6,20}$/;

/** Letters count 10–35 in the organisation code (GB 11714), digits themselves. */
const orgValue = (c: string) => (/\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55);

/** The check character of an organisation code's first 8 characters (GB 11714): 10 → X, 11 → 0. */
export function organizationCheck(first8: string): string {
  const sum = [...first8].reduce((s, c, i) => s + orgValue(c) * ORG_WEIGHTS[i], 0);
  const c = 11 - (sum % 11);
  return c === 10 ? "X" : c === 11 ? "0" : String(c);
}

/** A 9-character organisation code whose last character is its check. */
export function isOrganizationCode(code: string): boolean {
  return /^[0-9A-Z]{8}[0-9X]$/.test(code) && organizationCheck(code.slice(0, 8)) === code[8];
}

/** The check character of a credit code's first 17 characters: weights 3^(i−1) mod 31, 31 − (Σ mod 31), 31 → 0. */
export function usccCheck(first17: string): string {
  let weight = 1;
  let sum = 0;
  for (const c of first17) {
    sum += USCC_ALPHABET.indexOf(c) * weight;
    weight = (weight * 3) % 31;
  }
  return USCC_ALPHABET[(31 - (sum % 31)) % 31];
}

/** A unified social credit code: its shape, its check character and its organisation code's check. */
export function isUnifiedSocialCreditCode(code: string): boolean {
  return USCC_SHAPE.test(code) && usccCheck(code.slice(0, 17)) === code[17] && isOrganizationCode(code.slice(8, 17));
}

/** A personal resident ID number (GB 11643): region, birth date, sequence and an ISO 7064 MOD 11-2 check (X for 10). */
export function isResidentId(id: string): boolean {
  if (!/^[1-9]\d{16}[\dX]$/.test(id)) return false;
  // The birth date (characters 7–14) is a real day since 1900: an all-digit credit code is not taken for an ID.
  const [y, m, d] = [Number(id.slice(6, 10)), Number(id.slice(10, 12)), Number(id.slice(12, 14))];
  const birth = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || birth.getUTCMonth() !== m - 1 || birth.getUTCDate() !== d) return false;
  const sum = ID_WEIGHTS.reduce((s, w, i) => s + w * Number(id[i]), 0);
  return ID_CHECKS[sum % 11] === id[17];
}

/** Upper-case, without spaces or hyphens: how people copy the number off a business licence. */
export const normalizeTaxpayerNumber = (raw: string) => raw.replace(/[\s-]/g, "").toUpperCase();

/** A taxpayer number the fapiao may carry (already normalised). */
export function isTaxpayerNumber(n: string): boolean {
  if (!TAXPAYER_NUMBER_SHAPE.test(n)) return false;
  if (n.length === 18) return isUnifiedSocialCreditCode(n) || isResidentId(n);
  if (n.length === 15) return /^\d{6}/.test(n) && isOrganizationCode(n.slice(6));
  if (n.length === 20) return isResidentId(n.slice(0, 18)) && /^[0-9A-Z]{2}$/.test(n.slice(18));
  return true;
}
