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

/**
 * The country whose numbers use a shared calling code most (+1 is shared by the United States, Canada and
 * some twenty territories; +7 by Russia and Kazakhstan…): the answer when the user's own country is not one
 * of the code's countries.
 */
const MAIN_COUNTRY_OF_CODE: Record<string, string> = {
  "+1": "US",
  "+7": "RU",
  "+39": "IT",
  "+44": "GB",
  "+47": "NO",
  "+61": "AU",
  "+212": "MA",
  "+262": "RE",
  "+290": "SH",
  "+358": "FI",
  "+590": "GP",
  "+599": "CW",
};

/**
 * The country a stored calling code stands for (the account keeps the code, not the country): the user's
 * own country when its code is this one (a Canadian's +1 is Canada), else the code's main country, else the
 * first country with the code. Issue 9 §3.14: a US researcher's +1 came back as American Samoa.
 */
export function phoneCountryFor<C extends { iso2: string; callingCode: string }>(
  callingCode: string | null | undefined,
  countries: readonly C[],
  userCountryIso2?: string | null,
): C | undefined {
  if (!callingCode) return undefined;
  const matching = countries.filter((c) => c.callingCode === callingCode);
  return (
    matching.find((c) => c.iso2 === userCountryIso2) ??
    matching.find((c) => c.iso2 === MAIN_COUNTRY_OF_CODE[callingCode]) ??
    [...matching].sort((a, b) => a.iso2.localeCompare(b.iso2))[0]
  );
}
