import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import i18next from "i18next";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { FetchBackend } from "./lib/i18n-backend";
import { getInitialNamespaces } from "remix-i18next/client";
import { DEFAULT_NS } from "./lib/i18n";

async function hydrate() {
  // The server embeds the translations this page needs, so no request is made before hydrating;
  // namespaces needed later (client-side navigation) load from our own /locales.
  const embedded = document.getElementById("i18n-resources")?.textContent;
  const lng = document.documentElement.lang;
  const resources = embedded ? { [lng]: JSON.parse(embedded) } : undefined;
  await i18next
    .use(initReactI18next)
    .use(FetchBackend)
    .init({
      lng,
      fallbackLng: false,
      ns: getInitialNamespaces(),
      defaultNS: DEFAULT_NS,
      resources,
      partialBundledLanguages: true,
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
