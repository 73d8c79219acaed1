// A state's or province's name in the page's language (issue 22 item 2): "加利福尼亚州" and "广东省" on the
// Chinese forms, not the seeded English names. Translations live in `common:states.<country ISO2>.<code>`
// (US states and Chinese provinces today); a subdivision without one keeps its stored name.
import type { TFunction } from "i18next";

export function stateName(
  t: TFunction | ((key: string, options?: Record<string, unknown>) => string),
  countryIso2: string,
  state: { code: string; name: string },
): string {
  const key = `common:states.${countryIso2}.${state.code}`;
  const text = (t as (key: string, options?: Record<string, unknown>) => string)(key, { defaultValue: state.name });
  // The browser's translator (app/lib/translate.tsx) gives the key back for a missing one, without a defaultValue.
  return !text || text === key || text === key.slice("common:".length) ? state.name : text;
}
