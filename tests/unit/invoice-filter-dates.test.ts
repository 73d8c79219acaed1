// The invoice filter's dates (issue 21 brief item 7): each language types them in the order app/common/format.ts
// writes its dates (DD/MM/AAAA in Portuguese and Spanish, YYYY/MM/DD in Chinese and Japanese, the spec's
// MM/DD/YYYY in English), its hint and its error say that order, and the query still reads MM/dd/yyyy.
import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../locales";
import { SITE_LANGS, type SiteLang } from "#common/i18n";
import { FILTER_DATE_ORDER, filterDateOfPage } from "#common/invoices/list";
import { formatDate } from "#common/format";

const LOCALE: Record<SiteLang, string> = { en: "en_US", cn: "zh_CN", jp: "ja_JP", br: "pt_BR", es: "es_ES" };
const PATTERN = { mdy: /MM\/DD\/(YYYY|AAAA)/, dmy: /DD\/MM\/(YYYY|AAAA)/, ymd: /YYYY\/MM\/DD/ };

describe("the invoice filter's date order", () => {
  it("says in every language the order that language types dates in", () => {
    for (const lang of SITE_LANGS) {
      const inv = RESOURCES[LOCALE[lang]].invoices as { filters: { dateHint: string }; errors: Record<string, string> };
      expect(inv.filters.dateHint, lang).toMatch(PATTERN[FILTER_DATE_ORDER[lang]]);
      expect(inv.errors["date-invalid"], lang).toMatch(PATTERN[FILTER_DATE_ORDER[lang]]);
    }
  });

  it("follows format.ts: day before month where it writes the day first (br, es), year first in cn and jp", () => {
    const d = "2026-03-10T12:00:00Z";
    expect(formatDate(d, "br").indexOf("10")).toBeLessThan(formatDate(d, "br").indexOf("2026"));
    expect(FILTER_DATE_ORDER.br).toBe("dmy");
    expect(FILTER_DATE_ORDER.es).toBe("dmy");
    expect(formatDate(d, "cn").startsWith("2026")).toBe(true);
    expect(FILTER_DATE_ORDER.cn).toBe("ymd");
    expect(formatDate(d, "jp").startsWith("2026")).toBe(true);
    expect(FILTER_DATE_ORDER.jp).toBe("ymd");
  });

  it("turns a typed date into the query's MM/dd/yyyy", () => {
    expect(filterDateOfPage("31/03/2026", "br")).toBe("03/31/2026");
    expect(filterDateOfPage("31/03/2026", "es")).toBe("03/31/2026");
    expect(filterDateOfPage("2026/03/31", "cn")).toBe("03/31/2026");
    expect(filterDateOfPage("03/31/2026", "en")).toBe("03/31/2026");
    expect(filterDateOfPage("2026-03-31", "jp")).toBe("2026-03-31");
  });
});
