// Server-side translations for text made outside React (fallback pages,
// e-mails, PDFs): one i18next instance per site language, from the same files.
import i18next, { type TFunction } from "i18next";
import { RESOURCES } from "../../locales";
import { LANG_LOCALE, LANG_TAG, SITE_LANGS, DEFAULT_NS, NAMESPACES, type SiteLang } from "#common/i18n";

/** i18next resources keyed by BCP 47 tag (en-US ...), as i18next expects. */
export function resourcesByTag() {
  return Object.fromEntries(SITE_LANGS.map((lang) => [LANG_TAG[lang], RESOURCES[LANG_LOCALE[lang]]]));
}

const instances = new Map<SiteLang, TFunction>();

export function fixedT(lang: SiteLang, ns: string = DEFAULT_NS): TFunction {
  const key = lang;
  let t = instances.get(key);
  if (!t) {
    const instance = i18next.createInstance();
    void instance.init({
      lng: LANG_TAG[lang],
      fallbackLng: false,
      initImmediate: false,
      ns: [...NAMESPACES],
      defaultNS: DEFAULT_NS,
      resources: resourcesByTag(),
      interpolation: { escapeValue: false },
    });
    t = instance.t.bind(instance) as TFunction;
    instances.set(key, t);
  }
  return ((k: string, o?: Record<string, unknown>) => t!(k, { ns, ...(o ?? {}) })) as unknown as TFunction;
}
