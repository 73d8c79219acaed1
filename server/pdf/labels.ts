// Labels of PDFs: the `pdf` namespace (locales/{locale}/pdf.json), read here directly so PDFs work
// before the namespace is registered in locales/index.ts and NAMESPACES. Same i18next semantics
// ({{var}} interpolation, no HTML escaping, no fallback to another language).
import i18next, { type TFunction } from "i18next";
import { LANG_TAG, type SiteLang } from "#common/i18n";
import en_US from "../../locales/en_US/pdf.json";
import zh_CN from "../../locales/zh_CN/pdf.json";
import ja_JP from "../../locales/ja_JP/pdf.json";
import pt_BR from "../../locales/pt_BR/pdf.json";
import es_ES from "../../locales/es_ES/pdf.json";

export const PDF_RESOURCES: Record<SiteLang, Record<string, unknown>> = { en: en_US, cn: zh_CN, jp: ja_JP, br: pt_BR, es: es_ES };

export type PdfT = (key: string, values?: Record<string, unknown>) => string;

const instances = new Map<SiteLang, TFunction>();

/** Translator for the `pdf` namespace in one site language. */
export function pdfT(lang: SiteLang): PdfT {
  let t = instances.get(lang);
  if (!t) {
    const instance = i18next.createInstance();
    void instance.init({
      lng: LANG_TAG[lang],
      fallbackLng: false,
      initImmediate: false,
      ns: ["pdf"],
      defaultNS: "pdf",
      resources: { [LANG_TAG[lang]]: { pdf: PDF_RESOURCES[lang] } },
      interpolation: { escapeValue: false },
    });
    t = instance.t.bind(instance) as TFunction;
    instances.set(lang, t);
  }
  const bound = t;
  return (key, values) => String(bound(key, values ?? {}));
}
