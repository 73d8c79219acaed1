// Who may open the digital editing and digital translation pages (spec 3 §2): a signed-in researcher (requireUser:
// sign-in first, then the shell rules every protected page applies) whose application setting allows the area
// (digitalAccess: allowsDigitalEditing / allowsDigitalTranslations); anyone else goes to /{lang}/researcher.
import { redirect, type AppLoadContext } from "@remix-run/node";
import { DIGITAL_STATUSES, type DigitalStatus } from "#common/digital/constants";
import { paths } from "#common/paths";
import type { Scope } from "#server/scope";
import { digitalAccess } from "#server/digital";
import { pageScope } from "#app/lib/scope.server";
import { requireUser } from "#app/lib/session.server";

export type DigitalArea = "editing" | "translations";

export interface DigitalPageAccess {
  scope: Scope;
  access: { editing: boolean; translations: boolean; chineseTranslation: boolean };
}

export async function digitalPage(request: Request, context: AppLoadContext, area: DigitalArea): Promise<DigitalPageAccess> {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const access = await digitalAccess(scope);
  if (!(area === "editing" ? access.editing : access.translations)) throw redirect(paths.researcher(scope.lang));
  return { scope, access };
}

/** ?page=N of a list: a whole number from 1, anything else page 1. */
export function pageParam(value: string | null): number {
  if (!value || !/^[1-9][0-9]{0,5}$/.test(value)) return 1;
  return Number(value);
}

/** The list's optional {status} segment: one of the statuses, or none; anything else is not a filter. */
export function statusParam(value: string | undefined): DigitalStatus | null | "invalid" {
  if (value === undefined || value === "") return null;
  return (DIGITAL_STATUSES as readonly string[]).includes(value) ? (value as DigitalStatus) : "invalid";
}

/** A file name carried by ?deleted= for the notice: plain text, bounded. */
export function noticeName(value: string | null): string | null {
  if (!value) return null;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
  const text = value.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return text ? text.slice(0, 255) : null;
}

/** A refusal to show: a translation key and its parameters (strings only). */
export interface PageError {
  key: string;
  params: Record<string, string>;
}

/** The domain's refusal as the page shows it: field errors by field, the error itself otherwise. */
export function pageErrors(r: { error: string; fieldErrors: Record<string, string>; details?: Record<string, unknown> }): {
  fields: Record<string, string>;
  form: PageError | null;
} {
  const params: Record<string, string> = {};
  // The domain's parameters travel as `details.params` ({ fileName }) or, for older codes, beside it.
  const nested = r.details?.params && typeof r.details.params === "object" ? (r.details.params as Record<string, unknown>) : {};
  for (const [k, v] of Object.entries({ ...r.details, ...nested }))
    if (typeof v === "string" || typeof v === "number") params[k] = String(v);
  const fields: Record<string, string> = {};
  for (const [field, key] of Object.entries(r.fieldErrors)) fields[field] = key.includes(":") ? key : `digital:errors.${key}`;
  return { fields, form: Object.keys(fields).length ? null : { key: `digital:errors.${r.error}`, params } };
}
