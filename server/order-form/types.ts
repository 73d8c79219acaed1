// The answer of a step's save: the saved form, or field errors (translation keys of the order namespace).
import type { OrderFormRow } from "./store";

export type FieldErrors = Record<string, string[]>;
export type SaveResult = { ok: true; form: OrderFormRow } | { ok: false; fieldErrors: FieldErrors; formError?: string };
