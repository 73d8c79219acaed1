// Percentile ordinals in the page's language (spec 3 §5: "st, nd, rd, th" in English). The translator picks
// grammar:percentile.rank_ordinal_<category> by Intl.PluralRules({ type: "ordinal" }) as i18next does, so English
// gets 1st 2nd 3rd 4th 11th 21st 22nd 23rd, and the other languages their own forms from their locale strings
// (第95百分位, 95パーセンタイル, 95º, 95.º).
import type { TFunction } from "#app/lib/translate";

/** The plural base key: rank_ordinal_one, _two, _few, _other are chosen from it. */
const RANK_KEY = "grammar:percentile.rank";

export function percentileOrdinal(t: TFunction, percentile: number): string {
  const n = Math.max(0, Math.min(100, Math.round(percentile)));
  return String(t(RANK_KEY, { count: n, ordinal: true }));
}
