import { useTranslator } from "./translate";
import type { SiteLang } from "#common/i18n";

/** The site language of the page being rendered. */
export function useLang(): SiteLang {
  return useTranslator().lang;
}
