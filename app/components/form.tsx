// The one recipe for forms: conform + zod schemas whose messages are
// translation keys, rendered by these components (labels, errors, aria).
import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import { useTranslation } from "#app/lib/translate";
import { useEffect, useRef, type InputHTMLAttributes, type ReactNode } from "react";

/** Translates error keys from a schema; a key may name its namespace before a colon. */
export function useErrorText() {
  const { t } = useTranslation(["common", "auth"]);
  return (errors: string[] | undefined) => (errors?.length ? t(errors[0]) : undefined);
}

export function TextField({
  meta,
  label,
  type = "text",
  hint,
  ...rest
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  meta: FieldMetadata<any, any, string[]>;
  label: ReactNode;
  type?: "text" | "email" | "password" | "tel" | "number" | "search" | "url";
  hint?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  const errorText = useErrorText()(meta.errors);
  const props = getInputProps(meta, { type, ariaDescribedBy: hint ? `${meta.id}-hint` : undefined });
  return (
    <div className={`field${errorText ? " field-invalid" : ""}`}>
      <label htmlFor={meta.id}>{label}</label>
      <input {...props} key={props.key} {...rest} />
      {hint ? (
        <p className="field-hint" id={`${meta.id}-hint`}>
          {hint}
        </p>
      ) : null}
      {errorText ? (
        <p className="field-error" id={meta.errorId} role="alert">
          {errorText}
        </p>
      ) : null}
    </div>
  );
}

/** A new password (registration, the reset link, the account page): the browser may suggest one, the hint states the rule. */
export function NewPasswordField({ meta, label }: { meta: FieldMetadata<string, Record<string, unknown>, string[]>; label: ReactNode }) {
  const { t } = useTranslation("auth");
  return <TextField meta={meta} type="password" label={label} autoComplete="new-password" hint={t("register.passwordHint")} required />;
}

/** Errors of the whole form (server answers such as wrong credentials). */
export function FormErrors({ errors, id }: { errors?: string[]; id?: string }) {
  const errorText = useErrorText()(errors);
  if (!errorText) return null;
  return (
    <div className="alert alert-danger" role="alert" id={id}>
      {errorText}
    </div>
  );
}

/** A submit button that shows a spinner and is disabled while the form is being processed. */
export function SubmitButton({
  busy,
  children,
  busyText,
  name,
  value,
}: {
  busy: boolean;
  children: ReactNode;
  busyText: ReactNode;
  name?: string;
  value?: string;
}) {
  return (
    <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy} name={name} value={value}>
      {busy ? (
        <>
          <span className="spinner" aria-hidden="true" /> {busyText}
        </>
      ) : (
        children
      )}
    </button>
  );
}

/** A labelled <select> bound to a conform field. */
export function SelectField({
  meta,
  label,
  children,
  onChange,
  hint,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  meta: FieldMetadata<any, any, string[]>;
  label: ReactNode;
  children: ReactNode;
  onChange?: (event: React.ChangeEvent<HTMLSelectElement>) => void;
  hint?: ReactNode;
}) {
  const errorText = useErrorText()(meta.errors);
  const props = getSelectProps(meta, { ariaDescribedBy: hint ? `${meta.id}-hint` : undefined });
  return (
    <div className={`field${errorText ? " field-invalid" : ""}`}>
      <label htmlFor={meta.id}>{label}</label>
      <select {...props} key={props.key} onChange={onChange}>
        {children}
      </select>
      {hint ? (
        <p className="field-hint" id={`${meta.id}-hint`}>
          {hint}
        </p>
      ) : null}
      {errorText ? (
        <p className="field-error" id={meta.errorId} role="alert">
          {errorText}
        </p>
      ) : null}
    </div>
  );
}

/** A checkbox bound to a conform field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function CheckboxField({ meta, label }: { meta: FieldMetadata<any, any, string[]>; label: ReactNode }) {
  const errorText = useErrorText()(meta.errors);
  const props = getInputProps(meta, { type: "checkbox" });
  return (
    <div className={`field${errorText ? " field-invalid" : ""}`}>
      <label className="checkbox">
        <input {...props} key={props.key} />
        <span>{label}</span>
      </label>
      {errorText ? (
        <p className="field-error" id={meta.errorId} role="alert">
          {errorText}
        </p>
      ) : null}
    </div>
  );
}

/** The props a PlainField gives its control: its id and name, and its error's aria. */
export interface PlainControlProps {
  id: string;
  name: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/**
 * A field of a form validated on the server only (the staff console's forms): the label, the control the caller
 * renders with the given props, and its translated error. The conform-driven fields above do the same for forms
 * with a shared schema.
 */
export function PlainField({
  name,
  idPrefix,
  label,
  error,
  children,
}: {
  name: string;
  idPrefix: string;
  label: ReactNode;
  /** The error, already translated. */
  error?: string | null;
  children: (props: PlainControlProps) => ReactNode;
}) {
  const id = `${idPrefix}-${name}`;
  const errorId = `${id}-error`;
  return (
    <div className={`field${error ? " field-invalid" : ""}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, name, ...(error ? { "aria-invalid": true as const, "aria-describedby": errorId } : {}) })}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** One line of an error summary: the field's control id, its label and its errors (translation keys) or its message. */
export interface SummaryEntry {
  id: string;
  label: string;
  errors?: string[];
  /** The message already translated (forms whose keys live in another namespace); wins over `errors`. */
  message?: string;
}

/**
 * The error summary of a long form (issue 22 §6): at the top, one link per invalid field to its control, so a
 * researcher (or a screen reader) sees every problem at once instead of scrolling for red borders. Rendered by
 * the server, so it works without JavaScript; it takes the focus when it appears (autoFocus in the HTML for a
 * page the action re-rendered; an effect when a client-side submission comes back with errors).
 */
export function ErrorSummary({ entries, id = "error-summary" }: { entries: SummaryEntry[]; id?: string }) {
  const { t } = useTranslation("common");
  const errorText = useErrorText();
  const shown = entries.filter((entry) => entry.message || entry.errors?.length);
  const ref = useRef<HTMLDivElement>(null);
  // Focus when the summary appears, not each time an answer is corrected (the fields revalidate as one types).
  const visible = shown.length > 0;
  useEffect(() => {
    if (visible) ref.current?.focus();
  }, [visible]);
  if (!shown.length) return null;
  return (
    // autoFocus: the summary is where a failed submission leaves the reader (and a screen reader's cursor).
    <div className="error-summary" role="alert" aria-labelledby={`${id}-title`} tabIndex={-1} ref={ref} id={id} autoFocus>
      <h2 className="error-summary-title" id={`${id}-title`}>
        {t("errorSummary.title")}
      </h2>
      <ul>
        {shown.map((entry) => (
          <li key={entry.id}>
            <a href={`#${entry.id}`} onClick={(event) => focusField(event, entry.id)}>
              {/* "Label: message", with the page language's own colon (：in Chinese and Japanese). */}
              {t("errorSummary.entry", { label: entry.label, message: entry.message ?? errorText(entry.errors) })}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** With JavaScript a summary link puts the cursor in its field (a plain fragment link only scrolls to it). */
function focusField(event: React.MouseEvent<HTMLAnchorElement>, id: string) {
  const field = document.getElementById(id);
  if (!field) return;
  event.preventDefault();
  field.scrollIntoView({ block: "center" });
  field.focus({ preventScroll: true });
}

/** Summary entries for conform fields, in the order of the labels given (the order of the form). */
export function summaryOf(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  fields: Record<string, FieldMetadata<any, any, string[]>>,
  labels: Record<string, string>,
): SummaryEntry[] {
  return Object.entries(labels).flatMap(([name, label]) => {
    const meta = fields[name];
    return meta ? [{ id: meta.id, label, errors: meta.errors }] : [];
  });
}
