// What the fuzzer aims at (ADR 043), read from the code so a new page or endpoint is fuzzed without anyone
// remembering to add it: every API endpoint of the endpoint tables (server/api-tables.ts) and every
// page whose route module has an action, from the built route tree; and the field names and kinds (number,
// string, boolean, array, object) of every shared schema (app/common/*/schemas.ts) and endpoint body/query.
import fs from "node:fs";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import { API_TABLES } from "#server/api-tables";
import type { Endpoint } from "#server/http/api/endpoint";

export type FieldKind = "number" | "string" | "boolean" | "array" | "object" | "unknown";

export interface Target {
  kind: "api" | "page";
  method: string;
  /** The path pattern: `/api/order-form/:id/details`, `/:lang/account/addresses/:id?`. */
  pattern: string;
  /** The endpoint's body: a JSON schema's fields, a stream (uploads), or none. Pages: a form. */
  body: "json" | "stream" | "none" | "form";
  /** Known body fields and their kinds (pages: every field of every shared schema). */
  fields: Record<string, FieldKind>;
  /** Known query parameters (plus `page` and `q`, which many readers take). */
  query: string[];
  /** API endpoints: who may call it (the router checks it before reading the body). */
  auth?: Endpoint<unknown, unknown>["auth"];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Def = any;

/** The kind of a zod/mini schema, through optional/nullable/default/pipe wrappers. */
export function kindOf(schema: unknown): FieldKind {
  let def: Def = (schema as Def)?._zod?.def;
  for (let i = 0; def && i < 8; i++) {
    switch (def.type) {
      case "number":
      case "bigint":
      case "int":
        return "number";
      case "boolean":
        return "boolean";
      case "array":
      case "tuple":
      case "set":
        return "array";
      case "object":
      case "record":
      case "map":
        return "object";
      case "string":
      case "enum":
      case "literal":
      case "template_literal":
      case "date":
        return "string";
      case "union":
        def = def.options?.[0]?._zod?.def;
        continue;
      case "pipe":
        def = def.in?._zod?.def;
        continue;
      case "lazy":
        def = def.getter?.()?._zod?.def;
        continue;
      default:
        def = (def.innerType ?? def.schema ?? def.in)?._zod?.def;
    }
  }
  return "unknown";
}

/** The fields of an object schema (possibly wrapped), with their kinds; {} for anything else. */
export function fieldsOf(schema: unknown): Record<string, FieldKind> {
  let def: Def = (schema as Def)?._zod?.def;
  for (let i = 0; def && i < 8; i++) {
    if (def.shape) return Object.fromEntries(Object.entries(def.shape).map(([k, v]) => [k, kindOf(v)]));
    def = (def.in ?? def.innerType ?? def.schema ?? def.options?.[0])?._zod?.def;
  }
  return {};
}

/** Every field name of every exported schema in app/common/<area>/schemas.ts; a name seen as a number anywhere counts as one. */
export async function sharedFormFields(): Promise<Record<string, FieldKind>> {
  const root = path.resolve("app/common");
  const fields: Record<string, FieldKind> = {};
  for (const area of fs.readdirSync(root)) {
    const file = path.join(root, area, "schemas.ts");
    if (!fs.existsSync(file)) continue;
    const mod = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      for (const [k, kind] of Object.entries(fieldsOf(value))) if (fields[k] !== "number") fields[k] = kind;
    }
  }
  return fields;
}

/** Every API endpoint of the tables. */
export function apiTargets(): Target[] {
  return (API_TABLES.flat() as Endpoint<unknown, unknown>[]).map((e) => ({
    kind: "api",
    method: e.method,
    pattern: e.path,
    body: e.body === "stream" ? "stream" : e.method === "GET" ? "none" : e.body ? "json" : "none",
    fields: e.body && e.body !== "stream" ? fieldsOf(e.body) : {},
    query: [...new Set(["page", "q", ...Object.keys(fieldsOf(e.query))])],
    auth: e.auth,
  }));
}

/** Every page with an action, from the built route tree (build/server/index.js), as a path pattern. */
export async function pageTargets(formFields: Record<string, FieldKind>): Promise<Target[]> {
  const build = (await import(/* @vite-ignore */ path.resolve("build/server/index.js"))) as ServerBuild;
  const full = (id: string): string => {
    const r = build.routes[id];
    if (!r) return "";
    const parent = r.parentId ? full(r.parentId) : "";
    return r.path ? `${parent.replace(/\/$/, "")}/${r.path}` : parent;
  };
  const patterns = Object.keys(build.routes)
    .filter((id) => build.routes[id].module.action)
    // An index route's action is addressed with `?index` (Remix), else the parent's would answer.
    .map((id) => full(id) + (build.routes[id].index ? "?index" : ""));
  return [...new Set(patterns)].map((pattern) => ({
    kind: "page" as const,
    method: "POST",
    pattern,
    body: "form" as const,
    fields: formFields,
    query: ["page", "q", "index", "redirect", "to", "promo"],
  }));
}

/** Sign-out and account-ending targets last, so the researcher's session lives through the rest. */
export function sessionEndingLast(targets: Target[]): Target[] {
  const ends = (t: Target) => Number(/logout|stop-impersonation|reset-password|delete/.test(t.pattern));
  return [...targets].sort((a, b) => ends(a) - ends(b));
}
