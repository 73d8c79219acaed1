import { LANG_TAG, type SiteLang } from "#common/i18n";
import type { CountryOption } from "#server/kernel/reference";

type LocalizedCountry = { iso2: string; name: string; callingCode: string; phoneMin: number; phoneMax: number };

// listCountries answers the same array for a minute per process: its localised, sorted copies are kept with it
// (sorting ~250 names with the language's collation on every register or account page was a measurable cost).
const localized = new WeakMap<CountryOption[], Map<SiteLang, LocalizedCountry[]>>();

/** Country names in the page's language (ICU data), sorted for that language. Treat the answer as read-only. */
export function localizeCountries(countries: CountryOption[], lang: SiteLang): LocalizedCountry[] {
  let byLang = localized.get(countries);
  if (!byLang) localized.set(countries, (byLang = new Map()));
  let hit = byLang.get(lang);
  if (!hit) byLang.set(lang, (hit = localize(countries, lang)));
  return hit;
}

function localize(countries: CountryOption[], lang: SiteLang): LocalizedCountry[] {
  const tag = LANG_TAG[lang];
  const collator = new Intl.Collator(tag);
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
    .sort((a, b) => collator.compare(a.name, b.name));
}

/** Default calling-code country per site language (spec default +86/CN on the Chinese site). */
export const DEFAULT_PHONE_COUNTRY: Record<SiteLang, string> = { en: "US", cn: "CN", jp: "JP", br: "BR", es: "ES" };

/** The calling-code country a phone field starts at: +86 / China on the China site (its host or cn pages). */
export function defaultPhoneCountry(lang: SiteLang, siteLocalization: string | null | undefined): string {
  return siteLocalization === "CN" ? "CN" : DEFAULT_PHONE_COUNTRY[lang];
}
