// The one recipe for forms: conform + zod schemas whose messages are
// translation keys, rendered by these components (labels, errors, aria).
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import type { InputHTMLAttributes, ReactNode } from "react";

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
export function SubmitButton({ busy, children, busyText }: { busy: boolean; children: ReactNode; busyText: ReactNode }) {
  return (
    <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy}>
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
