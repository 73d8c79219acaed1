// Loaded lazily in the browser (see client-validation.ts): the zod schemas
// and conform's zod adapter, the same ones the server actions use.
import { parseWithZod } from "@conform-to/zod/v4";
import { checkEmailSchema, emailOnlySchema, loginSchema, registerSchema, passwordField, type SchemaCountry } from "#common/auth/schemas";
import { detailsSchema, passwordChangeSchema } from "#common/accounts/schemas";
import { addressSchema } from "#common/accounts/address";
import * as z from "zod/mini";

const schemas = {
  login: () => loginSchema,
  email: () => emailOnlySchema,
  checkEmail: () => checkEmailSchema,
  register: (countries?: unknown) => registerSchema((countries as SchemaCountry[] | undefined) ?? []),
  details: () => detailsSchema,
  password: () => passwordChangeSchema,
  address: () => addressSchema,
  resetPassword: () => z.object({ password: passwordField }),
};

export type ValidatorName = keyof typeof schemas;

export function validate(name: ValidatorName, formData: FormData, arg?: unknown) {
  return parseWithZod(formData, { schema: schemas[name](arg) });
}
