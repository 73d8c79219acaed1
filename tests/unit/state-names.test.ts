// Issue 22 item 2: US states and Chinese provinces are named in the page's language on the address forms
// (`common:states.<ISO2>.<code>`, read by app/lib/state-name.ts), not in the seeded English.
import { describe, expect, it } from "vitest";
import i18next from "i18next";
import { COUNTRIES } from "../../db/seed/data/countries";
import { resourcesByTag } from "../../server/i18n";
import { LANG_TAG, SITE_LANGS } from "../../app/common/i18n";
import { stateName } from "../../app/lib/state-name";
import { Translator } from "../../app/lib/translate";

describe("state and province names", () => {
  const resources = resourcesByTag() as Record<string, Record<string, { states?: Record<string, Record<string, string>> }>>;
  for (const iso2 of ["US", "CN"]) {
    const seeded = COUNTRIES.find((c) => c.iso2 === iso2)!.states!;
    it(`names every ${iso2} subdivision in all five languages`, () => {
      for (const lang of SITE_LANGS) {
        const names = resources[LANG_TAG[lang]].common.states?.[iso2] ?? {};
        expect(Object.keys(names).sort(), `${lang} ${iso2}`).toEqual(seeded.map((s) => s.code).sort());
      }
    });
  }

  it("gives the Chinese form Chinese names, and keeps the stored name where none exists", async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: LANG_TAG.cn, resources: resourcesByTag(), defaultNS: "common" });
    expect(stateName(i18n.t, "US", { code: "CA", name: "California" })).toBe("加利福尼亚州");
    expect(stateName(i18n.t, "CN", { code: "GD", name: "Guangdong" })).toBe("广东省");
    expect(stateName(i18n.t, "MX", { code: "JAL", name: "Jalisco" })).toBe("Jalisco");
  });

  it("keeps the stored name with the browser's translator too, which gives a missing key back (a Brazilian state)", () => {
    const resources = resourcesByTag()[LANG_TAG.en] as Record<string, Record<string, unknown>>;
    const t = new Translator("en", resources).fixedT("common");
    expect(stateName(t, "BR", { code: "PR", name: "Paraná" })).toBe("Paraná");
    expect(stateName(t, "US", { code: "CA", name: "California" })).toBe("California");
  });
});
