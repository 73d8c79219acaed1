import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { schemaError } from "#server/http/api/schema-error";

describe("schemaError (a body or query that fails its schema, as the API shows it)", () => {
  it("gives each field the code of its first issue's key, and the first field's code as the error", () => {
    const issues = [
      { path: ["email"], message: "auth:login.errors.emailAddressInvalidFormat" },
      { path: ["email"], message: "auth:login.errors.later-issue" },
      { path: ["password"], message: "auth:register.errors.password-too-short" },
    ];
    expect(schemaError(issues)).toEqual({
      error: "emailAddressInvalidFormat",
      fieldErrors: { email: "emailAddressInvalidFormat", password: "password-too-short" },
    });
  });

  it("names nested fields a.b, the whole body `body`, and a message that is no key `invalid`", () => {
    const issues = [
      { path: ["journal", "url"], message: "Invalid input: expected string" },
      { path: [], message: "order-form:errors.bad" },
    ];
    expect(schemaError(issues)).toEqual({ error: "invalid", fieldErrors: { "journal.url": "invalid", body: "bad" } });
  });

  it("reads zod's own issues", () => {
    const parsed = z.object({ quantity: z.number("order-form:errors.quantity-invalid") }).safeParse({ quantity: "x" });
    expect(parsed.success).toBe(false);
    expect(schemaError(parsed.error!.issues)).toEqual({ error: "quantity-invalid", fieldErrors: { quantity: "quantity-invalid" } });
  });

  it("is `invalid` without any issue", () => {
    expect(schemaError([])).toEqual({ error: "invalid", fieldErrors: {} });
  });
});
