import { describe, expect, it } from "vitest";
import { pickLanguage, withLang, LANG_TAG, LANG_LOCALE } from "../../app/common/i18n";
import { languageRedirect } from "../../server/http/lang";

describe("language choice", () => {
  it("maps prefixes to locales and html lang tags", () => {
    expect(LANG_LOCALE).toEqual({ en: "en_US", cn: "zh_CN", jp: "ja_JP", br: "pt_BR", es: "es_ES" });
    expect(LANG_TAG).toEqual({ en: "en-US", cn: "zh-CN", jp: "ja-JP", br: "pt-BR", es: "es-ES" });
  });
  it("prefers the cookie, then Accept-Language by quality, then en", () => {
    expect(pickLanguage("jp", "pt-BR")).toBe("jp");
    expect(pickLanguage(undefined, "fr-FR,fr;q=0.9,es;q=0.8,zh;q=0.7")).toBe("es");
    expect(pickLanguage(undefined, "en;q=0.1, zh-Hans-CN;q=0.9")).toBe("cn");
    expect(pickLanguage("xx", "de-DE")).toBe("en");
    expect(pickLanguage(undefined, undefined)).toBe("en");
    expect(pickLanguage(undefined, "pt;q=0")).toBe("en");
  });
  it("replaces or adds the prefix of a path", () => {
    expect(withLang("cn", "/en/login?redirect=%2Fx")).toBe("/cn/login?redirect=%2Fx");
    expect(withLang("br", "/researcher")).toBe("/br/researcher");
    expect(withLang("es", "/")).toBe("/es");
  });
});

describe("languageRedirect", () => {
  it("redirects paths without a prefix, keeping path and query", () => {
    expect(languageRedirect("/researcher", "?x=1", undefined, "ja")).toBe("/jp/researcher?x=1");
    expect(languageRedirect("/", "", "br", "en")).toBe("/br");
    expect(languageRedirect("/login/forgot-password", "", undefined, undefined)).toBe("/en/login/forgot-password");
  });
  it("leaves prefixed and unknown paths alone", () => {
    expect(languageRedirect("/en/login", "", undefined, undefined)).toBeUndefined();
    expect(languageRedirect("/xx/login", "", undefined, undefined)).toBeUndefined();
    expect(languageRedirect("/api/application", "", undefined, undefined)).toBeUndefined();
  });
});
