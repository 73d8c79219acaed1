import { LANG_TAG, type SiteLang } from "#common/i18n";
import type { CountryOption } from "#server/kernel/reference";

/** Country names in the page's language (ICU data), sorted for that language. */
export function localizeCountries(countries: CountryOption[], lang: SiteLang) {
  const tag = LANG_TAG[lang];
  const names = new Intl.DisplayNames([tag], { type: "region", fallback: "none" });
  return countries
    .map((c) => {
      let name: string | undefined;
      try {
        name = names.of(c.iso2);
      } catch {
        name = undefined;
      }
      return { iso2: c.iso2, name: name ?? c.name, callingCode: c.callingCode, phoneMin: c.phoneMin, phoneMax: c.phoneMax };
    })
    .sort((a, b) => a.name.localeCompare(b.name, tag));
}

/** Default calling-code country per site language (spec default +86/CN on the Chinese site). */
export const DEFAULT_PHONE_COUNTRY: Record<SiteLang, string> = { en: "US", cn: "CN", jp: "JP", br: "BR", es: "ES" };

/** The calling-code country a phone field starts at: +86 / China on the China site (its host or cn pages). */
export function defaultPhoneCountry(lang: SiteLang, siteLocalization: string | null | undefined): string {
  return siteLocalization === "CN" ? "CN" : DEFAULT_PHONE_COUNTRY[lang];
}
