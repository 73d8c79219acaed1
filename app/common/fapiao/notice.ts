// The message a list shows after a fapiao was requested or cancelled (spec 2 §7: 'fapiao-creation-success-type-
// {type}', 'fapiao-cancellation-success-type-{type}'), carried in the address (?fapiao=created-special) across the
// 303 so it also works without JavaScript.
import type { FapiaoType } from "./schemas";

export const fapiaoNoticeParam = (event: "created" | "cancelled", type: FapiaoType) => ({ fapiao: `${event}-${type}` });

/** The translation key of the notice, or null for anything else in the parameter. */
export function fapiaoNoticeKey(param: string | null | undefined): string | null {
  const m = /^(created|cancelled)-(general|special)$/.exec(param ?? "");
  if (!m) return null;
  return `fapiao:fapiao-${m[1] === "created" ? "creation" : "cancellation"}-success-type-${m[2]}`;
}
