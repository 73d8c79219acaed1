// The wizard's pages and the order-form API parse the same schemas (issue 8 §1): a page's posted form
// (through conform, as app/lib/forms.server parses it) and the API's JSON body give the domain the same value.
import { describe, expect, it } from "vitest";
import { parseFields } from "#app/lib/forms.server";
import {
  additionalServicesForm,
  basicDetailsBody,
  bundleChoiceForm,
  bundleQuestionsForm,
  detailsBody,
  detailsForm,
  deliveryTierForm,
  manuscriptDetailsBody,
  paymentBody,
  paymentForm,
  reworkBasicDetailsBody,
  servicesForm,
} from "#common/order-form/schemas";

/** A posted form: each field once, or several times (a checkbox group). */
const posted = (fields: Record<string, string | string[]>, schema: unknown) => {
  const data = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(name, v);
  const s = parseFields(data, schema);
  if (s.status !== "success") throw new Error("the form did not parse");
  return s.value;
};

describe("page forms and API bodies", () => {
  it("get-started: the checkbox and the JSON flag, languageId and language, give one input", () => {
    const page = posted(
      { intent: "next", customerGoal: "manuscript", uploadFilesLater: "on", wordCount: "4500", languageId: "1" },
      basicDetailsBody,
    );
    const api = basicDetailsBody.parse({ customerGoal: "manuscript", uploadFilesLater: true, wordCount: "4500", language: "1" });
    expect(page).toEqual(api);
    // The language is an id bounded to its column (ADR 044): parsed to a number at the edge.
    expect(api).toEqual({ customerGoal: "manuscript", uploadFilesLater: true, wordCount: "4500", languageId: 1 });
  });

  it("leaves values to the domain (it reports every failing field at once) and keeps the API's strict flags", () => {
    expect(posted({ wordCount: "many" }, basicDetailsBody)).toEqual({ wordCount: "many" });
    // An empty field is absent, as the domain's "required" rules expect.
    expect(posted({ wordCount: "" }, basicDetailsBody)).toEqual({});
    // The API took only `true` as true, never a string.
    expect(basicDetailsBody.parse({ uploadFilesLater: "yes" }).uploadFilesLater).toBe(false);
    expect(reworkBasicDetailsBody.parse({ uploadFilesLater: true, languageId: 2, instructions: "x" })).toEqual({
      uploadFilesLater: true,
      languageId: 2,
      instructions: "x",
    });
    expect(manuscriptDetailsBody.parse({ wordCount: 10, language: 3 })).toEqual({ wordCount: 10, languageId: 3 });
  });

  it("payment: the page's acceptTerms and the API's acceptedTermsAndConditions place the same order", () => {
    const page = posted({ paymentMethodId: "2", purchaseOrder: "PO-1", acceptTerms: "on" }, paymentForm);
    expect(page).toEqual(paymentBody.parse({ paymentMethodId: 2, purchaseOrder: "PO-1", acceptedTermsAndConditions: true }));
    expect(posted({ paymentMethodId: "2" }, paymentForm)).toEqual({ paymentMethodId: 2, purchaseOrder: null, acceptTerms: false });
  });

  it("details: the page's journal fields and the API's journal object give one input", () => {
    const page = posted(
      {
        projectTitle: "Cells under stress",
        areaOfStudyId: "3",
        styleOfEnglish: "british",
        journalName: "Nature",
        journalUrl: "https://nature.com",
      },
      detailsForm,
    );
    const api = detailsBody.parse({
      projectTitle: "Cells under stress",
      areaOfStudyId: "3",
      styleOfEnglish: "british",
      journal: { name: "Nature", url: "https://nature.com" },
    });
    expect(page).toEqual(api);
    expect(detailsBody.parse({ currencyIso: "EUR", journal: "not an object" })).toEqual({ currencyIso: "EUR" });
  });

  it("services and add-ons: repeated fields as lists, quantity.<service> as numbers", () => {
    expect(
      posted(
        { services: ["standard-editing", "figure-formatting"], "quantity.figure-formatting": "3", declineEditing: "on" },
        servicesForm,
      ),
    ).toEqual({ services: ["standard-editing", "figure-formatting"], quantity: { "figure-formatting": 3 }, declineEditing: true });
    expect(posted({}, servicesForm)).toEqual({ services: [], quantity: {} });
    expect(posted({ addOns: "table-formatting", toggle: "" }, additionalServicesForm)).toEqual({
      addOnSlugs: ["table-formatting"],
      quantities: {},
      bundleInterest: false,
      toggle: undefined,
    });
    expect(posted({ tier: "rush" }, deliveryTierForm)).toEqual({ tier: "rush" });
    expect(posted({ tier: "overnight" }, deliveryTierForm)).toEqual({ tier: "standard" });
  });

  it("bundles: a card's delivery belongs to its bundle; the questions keep a checkbox beside its count", () => {
    const choice = { bundleId: "4", "delivery.4": "rush", intent: "choose" };
    expect(posted(choice, bundleChoiceForm)).toEqual({ bundleId: 4, delivery: "rush" });
    expect(posted({ intent: "skip" }, bundleChoiceForm)).toEqual({ bundleId: null, delivery: undefined });
    expect(bundleQuestionsForm.parse({ goals: "publish,improve", figures: "on", "figures.count": "3", journal: " Nature " })).toEqual({
      goals: { choices: ["publish", "improve"] },
      figures: { on: true, count: 3 },
      tables: { on: false, count: null },
      journal: { journal: "Nature" },
    });
  });
});
