// The country modal of the dashboard (spec 2 §2, §5: "please choose your country", required). Rendered open by
// the server, so it works without JavaScript; it posts to the dashboard's action, which saves the country with
// the account's own domain function and answers a missing one with the spec's message.
import { useEffect, useRef } from "react";
import { Form } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";

export function CountryDialog({ countries, error }: { countries: { iso2: string; name: string }[]; error?: string }) {
  const { t } = useTranslation("dashboard");
  const dialog = useRef<HTMLDialogElement>(null);
  // With JavaScript the open dialog becomes a real modal (focus stays inside, the page behind is inert).
  // Escape does not dismiss it: the country is required.
  useEffect(() => {
    const d = dialog.current;
    if (!d || typeof d.showModal !== "function" || d.matches(":modal")) return;
    d.close();
    d.showModal();
    const keep = (e: Event) => e.preventDefault();
    d.addEventListener("cancel", keep);
    return () => d.removeEventListener("cancel", keep);
  }, []);
  return (
    <div className="modal country-modal">
      <dialog ref={dialog} open aria-modal="true" aria-labelledby="country-dialog-title" className="card country-prompt">
        <h2 id="country-dialog-title">{t("country.title")}</h2>
        <p>{t("country.text")}</p>
        <Form method="post" className="stack">
          <input type="hidden" name="intent" value="country" />
          <div className={`field${error ? " field-invalid" : ""}`}>
            <label htmlFor="country-dialog-select">{t("country.label")}</label>
            <select
              id="country-dialog-select"
              name="country"
              required
              defaultValue=""
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "country-dialog-error" : undefined}
            >
              <option value="" disabled>
                {t("country.choose")}
              </option>
              {countries.map((c) => (
                <option key={c.iso2} value={c.iso2}>
                  {c.name}
                </option>
              ))}
            </select>
            {error ? (
              <p className="field-error" id="country-dialog-error" role="alert">
                {t(error)}
              </p>
            ) : null}
          </div>
          <button type="submit" className="button button-primary">
            {t("country.save")}
          </button>
        </Form>
      </dialog>
    </div>
  );
}
