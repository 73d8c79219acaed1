// A person's name as one string (issue 21 screenshot review: the cn header said "伟 李" while the invoice PDF said
// "李伟"). One rule for the header, the PDFs, the staff pages and every other place a name is shown, on every
// page: a name written in Chinese or Japanese script puts the family name first without a space ("李伟", "山田花子"),
// as it is written in those scripts whatever the page's language; a name in Latin letters keeps its own order
// ("Ada Lovelace", also on a Chinese page — how Chinese and Japanese texts print a Western name).
import type { SiteLang } from "./i18n";

// Han, kana, Hangul: a name written in them is family name first, without a space.
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/;

/** `lang` is the page's language: kept for callers (the rule does not depend on it today). */
export function personName(firstName: string | null | undefined, lastName: string | null | undefined, lang?: SiteLang): string {
  void lang;
  const first = (firstName ?? "").trim();
  const last = (lastName ?? "").trim();
  if (CJK.test(first) && CJK.test(last)) return `${last}${first}`;
  return [first, last].filter(Boolean).join(" ");
}
