// Loaded lazily in the browser (see client-validation.ts): the zod schemas
// and conform's zod adapter, the same ones the server actions use.
import { parseWithZod } from "@conform-to/zod/v4";
import { checkEmailSchema, emailOnlySchema, loginSchema, registerSchema, type SchemaCountry } from "./schemas";

const schemas = {
  login: () => loginSchema,
  email: () => emailOnlySchema,
  checkEmail: () => checkEmailSchema,
  register: (countries?: unknown) => registerSchema((countries as SchemaCountry[] | undefined) ?? []),
};

export type ValidatorName = keyof typeof schemas;

export function validate(name: ValidatorName, formData: FormData, arg?: unknown) {
  return parseWithZod(formData, { schema: schemas[name](arg) });
}
