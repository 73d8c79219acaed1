import { useEffect, useRef, useState } from "react";
import { useTranslation } from "#app/lib/translate";

/** Whether the app has rendered in the browser: a failure after that came from a client-side navigation or submission. */
let appMounted = false;
export function useMarkAppMounted() {
  useEffect(() => {
    appMounted = true;
    // A mark for the browser tests: a choice made in a controlled field before hydration is reset by React's
    // first render, so journeys with JavaScript wait for this before filling such forms (tests/e2e/helpers.ts).
    document.documentElement.dataset.hydrated = "true";
  }, []);
}
export function failedInBrowser() {
  return typeof document !== "undefined" && appMounted;
}

/**
 * Spec 1 §5 (and specs 2, 3): a navigation or form submission that failed at the network level (the fetch failed,
 * or a 5xx answer without a page) shows 'network-request-error' as a modal with a reload action (ADR 065).
 * Focus moves into it; Escape closes it (the error page underneath says the same, with its reload link).
 */
export function NetworkErrorModal() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(true);
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    dialog.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);
  if (!open) return null;
  return (
    <div className="modal network-error-modal">
      <div
        ref={dialog}
        className="modal-content stack"
        role="dialog"
        aria-modal="true"
        aria-labelledby="network-error-title"
        aria-describedby="network-error-body"
        tabIndex={-1}
      >
        <h2 id="network-error-title">{t("error.networkTitle")}</h2>
        <p id="network-error-body">{t("network-request-error")}</p>
        <p className="actions">
          <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
            {t("error.reload")}
          </button>
          <button type="button" className="button" onClick={() => setOpen(false)}>
            {t("error.close")}
          </button>
        </p>
      </div>
    </div>
  );
}
