// The API data model against spec 1 §3's field lists (issue 9 §3.15): every field is present, with an honest
// value where its area has not landed (docs/api.md "Account"). Registration takes the optional fields.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, type TestPortal } from "../helpers/portal";
import { sendJson as send, uploadDocx } from "../helpers/api";
import { createOrderFormFor, createPlacedOrder } from "../helpers/factories";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

/** Spec 1 §3 "User (core fields)", in the spec's order. */
const SPEC_USER_FIELDS = [
  "identity",
  "active",
  "firstName",
  "lastName",
  "fullName",
  "email",
  "phoneNumber",
  "title",
  "institution",
  "orcid",
  "secondaryEmail",
  "foundUs",
  "country",
  "countryId",
  "city",
  "currency",
  "currencyIso",
  "customerSince",
  "homeDirectory",
  "loggedIn",
  "addresses",
  "credits",
  "prepayments",
  "fapiaos",
  "paymentMethods",
  "unpaidInvoices",
  "linkedAccounts",
  "changePasswordEnabled",
  "creditNotesLocked",
  "excludeFromDelinquentCheck",
  "gtmUid",
  "hasLocalIdentity",
  "hasRewards",
  "hideInvoices",
  "impersonatorIdentity",
  "languageAssessmentEnabled",
  "localizationMismatch",
  "missingFields",
  "numberOfOrders",
  "orderFormInProgress",
  "overrideDownloadAvailable",
  "preferredGroup",
  "referralCode",
  "referralCreditsEarnedToDate",
  "requiresLocalizationRedirect",
  "showCheckSpamMessage",
  "shouldDisplayCountryModal",
  "submittedTestimonial",
  "totalRewardPoints",
  "voucherAvailable",
  "loyaltyLevelIdentity",
  "watchlistNotification",
  "wfoeMigrationStatus",
];
const SPEC_WFOE_FIELDS = [
  "acceptedTermsOfService",
  "migrated",
  "inMigratingGroup",
  "optedOut",
  "optedIn",
  "hasUnpaidInvoices",
  "migrationEligible",
  "noticeSkipped",
];

describe("GET /api/account", () => {
  it("has every user field of spec 1 §3, honest where the area is not there yet", async () => {
    const { client } = await portal.researcher();
    const { user } = await (await client.get("/api/account")).json();
    expect(Object.keys(user)).toEqual(expect.arrayContaining(SPEC_USER_FIELDS));
    expect(Object.keys(user.wfoeMigrationStatus)).toEqual(expect.arrayContaining(SPEC_WFOE_FIELDS));
    expect(Object.keys(user.currency)).toEqual(expect.arrayContaining(["sign", "exchangeRate", "shortName", "numDecimals"]));
    expect(user).toMatchObject({
      homeDirectory: "/en/researcher",
      credits: [],
      prepayments: [],
      fapiaos: [],
      paymentMethods: [],
      unpaidInvoices: [],
      linkedAccounts: [],
      orderFormInProgress: null,
      preferredGroup: null,
      referralCode: expect.stringMatching(/^[A-Z0-9]+$/),
      referralCreditsEarnedToDate: 0,
      totalRewardPoints: 0,
      localizationMismatch: false,
      requiresLocalizationRedirect: false,
      loggedIn: true,
    });
  });

  it("reads unpaid invoices and the order form in progress from the data", async () => {
    const researcher = await portal.researcher();
    const order = await createPlacedOrder(portal.ctx, researcher);
    const form = await createOrderFormFor(portal.ctx, researcher);
    const { user } = await (await researcher.client.get("/api/account")).json();
    expect(user.unpaidInvoices).toEqual([
      { number: order.invoiceNumber, currencyIso: "USD", balance: expect.any(Number), dueAt: expect.any(String) },
    ]);
    expect(user.wfoeMigrationStatus.hasUnpaidInvoices).toBe(true);
    expect(user.orderFormInProgress).toEqual({ identity: form.id });
    expect(user.numberOfOrders).toBe(1);
  });
});

describe("GET /api/application", () => {
  it("lists the service groups with their services, named in the request's language", async () => {
    const body = await (await fetch(`${portal.url}/api/application`, { headers: { "accept-language": "en" } })).json();
    expect(body.serviceGroups.length).toBeGreaterThan(3);
    const editing = body.serviceGroups.find((g: { slug: string }) => g.slug === "editing");
    expect(editing).toMatchObject({ slug: "editing", name: "Editing", serviceType: "editing" });
    expect(editing.services).toContain("standard-editing");
  });
});

describe("order form API shape", () => {
  it("carries the order-form and discount fields of spec 1 §3", async () => {
    const { client: c } = await portal.researcher();
    const id: string = (await (await c.get("/api/order-form/new")).json()).orderForm.identity;
    await uploadDocx(c, id);
    await send(c, "PUT", `/api/order-form/${id}/basic-details`, { customerGoal: "manuscript", wordCount: 2000, language: 1 });
    const r = await send(c, "PUT", `/api/order-form/${id}/selected-service`, { serviceIdentities: ["scientific-editing"] });
    const { orderForm } = await r.json();
    for (const field of [
      "identity",
      "currency",
      "discounts",
      "lineItems",
      "applicablePromotionalCodeBenefits",
      "services",
      "selectedService",
      "steps",
      "currentStep",
      "wordCount",
      "manuscripts",
      "displayedManuscripts",
      "manuscriptLanguageId",
      "customerGoal",
      "availableConciergeServices",
      "referralEmails",
      "messages",
      "estimateId",
      "deadline",
      "deadlines",
      "rushDeadline",
      "expressDeadline",
      "nonRushDeadline",
      "rushPriceDifference",
      "expressPriceDifference",
      "rushDiscountEligible",
      "rushDiscountPercent",
      "receiptCode",
      "requireCustomerNotification",
      "adminCreated",
      "answers",
      "selections",
      "version",
      "noServiceOption",
      "veryLongWordCount",
      "areaOfStudyId",
      "areaOfStudyPrediction",
      "projectTitle",
      "projectAuthors",
      "styleOfEnglish",
      "journal",
      "showJournalDetailsInput",
      "hasJournalRec",
      "hasScientificEditing",
      "hasTargetJournal",
      "hasTranslation",
      "serviceBundle",
    ]) {
      expect(orderForm, field).toHaveProperty(field);
    }
    expect(orderForm).toMatchObject({ selectedService: "scientific-editing", hasScientificEditing: true, showJournalDetailsInput: false });
    expect(typeof orderForm.nonRushDeadline).toBe("string");
    // Spec 1 §3 "Service bundle" and "Bundle question", once the visitor asked for bundles and answered.
    await send(c, "POST", `/api/order-form/${id}/service-bundle-interest`, { interested: true });
    await send(c, "POST", `/api/order-form/${id}/service-bundle-questions`, { answers: { goals: { choices: ["choose-journal"] } } });
    const { orderForm: withBundles } = await (await c.get(`/api/order-form/${id}/load`)).json();
    expect(withBundles.availableServiceBundles).toHaveLength(1);
    expect(withBundles.availableServiceBundles[0]).toMatchObject({
      name: "Publication Ready",
      primaryService: { id: "premium-editing" },
      primaryServiceName: "Premium Editing",
      discount: { percent: 10 },
    });
    for (const field of ["id", "services", "deadlines", "learnMoreTerms"])
      expect(withBundles.availableServiceBundles[0]).toHaveProperty(field);
    expect(withBundles.serviceBundleQuestions[0]).toMatchObject({ slug: "goals", type: "multiple-choice" });
    expect(Object.keys(withBundles.serviceBundleQuestions[0])).toEqual(expect.arrayContaining(["id", "term", "type", "choices"]));
    expect(withBundles.estimateId).toBeNull();
    const quote = await (await send(c, "PUT", `/api/order-form/${id}/generate-price-quote`)).json();
    expect((await (await c.get(`/api/order-form/${id}/load`)).json()).orderForm.estimateId).toBe(quote.estimateId);
    for (const d of orderForm.discountDetails) {
      expect(Object.keys(d)).toEqual(
        expect.arrayContaining(["code", "description", "amount", "percentBased", "applied", "endDate", "appliedAmount"]),
      );
    }
  });
});

describe("registration's optional fields (spec 1 §3)", () => {
  const base = {
    password: "register-pass-1",
    firstName: "Ana",
    lastName: "Lima",
    countryCode: "BR",
    phoneNumber: "11987654321",
    country: "BR",
    currency: "BRL",
    language: "br",
    agreeToTOS: true,
  };

  it("are taken by the API: title, workplace, ORCID with its check digit, secondary e-mail", async () => {
    const c = new Client(portal.url);
    const email = `ana.${Date.now()}@example.org`;
    let r = await send(c, "POST", "/api/auth/register", { ...base, email, orcid: "0000-0002-1825-0098" });
    expect(r.status).toBe(400);
    expect((await r.json()).fieldErrors).toMatchObject({ orcid: "orcidInvalid" });
    r = await send(c, "POST", "/api/auth/register", { ...base, email, title: "x".repeat(41) });
    expect((await r.json()).fieldErrors).toMatchObject({ title: "field-too-long" });
    r = await send(c, "POST", "/api/auth/register", {
      ...base,
      email,
      title: "Dr",
      workplace: "Instituto Butantan",
      orcid: "0000-0002-1825-0097",
      secondaryEmail: "ana.lab@example.org",
      foundUs: "colleague",
    });
    expect(r.status).toBe(201);
    const { user } = await (await c.get("/api/account")).json();
    expect(user).toMatchObject({
      title: "Dr",
      workplace: "Instituto Butantan",
      orcid: "0000-0002-1825-0097",
      secondaryEmail: "ana.lab@example.org",
      foundUs: "colleague",
      countryCode: { value: "+55", isoCode: "BR" },
    });
  });

  it("are on the register page, under 'More about you', and saved without JavaScript", async () => {
    const c = new Client(portal.url);
    const email = `bia.${Date.now()}@example.org`;
    let r = await c.post("/br/register", { intent: "check-email", email });
    const stage2 = await r.text();
    expect(stage2).toContain("Mais sobre você (opcional)");
    for (const name of ["title", "workplace", "orcid", "secondaryEmail", "foundUs", "otherFoundUs"])
      expect(stage2).toContain(`name="${name}"`);
    expect(stage2).toContain('<option value="colleague">Um colega</option>');
    const form = { ...base, intent: "register", email, agreeToTOS: "on", workplace: "USP" };
    r = await c.post("/br/register", { ...form, orcid: "0000-0002-1825-0098" });
    expect(r.status).toBe(400);
    const refused = await r.text();
    expect(refused).toContain('<details class="more-about-you" open=""');
    r = await c.post("/br/register", { ...form, orcid: "0000-0002-1825-0097", foundUs: "conference", otherFoundUs: "SBPC 2026" });
    expect(r.status).toBe(303);
    const { user } = await (await c.get("/api/account")).json();
    expect(user).toMatchObject({ workplace: "USP", orcid: "0000-0002-1825-0097", foundUs: "conference", otherFoundUs: "SBPC 2026" });
  });
});
