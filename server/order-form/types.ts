// The answer of a step's save: the saved form, or field errors (translation keys of the order namespace).
import type { Result } from "#common/result";
import type { OrderFormRow } from "./store";

export type { FieldErrors } from "#common/result";
export type SaveResult = Result<OrderFormRow>;
