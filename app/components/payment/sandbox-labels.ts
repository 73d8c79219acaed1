// Labels of the provider widgets (CardFields, AllpagoWidget) from the `sandbox` namespace, without suspending:
// the payment pages that embed the widgets need not list the namespace in their handle. The widgets render no
// such label on the server or at hydration (they show their no-script text until mounted); once mounted the
// namespace is fetched if the page did not embed it, and until it arrives a label is its fallback.
import { useEffect, useState } from "react";
import { useTranslator } from "#app/lib/translate";

const NS = "sandbox";

export function useSandboxLabels(): (key: string, fallback: string, values?: Record<string, string>) => string {
  const translator = useTranslator();
  const [, loaded] = useState(0);
  useEffect(() => {
    if (translator.has(NS)) return;
    let live = true;
    translator
      .load([NS])
      .then(() => live && loaded((n) => n + 1))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [translator]);
  const t = translator.fixedT(NS);
  return (key, fallback, values) => (translator.has(NS) ? t(key, values) : fallback);
}
