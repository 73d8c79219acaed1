// Server-side i18n for Remix: the request's language (URL prefix, else the language cookie, else
// Accept-Language; spec 1 §4 "Start-up") and the loaders' translators come from remix-i18next
// (server/http/request-language.ts, server/i18n/locale.ts; ADR 014); components render with app/lib/translate.tsx (ADR 011).
import { resourcesByTag } from "#server/i18n";
import { detectLang } from "#server/http/request-language";
import { requestTranslator } from "#server/i18n/locale";
import { DEFAULT_NS, LANG_TAG, type SiteLang } from "#common/i18n";
import { Translator, type Resources } from "./lib/translate";

export { detectLang };

const translators = new Map<SiteLang, Translator>();

/** The translator components render with (shared across requests: the resources never change while the process runs). */
export function translatorFor(lang: SiteLang): Translator {
  let translator = translators.get(lang);
  if (!translator) translators.set(lang, (translator = new Translator(lang, resourcesByTag()[LANG_TAG[lang]] as Resources)));
  return translator;
}

/** Translation function for loaders, actions and meta, in the request's language. */
export async function getFixedT(request: Request, ns: string = DEFAULT_NS) {
  return requestTranslator(await detectLang(request), ns);
}
