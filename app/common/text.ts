// Cutting user text to a column's length without cutting a character in two (issue 14, ADR 044). `s.slice(0, n)`
// counts UTF-16 code units: an emoji across the cut leaves half a surrogate pair, which `JSON.stringify` writes
// as `\ud83e` and PostgreSQL's jsonb refuses (the journal name's 500), and a text column stores as U+FFFD.

/** `text` cut to at most `max` UTF-16 code units, never inside a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
