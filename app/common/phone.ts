// Phone rules shared by the registration form (client) and the server.

/** China phones are capped at 11 digits (spec 1 §5, §9). */
export const CHINA_PHONE_MAX = 11;

export type PhoneError = "contact-number-required" | "contact-number-no-letters-validation" | "contact-number-validation";

export interface PhoneCountry {
  iso2: string;
  phoneMin: number;
  phoneMax: number;
}

/** Required, digits only, and as long as the calling-code country's numbers are (China: exactly 11). */
export function validatePhone(phone: string | undefined, codeCountry: PhoneCountry | undefined): PhoneError | null {
  const value = (phone ?? "").trim();
  if (!value) return "contact-number-required";
  if (!/^\d+$/.test(value)) return "contact-number-no-letters-validation";
  if (!codeCountry) return "contact-number-validation";
  const min = codeCountry.iso2 === "CN" ? CHINA_PHONE_MAX : codeCountry.phoneMin;
  const max = codeCountry.iso2 === "CN" ? CHINA_PHONE_MAX : codeCountry.phoneMax;
  if (value.length < min || value.length > max) return "contact-number-validation";
  return null;
}

/** The most digits a phone input accepts for a calling-code country. */
export function phoneMaxLength(codeCountry: PhoneCountry | undefined): number {
  if (!codeCountry) return 15;
  return codeCountry.iso2 === "CN" ? CHINA_PHONE_MAX : codeCountry.phoneMax;
}
