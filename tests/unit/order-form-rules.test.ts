// Pure rules of the order form that moved out of the hub (issue 8): referral addresses, a visitor's default currency, and the wizard's paths.
import { describe, expect, it } from "vitest";
import {
  checkField,
  journalUrlField,
  projectTitleField,
  quantityField,
  REFERRAL_EMAILS_MAX,
  referralEmail,
  referralEntries,
  reworkInstructionsField,
  wordCountField,
} from "#common/order-form/schemas";
import { WORD_COUNT_MAX } from "#common/order-form/constants";
import { siteDraftCurrency } from "#server/order-form/drafts";
import { paths } from "#common/paths";
import type { Localization } from "#server/config";

describe("referral e-mails", () => {
  it("read an array or comma-separated text, trimmed and lower-cased", () => {
    expect(referralEntries(" A@Example.org, b@example.org,, ")).toEqual(["a@example.org", "b@example.org"]);
    expect(referralEntries(["x@example.org", " "])).toEqual(["x@example.org"]);
    expect(referralEntries(undefined)).toEqual([]);
    expect(referralEntries(42)).toEqual(["42"]);
  });
  it("check each address with the shared e-mail rule", () => {
    expect(referralEmail.safeParse("a@example.org").success).toBe(true);
    expect(referralEmail.safeParse("not-an-email").success).toBe(false);
    expect(referralEmail.safeParse(`${"a".repeat(250)}@example.org`).success).toBe(false);
    expect(REFERRAL_EMAILS_MAX).toBe(10);
  });
});

describe("a new visitor's currency", () => {
  const site = (identity: string, defaultCurrency: string) => ({ identity, defaultCurrency }) as Localization;
  it("is the site's, but CNY on the China site only", () => {
    expect(siteDraftCurrency(site("US", "USD"))).toBe("USD");
    expect(siteDraftCurrency(site("CN", "CNY"))).toBe("CNY");
    expect(siteDraftCurrency(site("XX", "CNY"))).toBe("USD");
    expect(siteDraftCurrency(site("JP", "JPY"))).toBe("JPY");
  });
});

describe("wizard paths", () => {
  it("are built as the pages wrote them by hand", () => {
    expect(paths.submit("en", "price-quote-completed", { estimate: "Q0123456789AB" })).toBe(
      "/en/researcher/submit/price-quote-completed?estimate=Q0123456789AB",
    );
    expect(paths.submit("jp", "details", { continue: undefined })).toBe("/jp/researcher/submit/details");
    expect(paths.submitAnyLang("new", { rework: "RS100001" })).toBe("/researcher/submit/new?rework=RS100001");
    expect(paths.api.areasOfStudy("bio logy")).toBe("/api/areas-of-study?q=bio%20logy");
    expect(paths.api.journals("")).toBe("/api/journals?q=");
  });
});

describe("step field rules", () => {
  const err = (schema: Parameters<typeof checkField>[0], v: unknown) => {
    const r = checkField(schema, v);
    return r.ok ? null : r.error;
  };
  it("word count: required, a whole number from 1 to WORD_COUNT_MAX", () => {
    expect(err(wordCountField, "")).toBe("order:errors.value-required");
    expect(err(wordCountField, undefined)).toBe("order:errors.value-required");
    expect(checkField(wordCountField, " 4500 ")).toEqual({ ok: true, value: 4500 });
    expect(checkField(wordCountField, WORD_COUNT_MAX)).toEqual({ ok: true, value: WORD_COUNT_MAX });
    for (const bad of ["0", "-1", "1.5", "abc", WORD_COUNT_MAX + 1])
      expect(err(wordCountField, bad)).toBe("order:errors.word-count-range-error");
  });
  it("quantity, project title, journal address and rework instructions", () => {
    expect(checkField(quantityField, "3")).toEqual({ ok: true, value: 3 });
    for (const bad of [0, 26, "x", 2.5]) expect(err(quantityField, bad)).toBe("order:errors.quantity-range-error");
    expect(err(projectTitleField, "  ")).toBe("order:errors.project-title-required");
    expect(err(projectTitleField, "x".repeat(513))).toBe("order:errors.project-title-too-long");
    expect(checkField(journalUrlField, "")).toEqual({ ok: true, value: "" });
    expect(err(journalUrlField, "ftp://x")).toBe("order:errors.journal-url-invalid");
    expect(err(journalUrlField, `https://${"x".repeat(250)}`)).toBe("order:errors.journal-url-invalid");
    expect(checkField(reworkInstructionsField, " look ")).toEqual({ ok: true, value: "look" });
    expect(err(reworkInstructionsField, "x".repeat(2001))).toBe("order:errors.rework-instructions-too-long");
  });
});
