import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import i18next from "i18next";
import { I18nextProvider, initReactI18next } from "react-i18next";
import Backend from "i18next-http-backend";
import { getInitialNamespaces } from "remix-i18next/client";
import { DEFAULT_NS, LANG_LOCALE, tagToLang } from "./lib/i18n";

async function hydrate() {
  // The server embeds the translations this page needs, so no request is made before hydrating;
  // namespaces needed later (client-side navigation) load from our own /locales.
  const embedded = document.getElementById("i18n-resources")?.textContent;
  const lng = document.documentElement.lang;
  const resources = embedded ? { [lng]: JSON.parse(embedded) } : undefined;
  await i18next
    .use(initReactI18next)
    .use(Backend)
    .init({
      lng,
      fallbackLng: false,
      ns: getInitialNamespaces(),
      defaultNS: DEFAULT_NS,
      resources,
      partialBundledLanguages: true,
      backend: {
        loadPath: (lngs: string[], namespaces: string[]) => `/locales/${LANG_LOCALE[tagToLang(lngs[0]) ?? "en"]}/${namespaces[0]}.json`,
      },
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
    });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
