// ORCID iDs (https://orcid.org): four groups of four characters, the last a check digit (ISO 7064 MOD 11-2,
// "X" for 10). A typo in one digit or two swapped digits fails the check, which a pattern alone lets through.

const ORCID_SHAPE = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/;

/** Whether `value` is an ORCID iD with a correct check digit (empty is not). */
export function isValidOrcid(value: string): boolean {
  if (!ORCID_SHAPE.test(value)) return false;
  const digits = value.replace(/-/g, "");
  let total = 0;
  for (const d of digits.slice(0, 15)) total = (total + Number(d)) * 2;
  const check = (12 - (total % 11)) % 11;
  return digits[15] === (check === 10 ? "X" : String(check));
}
