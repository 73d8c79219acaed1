// Pieces every order-form step shows the same way: a field's error from the server, and the foot of
// the step with its Back and Next buttons (a plain submit, so the step works without JavaScript).
import type { ReactNode } from "react";
import { useTranslation } from "#app/lib/translate";
import { ErrorSummary } from "./form";
import { OrderPeek } from "./OrderSummary";

/** The id of a step field's error message (what its input's aria-describedby points at). */
export const stepErrorId = (field: string) => `${field.replace(/[^A-Za-z0-9_-]/g, "-")}-error`;

/**
 * The step action's field errors (translation keys), `err(field)` that shows the first one under an id,
 * and `invalid(field)`: the aria-invalid and aria-describedby to spread on that field's input, so a
 * screen reader announces the message with the field (issue 9 §4).
 */
export function useStepErrors(fieldErrors: unknown) {
  const { t } = useTranslation("order");
  const errors = (fieldErrors ?? {}) as Record<string, string[]>;
  const err = (field: string) =>
    errors[field]?.length ? (
      <p className="field-error" id={stepErrorId(field)} role="alert">
        {t(errors[field][0])}
      </p>
    ) : null;
  const invalid = (field: string, describedBy?: string) =>
    errors[field]?.length
      ? { "aria-invalid": true as const, "aria-describedby": [stepErrorId(field), describedBy].filter(Boolean).join(" ") }
      : { "aria-describedby": describedBy };
  /** The step's error summary (issue 22 §6): fields in the order of the form, each linking to its control. */
  const summary = (labels: Record<string, string>, targets: Record<string, string> = {}) => (
    <ErrorSummary
      entries={Object.entries(labels).map(([field, label]) => ({
        id: targets[field] ?? field,
        label,
        message: errors[field]?.length ? t(errors[field][0]) : undefined,
      }))}
    />
  );
  return { errors, err, invalid, summary };
}

/**
 * The foot of a step: on narrow screens the collapsible "My Order" first, then Back (shown when the step
 * has one before it, `back`; the action saves the step and redirects there) and Next, which submits
 * intent=next.
 */
export function StepActions({ back, disabled, children }: { back?: string; disabled: boolean; children?: ReactNode }) {
  const { t } = useTranslation("order");
  return (
    <>
      <OrderPeek />
      <div className="wizard-actions">
        {/* Back saves the step too (spec 1 §4): a submit (intent=back) that the step's action saves without
            requiring what Next requires, then sends to `back`; formNoValidate lets an unfinished step go back. */}
        {back ? (
          <button type="submit" name="intent" value="back" className="link-button" formNoValidate>
            ← {t("back")}
          </button>
        ) : null}
        <button type="submit" name="intent" value="next" className="button button-primary button-large" disabled={disabled}>
          {children ?? t("next")}
        </button>
      </div>
    </>
  );
}

/** A per-unit service's quantity on its card (figures, tables: 1 to 25), posted as `quantity.<service>`. */
export function QuantityField({
  slug,
  defaultValue,
  aria,
}: {
  slug: string;
  defaultValue: number;
  aria?: { "aria-invalid"?: true; "aria-describedby"?: string };
}) {
  const { t } = useTranslation("order");
  return (
    <div className="field">
      <label htmlFor={`quantity-${slug}`}>{t("quantity")}</label>
      <input id={`quantity-${slug}`} type="number" name={`quantity.${slug}`} min={1} max={25} defaultValue={defaultValue} {...aria} />
    </div>
  );
}

/**
 * A service card's select/add button: posts `toggle=<service>`, pressed while the service is chosen
 * (the services and add-ons steps; `label` is the text of the unselected state). Its accessible name
 * carries the service ("Select Standard Editing"), so a screen reader's list of buttons is not a dozen
 * identical "Select"s; the name is hidden visually because the card's heading already shows it.
 */
export function ToggleServiceButton({
  slug,
  selected,
  label,
  serviceName,
}: {
  slug: string;
  selected: boolean;
  label: string;
  serviceName: string;
}) {
  const { t } = useTranslation("order");
  return (
    <button type="submit" name="toggle" value={slug} className={`button${selected ? " button-primary" : ""}`} aria-pressed={selected}>
      {selected ? `✓ ${t("selected")}` : label}
      <span className="visually-hidden">{` ${serviceName}`}</span>
    </button>
  );
}

/** A faster delivery tier's button: pressed while chosen, and pressing it again goes back to standard. */
export function TierButton({ tier, current, children }: { tier: "rush" | "express"; current: string; children: ReactNode }) {
  return (
    <button type="submit" name="tier" value={current === tier ? "standard" : tier} className="button" aria-pressed={current === tier}>
      {children}
    </button>
  );
}
