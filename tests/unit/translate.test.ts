// Components translate with app/lib/translate.tsx (no i18next in the browser); loaders, e-mails and
// PDFs with i18next. Both must give the same text for every key of every locale.
import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { createInstance } from "i18next";
import { renderToStaticMarkup } from "react-dom/server";
import { fixedT } from "../../server/i18n";
import { RESOURCES } from "../../locales";
import { LANG_LOCALE, LANG_TAG, NAMESPACES, SITE_LANGS } from "../../app/common/i18n";
import { interpolate, Trans, Translator, TranslatorProvider, useTranslation, type Resources } from "../../app/lib/translate";

function leaves(node: unknown, prefix = ""): [string, unknown][] {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return [[prefix, node]];
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

describe("the components' translator", () => {
  it("gives i18next's text for every key of every locale, with and without values", () => {
    let checked = 0;
    for (const lang of SITE_LANGS) {
      const resources = RESOURCES[LANG_LOCALE[lang]] as unknown as Resources;
      const mine = new Translator(lang, resources);
      for (const ns of NAMESPACES) {
        const theirs = fixedT(lang, ns);
        for (const [key, value] of leaves(resources[ns])) {
          if (Array.isArray(value)) {
            expect(mine.translate(ns, key, { returnObjects: true })).toEqual(theirs(key, { returnObjects: true }));
            continue;
          }
          const names = [...String(value).matchAll(/{{([^}]+)}}/g)].map((m) => m[1].trim());
          const values = Object.fromEntries(names.map((n, i) => [n, i % 2 ? 1234 : `«${n}»`]));
          expect(mine.translate(ns, key, values), `${lang} ${ns}:${key}`).toBe(theirs(key, values));
          expect(mine.translate("common", `${ns}:${key}`), `${lang} ${ns}:${key} bare`).toBe(theirs(key));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it("interpolates as i18next does for missing, empty and unusual values", () => {
    const theirs = fixedT("en", "common");
    const resources = { common: { x: "a {{one}} b {{ two }} c {{one}}" } };
    const t = new Translator("en", resources as Resources);
    for (const values of [undefined, {}, { one: 1 }, { one: null, two: undefined }, { one: 0, two: "" }, { one: "$& {{two}}", two: "z" }]) {
      expect(interpolate(resources.common.x, values as never)).toBe(t.translate("common", "x", values as never));
    }
    // The unknown key comes back as itself, without its namespace, as i18next answers.
    expect(t.translate("common", "order:no.such.key")).toBe(theirs("order:no.such.key"));
    expect(t.translate("common", "no.such.key")).toBe("no.such.key");
  });

  it("chooses plural keys as i18next does, for every plural category of every language", async () => {
    // The locale files have no plural keys yet, so the test brings its own: every CLDR category, keys
    // that lack some (falling back to the bare key, or to the key itself), _zero, ordinals, null and "".
    const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];
    const plurals = (lang: string) => ({
      apple: Object.fromEntries(CATEGORIES.map((c) => [`n_${c}`, `${lang} ${c}: {{count}} apples`])),
      pear_one: `${lang} one pear`,
      pear_other: `${lang} {{count}} pears`,
      plum: `${lang} plum (no plural form)`,
      plum_other: `${lang} {{count}} plums`,
      zero_zero: `${lang} no {{what}}`,
      zero_other: `${lang} {{count}} {{what}}`,
      place_one: `${lang} cardinal one`,
      place_other: `${lang} cardinal other`,
      ...Object.fromEntries(CATEGORIES.map((c) => [`place_ordinal_${c}`, `${lang} ordinal ${c}: {{count}}`])),
      rank_ordinal_one: `${lang} {{count}}st`,
      rank_ordinal_two: `${lang} {{count}}nd`,
      rank_ordinal_few: `${lang} {{count}}rd`,
      rank_ordinal_other: `${lang} {{count}}th`,
      gone: `${lang} gone (bare)`,
      gone_one: null,
      gone_other: null,
      blank_one: "",
      blank_other: `${lang} not blank`,
      list_one: [`${lang} a`],
      list_other: [`${lang} a`, `${lang} b`],
    });
    const resources = Object.fromEntries(
      SITE_LANGS.map((lang) => [
        LANG_TAG[lang],
        { common: plurals(lang), order: { box_one: `${lang} one box`, box_other: `${lang} {{count}} boxes` } },
      ]),
    );
    const i18n = createInstance();
    await i18n.init({
      lng: "en-US",
      fallbackLng: false,
      ns: ["common", "order"],
      defaultNS: "common",
      resources,
      interpolation: { escapeValue: false },
    });
    const keys = ["apple.n", "pear", "plum", "zero", "place", "rank", "gone", "blank", "nope", "order:box", "list"];
    const counts = [
      0,
      1,
      2,
      3,
      4,
      5,
      6,
      11,
      12,
      21,
      22,
      23,
      101,
      111,
      0.5,
      1.5,
      2.0,
      1000000,
      1e6 + 1,
      -1,
      -2,
      NaN,
      Infinity,
      null,
      true,
      "1",
      "0",
    ];
    let checked = 0;
    for (const lang of SITE_LANGS) {
      const mine = new Translator(lang, resources[LANG_TAG[lang]] as unknown as Resources);
      const theirs = i18n.getFixedT(LANG_TAG[lang], "common");
      for (const key of keys)
        for (const count of counts)
          for (const extra of [{}, { ordinal: true }, { what: "pears" }, { returnObjects: true }, { returnObjects: true, ordinal: true }]) {
            // A list without returnObjects: i18next answers with a warning text, not a translation (the first test skips it too).
            if (key === "list" && !("returnObjects" in extra)) continue;
            const options = { count, ...extra };
            expect(mine.translate("common", key, options), `${lang} ${key} ${JSON.stringify(options)}`).toEqual(
              theirs(key, options as never),
            );
            checked++;
          }
    }
    expect(checked).toBe(SITE_LANGS.length * counts.length * ((keys.length - 1) * 5 + 2));
    // The categories the test covers are the ones the portal's languages have.
    for (const lang of SITE_LANGS)
      for (const type of ["cardinal", "ordinal"] as const)
        for (const c of new Intl.PluralRules(LANG_TAG[lang], { type }).resolvedOptions().pluralCategories) expect(CATEGORIES).toContain(c);
  });

  it("gives i18next's text for every key of every locale when a count is passed", () => {
    for (const lang of SITE_LANGS) {
      const resources = RESOURCES[LANG_LOCALE[lang]] as unknown as Resources;
      const mine = new Translator(lang, resources);
      for (const ns of NAMESPACES) {
        const theirs = fixedT(lang, ns);
        for (const [key] of leaves(resources[ns]))
          for (const count of [0, 1, 2, 5])
            expect(mine.translate(ns, key, { count, returnObjects: true }), `${lang} ${ns}:${key} ${count}`).toEqual(
              theirs(key, { count, returnObjects: true }),
            );
      }
    }
  });

  it("renders <Trans> with named tags and a hook bound to a namespace", () => {
    const resources = RESOURCES.zh_CN as unknown as Resources;
    const translator = new Translator("cn", resources);
    function Legal() {
      const { t, i18n, ready } = useTranslation("auth");
      return createElement(
        "p",
        { "data-lang": i18n.language, "data-ready": String(ready) },
        createElement(Trans, {
          t,
          i18nKey: "register.agreeToTOS",
          components: { terms: createElement("a", { href: "/cn/terms" }), privacy: createElement("a", { href: "/cn/privacy" }) },
        }),
      );
    }
    const html = renderToStaticMarkup(createElement(TranslatorProvider, { translator, children: createElement(Legal) }));
    expect(html).toBe(
      '<p data-lang="zh-CN" data-ready="true">我同意<a href="/cn/terms">服务条款</a>和<a href="/cn/privacy">隐私政策</a>。</p>',
    );
  });

  it("loads a namespace the page did not embed, once, and tells the components", async () => {
    const fetched: string[] = [];
    const translator = new Translator("jp", { common: {} }, async (lang, ns) => {
      fetched.push(`${lang}/${ns}`);
      return (RESOURCES.ja_JP as unknown as Resources)[ns];
    });
    let told = 0;
    translator.subscribe(() => told++);
    expect(translator.has("order")).toBe(false);
    await Promise.all([translator.load(["order"]), translator.load(["order", "common"])]);
    expect(fetched).toEqual(["jp/order"]);
    expect(told).toBe(1);
    expect(translator.translate("order", "next")).toBe(fixedT("jp", "order")("next"));
  });
});
