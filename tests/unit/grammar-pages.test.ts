// The grammar check pages' pure parts (ADR 071): percentile ordinals in every language (spec 3 §5 "st, nd, rd, th"),
// the percentile curve's path, and the flagged span of an issue cut out of its sentence without throwing on bad offsets.
import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../locales";
import { LANG_LOCALE, type SiteLang } from "../../app/common/i18n";
import { Translator } from "../../app/lib/translate";
import { percentileOrdinal } from "../../app/components/grammar-check/ordinal";
import { curvePath } from "../../app/components/grammar-check/PercentileChart";
import { splitSentence } from "../../app/components/grammar-check/IssuesInContext";

const t = (lang: SiteLang) =>
  new Translator(lang, RESOURCES[LANG_LOCALE[lang]] as Record<string, Record<string, unknown>>).fixedT("grammar");

describe("percentile ordinals", () => {
  it("uses English suffixes by the ordinal plural rules", () => {
    const en = t("en");
    const got = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 95, 100].map((n) => percentileOrdinal(en, n));
    expect(got).toEqual(["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "95th", "100th"]);
  });

  it("uses each language's own form, rounded and clamped to 0–100", () => {
    expect(percentileOrdinal(t("cn"), 94.6)).toBe("第 95 百分位");
    expect(percentileOrdinal(t("jp"), 3)).toBe("3 パーセンタイル");
    expect(percentileOrdinal(t("br"), 2)).toBe("2º");
    expect(percentileOrdinal(t("es"), 1)).toBe("1.º");
    expect(percentileOrdinal(t("en"), 140)).toBe("100th");
    expect(percentileOrdinal(t("en"), -5)).toBe("0th");
  });
});

describe("the percentile curve", () => {
  it("is drawn in percentile order whatever order the points come in, skipping points that are not numbers", () => {
    const path = curvePath([
      { percentile: 100, minimumScore: 10 },
      { percentile: 0, minimumScore: 0 },
      { percentile: 50, minimumScore: Number.NaN },
      { percentile: 50, minimumScore: 5 },
    ]);
    const xs = [...path.matchAll(/[ML]([\d.]+),/g)].map((m) => Number(m[1]));
    expect(xs).toHaveLength(3);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    expect(path.startsWith("M")).toBe(true);
    expect(curvePath([])).toBe("");
  });
});

describe("an issue in its sentence", () => {
  it("cuts the flagged span out, clamping offsets outside the sentence", () => {
    expect(splitSentence({ sentence: "The protien bound.", start: 4, end: 11 })).toEqual(["The ", "protien", " bound."]);
    expect(splitSentence({ sentence: "Short.", start: 3, end: 99 })).toEqual(["Sho", "rt.", ""]);
    expect(splitSentence({ sentence: "Short.", start: 9, end: 2 })).toEqual(["Short.", "", ""]);
  });
});
