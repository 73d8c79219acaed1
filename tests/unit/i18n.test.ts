import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { RESOURCES } from "../../locales";
import { LANG_LOCALE, NAMESPACES, SITE_LANGS } from "../../app/common/i18n";
import { fixedT } from "../../server/i18n";
import { CONFIG_DEFAULTS } from "../../server/config/definitions";

type Tree = Record<string, unknown>;

function flatten(tree: Tree, prefix = ""): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(tree)) {
    if (v && typeof v === "object" && !Array.isArray(v)) Object.assign(out, flatten(v as Tree, `${prefix}${k}.`));
    else out[`${prefix}${k}`] = v;
  }
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}|<(\w+)>/g)].map((m) => m[1] ?? m[2]).sort();

describe("translations", () => {
  const locales = SITE_LANGS.map((l) => LANG_LOCALE[l]);
  const english = Object.fromEntries(NAMESPACES.map((ns) => [ns, flatten(RESOURCES.en_US[ns] as Tree)]));

  it("has a file for every namespace in every locale", () => {
    for (const locale of locales) for (const ns of NAMESPACES) expect(RESOURCES[locale]?.[ns], `${locale}/${ns}`).toBeTruthy();
    for (const locale of locales)
      expect(fs.readdirSync(path.resolve("locales", locale)).sort()).toEqual(NAMESPACES.map((n) => `${n}.json`).sort());
  });

  it.each(locales)("%s has every key, none empty, with the same placeholders", (locale) => {
    for (const ns of NAMESPACES) {
      const flat = flatten(RESOURCES[locale][ns] as Tree);
      expect(Object.keys(flat).sort(), `${locale}/${ns} keys`).toEqual(Object.keys(english[ns]).sort());
      for (const [key, value] of Object.entries(flat)) {
        const values = Array.isArray(value) ? value : [value];
        const source = english[ns][key];
        const sources = Array.isArray(source) ? source : [source];
        expect(values.length, `${locale}/${ns}:${key} length`).toBe(sources.length);
        values.forEach((v, i) => {
          expect(typeof v === "string" && v.trim().length > 0, `${locale}/${ns}:${key} is empty`).toBe(true);
          expect(placeholders(v as string), `${locale}/${ns}:${key} placeholders`).toEqual(placeholders(sources[i] as string));
        });
      }
    }
  });

  it("is really translated (not copies of English) in the other locales", () => {
    for (const locale of locales.filter((l) => l !== "en_US")) {
      const flat = flatten(RESOURCES[locale].common as Tree);
      const same = Object.entries(flat).filter(
        // Place names (`states.*`: "Alabama", "Sichuan") are rightly the same in Portuguese and Spanish.
        ([k, v]) => typeof v === "string" && v === english.common[k] && !/^\{\{|^©|Researcher Services/.test(v) && !k.startsWith("states."),
      );
      expect(same.length / Object.keys(flat).length, `${locale} untranslated: ${same.map(([k]) => k).join(", ")}`).toBeLessThan(0.05);
    }
  });

  it("has every key that the code uses literally", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(tsx?|ts)$/.test(e.name)) files.push(p);
      }
    };
    walk(path.resolve("app"));
    walk(path.resolve("server"));
    const all = new Set(NAMESPACES.flatMap((ns) => Object.keys(english[ns]).map((k) => `${ns}:${k}`)));
    const exists = (key: string) => (key.includes(":") ? all.has(key) : NAMESPACES.some((ns) => all.has(`${ns}:${key}`)));
    const missing: string[] = [];
    for (const file of files) {
      const src = fs.readFileSync(file, "utf8");
      for (const m of src.matchAll(/\bt\(\s*"([a-zA-Z0-9_.:-]+)"/g))
        if (!exists(m[1])) missing.push(`${path.relative(".", file)}: ${m[1]}`);
      for (const m of src.matchAll(/i18nKey="([a-zA-Z0-9_.:-]+)"/g))
        if (!exists(m[1])) missing.push(`${path.relative(".", file)}: ${m[1]}`);
      for (const m of src.matchAll(/"((?:auth|common):[a-zA-Z0-9_.-]+)"/g))
        if (!exists(m[1])) missing.push(`${path.relative(".", file)}: ${m[1]}`);
    }
    expect(missing).toEqual([]);
  });

  it("has a text for every footer link", async () => {
    for (const link of CONFIG_DEFAULTS.links.value.footer) expect(english.common[link.key], link.key).toBeTruthy();
  });

  it("translates server-side text for every language", () => {
    expect(fixedT("cn")("error.notFoundTitle")).toBe(RESOURCES.zh_CN.common.error && (RESOURCES.zh_CN.common.error as Tree).notFoundTitle);
    expect(fixedT("jp", "auth")("login.newTitle")).not.toBe(fixedT("en", "auth")("login.newTitle"));
  });
});
