// A person's name as one string, in the order the page's language writes names (issue 21 screenshot review: the cn
// header said "伟 李" while the invoice PDF said "李伟"). One rule for the header, the PDFs, the staff pages and
// every other place a name is shown: Chinese and Japanese put the family name first (the invoice PDF's rule since
// issue 12) and write a name in their own script without a space; a name in Latin letters keeps a space between
// its parts ("Smith John" on a Chinese page, never "SmithJohn").
import type { SiteLang } from "./i18n";

// Han, kana, Hangul: a name written in them takes no space between its parts.
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/;

export function personName(firstName: string | null | undefined, lastName: string | null | undefined, lang: SiteLang): string {
  const first = (firstName ?? "").trim();
  const last = (lastName ?? "").trim();
  if (lang !== "cn" && lang !== "jp") return [first, last].filter(Boolean).join(" ");
  const separator = CJK.test(first) && CJK.test(last) ? "" : " ";
  return [last, first].filter(Boolean).join(separator);
}
