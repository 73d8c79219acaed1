// Which requests carry a client-side navigation's data (issue 22 §7): only those wait for the page's translations.
import { describe, expect, it } from "vitest";
import { singleFetchPage } from "../../app/lib/namespace-preload";

const origin = "https://portal.example";

describe("singleFetchPage", () => {
  it("names the page of a single-fetch data request", () => {
    expect(singleFetchPage(new URL("/en/researcher.data", origin), undefined, origin)).toBe("/en/researcher");
    expect(singleFetchPage(`${origin}/br/researcher/submit/new.data?_routes=routes%2Fsubmit.new`, { method: "get" }, origin)).toBe(
      "/br/researcher/submit/new",
    );
    expect(singleFetchPage("/_root.data", undefined, origin)).toBe("/");
    expect(singleFetchPage(new Request(`${origin}/cn/account.data`), undefined, origin)).toBe("/cn/account");
  });

  it("leaves every other request alone", () => {
    // An action's POST: its redirect or revalidation is the GET that follows.
    expect(singleFetchPage(`${origin}/en/login.data`, { method: "POST" }, origin)).toBeNull();
    expect(singleFetchPage(new Request(`${origin}/en/login.data`, { method: "POST" }), undefined, origin)).toBeNull();
    expect(singleFetchPage(`${origin}/locales/en_US/common.json`, undefined, origin)).toBeNull();
    expect(singleFetchPage("/api/order-form/new", undefined, origin)).toBeNull();
    expect(singleFetchPage("https://elsewhere.example/en/researcher.data", undefined, origin)).toBeNull();
    expect(singleFetchPage("http://[bad", undefined, origin)).toBeNull();
  });
});
