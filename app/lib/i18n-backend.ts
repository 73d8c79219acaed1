// A minimal i18next backend for the browser: fetches a namespace the page did
// not embed from our own /locales (i18next-http-backend does the same in 4x the bytes).
import type { BackendModule, ReadCallback } from "i18next";
import { LANG_LOCALE, tagToLang } from "./i18n";

export const FetchBackend: BackendModule = {
  type: "backend",
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const locale = LANG_LOCALE[tagToLang(language) ?? "en"];
    fetch(`/locales/${locale}/${namespace}.json`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then((data) => callback(null, data), (error) => callback(error, false));
  },
};
