import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { loadNamespacesWithNavigationData } from "./lib/namespace-preload";
import { fetchLocaleNamespace, Translator, TranslatorProvider, type Resources } from "./lib/translate";
import { tagToLang } from "#common/i18n";

// The server embeds the translations this page needs, so nothing is fetched before hydrating;
// namespaces needed later (client-side navigation) load from our own /locales.
const embedded = document.getElementById("i18n-resources")?.textContent;
const resources = (embedded ? JSON.parse(embedded) : {}) as Resources;
const translator = new Translator(tagToLang(document.documentElement.lang) ?? "en", resources, fetchLocaleNamespace);
loadNamespacesWithNavigationData(translator);

startTransition(() => {
  hydrateRoot(
    document,
    <TranslatorProvider translator={translator}>
      <StrictMode>
        <RemixBrowser />
      </StrictMode>
    </TranslatorProvider>,
  );
});
