import { useTranslation } from "react-i18next";
import { tagToLang, type SiteLang } from "./i18n";

/** The site language of the page being rendered. */
export function useLang(): SiteLang {
  const { i18n } = useTranslation();
  return tagToLang(i18n.language) ?? "en";
}
