// Small field helpers of the payment form: a labelled input or select with its translated server error,
// and the classes that show a block only while certain methods are chosen (CSS `:has()`, so the form reacts
// to the method buttons with JavaScript off too; app/styles/app.css "Payment form").
import type { ReactNode, SelectHTMLAttributes, InputHTMLAttributes } from "react";
import { useTranslation } from "#app/lib/translate";
import { METHOD_FACTS, type MethodFacts, type PaymentMethodId } from "#common/payments/methods";

/** Classes showing an element only while one of the offered methods matching `when` is chosen. */
export function showFor(methods: readonly number[], when: (facts: MethodFacts, id: number) => boolean): string {
  const ids = methods.filter((id) => METHOD_FACTS[id as PaymentMethodId] && when(METHOD_FACTS[id as PaymentMethodId], id));
  return ["pm-when", ...ids.map((id) => `pm-show-${id}`)].join(" ");
}

export interface FieldState {
  errors: Record<string, string>;
  values: Record<string, string> | null;
}

/** The translated error of a field (keys carry their namespace: `payment:errors.city-required`). */
export function useFieldError(state: FieldState, name: string, context?: string): string | undefined {
  const { t } = useTranslation("payment");
  const key = state.errors[name];
  return key ? t(key, { context }) : undefined;
}

const idOf = (name: string) => `pf-${name.replace(/\./g, "-")}`;

export function Field({
  name,
  label,
  state,
  hint,
  className,
  children,
}: {
  name: string;
  label: ReactNode;
  state: FieldState;
  hint?: ReactNode;
  className?: string;
  children: (props: { id: string; name: string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode;
}) {
  const error = useFieldError(state, name);
  const id = idOf(name);
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${error ? " field-invalid" : ""}${className ? ` ${className}` : ""}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, name, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function TextInput({
  name,
  label,
  state,
  hint,
  className,
  ...rest
}: { name: string; label: ReactNode; state: FieldState; hint?: ReactNode; className?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field name={name} label={label} state={state} hint={hint} className={className}>
      {(p) => (
        <input {...p} defaultValue={state.values?.[name] ?? (rest.defaultValue as string | undefined)} {...without(rest, "defaultValue")} />
      )}
    </Field>
  );
}

export function SelectInput({
  name,
  label,
  state,
  hint,
  className,
  children,
  ...rest
}: {
  name: string;
  label: ReactNode;
  state: FieldState;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
} & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Field name={name} label={label} state={state} hint={hint} className={className}>
      {(p) => (
        <select {...p} {...rest}>
          {children}
        </select>
      )}
    </Field>
  );
}

function without<T extends object, K extends keyof T>(o: T, key: K): Omit<T, K> {
  const { [key]: _, ...rest } = o;
  return rest;
}
