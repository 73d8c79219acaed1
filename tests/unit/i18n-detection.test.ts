// The request's language (server/http/request-language.ts, ADR 014): URL prefix, then the
// lang cookie, then Accept-Language. It must answer exactly as the hand-written rule it replaced, and as
// the HTTP layer's redirect of prefix-less paths (which runs before a Web Request exists).
import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../locales";
import { LANG_LOCALE, NAMESPACES, SITE_LANGS, isSiteLang, pickLanguage, type SiteLang } from "../../app/common/i18n";
import { detectLang, requestLanguage } from "../../server/http/request-language";
import { requestTranslator } from "../../server/i18n/locale";
import { fixedT } from "../../server/i18n";
import { languageRedirect } from "../../server/http/lang";

/** The rule before remix-i18next (app/i18n.server.ts langForRequest), kept here as the reference. */
function handWritten(path: string, cookie: string | undefined, acceptLanguage: string | undefined): SiteLang {
  const first = path.split("/")[1];
  if (isSiteLang(first)) return first;
  return pickLanguage(cookie, acceptLanguage);
}

function request(path: string, cookie?: string, acceptLanguage?: string): Request {
  const headers = new Headers();
  if (cookie !== undefined) headers.set("cookie", `theme=dark; lang=${cookie}; sid=abc`);
  if (acceptLanguage !== undefined) headers.set("accept-language", acceptLanguage);
  return new Request(`http://portal.test${path}`, { headers });
}

const PATHS = [
  "/",
  "/en",
  "/cn/login",
  "/jp/researcher/x",
  "/br",
  "/es/account",
  "/xx/login",
  "/api/auth/login",
  "/researcher",
  "/english",
];
const COOKIES = [undefined, "en", "cn", "jp", "br", "es", "xx", "", "zh-CN", "%E0%A4%A"];
const HEADERS = [
  undefined,
  "",
  "ja-JP,ja;q=0.9",
  "fr-FR,fr;q=0.9,es;q=0.8,zh;q=0.7",
  "en;q=0.1, zh-Hans-CN;q=0.9",
  "pt;q=0",
  "de-DE",
  "de-DE,de;q=0.9,zh-CN;q=0.8",
  "en-GB,es-ES;q=0.5",
  "*",
  "pt-PT",
  "zh-TW;q=0.5, ja;q=0.5",
  "es;q=abc, ja",
  "x-klingon, es",
  ",,;q=1",
];

describe("the request's language (remix-i18next)", () => {
  it("answers as the hand-written rule for every prefix, cookie and Accept-Language", async () => {
    let checked = 0;
    for (const path of PATHS)
      for (const cookie of COOKIES)
        for (const header of HEADERS) {
          const expected = handWritten(path, cookie === undefined ? undefined : safeDecode(cookie), header);
          expect(await detectLang(request(path, cookie, header)), `${path} lang=${cookie} accept-language=${header}`).toBe(expected);
          checked++;
        }
    expect(checked).toBe(PATHS.length * COOKIES.length * HEADERS.length);
  });

  it("puts the URL prefix first, then the cookie, then Accept-Language by quality", async () => {
    expect(requestLanguage(request("/login", undefined, "fr;q=0.9, pt;q=0.5, es;q=0.6"))).toBe("es");
    expect(requestLanguage(request("/login", "xx", "fr, de"))).toBeUndefined();
    expect(await detectLang(request("/cn/login", "jp", "es"))).toBe("cn");
    expect(await detectLang(request("/login", "jp", "es"))).toBe("jp");
    expect(await detectLang(request("/login", "xx", "fr, es;q=0.8"))).toBe("es");
    expect(await detectLang(request("/login", undefined, "pt;q=0"))).toBe("en");
    expect(await detectLang(request("/api/order-form"))).toBe("en");
  });

  it("agrees with the HTTP layer's redirect of paths without a prefix", async () => {
    for (const path of ["/", "/researcher", "/login/forgot-password"])
      for (const cookie of COOKIES)
        for (const header of HEADERS) {
          const target = languageRedirect(path, "", cookie, header);
          expect(target?.split("/")[1], `${path} lang=${cookie} accept-language=${header}`).toBe(
            await detectLang(request(path, cookie, header)),
          );
        }
  });

  it("gives loaders the same text as the server's other translators, for every key of every locale", async () => {
    for (const lang of SITE_LANGS)
      for (const ns of NAMESPACES) {
        const t = await requestTranslator(lang, ns);
        const theirs = fixedT(lang, ns);
        for (const key of keys(RESOURCES[LANG_LOCALE[lang]][ns]))
          expect(t(key, { returnObjects: true }), `${lang} ${ns}:${key}`).toEqual(theirs(key, { returnObjects: true }));
        expect(t("auth:login.newTitle")).toBe(theirs("auth:login.newTitle"));
      }
    // One i18next instance per language and namespace, made once.
    expect(await requestTranslator("cn", "order")).toBe(await requestTranslator("cn", "order"));
  });
});

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function keys(node: unknown, prefix = ""): string[] {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return [prefix];
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}
