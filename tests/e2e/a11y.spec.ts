// Accessibility (issue 9 §4): axe-core over every page a researcher or staff member reaches, in the js and
// nojs projects, failing on any serious or critical violation. Pages that need an order form in a given
// state get it through the JSON API (page.request shares the browser's cookies), so each page is checked
// as it renders after a real walk, without the cost of clicking through the wizard for every one.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { makeDocx } from "../helpers/fixtures";
import { newResearcher, SEEDED_STAFF } from "./helpers";

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

async function expectAccessible(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), `${path} answered`).toBeLessThan(500);
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const bad = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  // Soft: one run lists every page's violations, not just the first page's.
  expect.soft(bad, `axe on ${path}`).toEqual([]);
}

// axe runs as a script in the page, which a context without JavaScript refuses. In the nojs project each
// page is therefore checked in a context whose scripts are blocked at the network instead: what is checked
// is the server's HTML, never hydrated (the inline scripts only set data), the document a visitor without
// JavaScript gets.
const it = test.extend<{ axePage: Page }>({
  axePage: async ({ browser, page, baseURL }, use, info) => {
    if (!info.project.name.startsWith("nojs")) return use(page);
    const context = await browser.newContext({ baseURL, javaScriptEnabled: true, locale: "en-US" });
    await context.route("**/*", (route) => (route.request().resourceType() === "script" ? route.abort() : route.continue()));
    await use(await context.newPage());
    await context.close();
  },
});

async function api(request: APIRequestContext, method: "GET" | "PUT" | "POST", path: string, data?: unknown) {
  const r = await request.fetch(path, { method, data });
  expect(r.status(), `${method} ${path}: ${await r.text()}`).toBeLessThan(300);
  return r.json();
}

const anonymous = [
  "/en",
  "/en/login",
  "/en/login/forgot-password",
  "/en/register",
  "/en/terms",
  "/en/privacy",
  "/en/no-such-page",
  "/en/researcher/submit/get-started",
  "/cn/login",
  "/cn/register",
  "/cn/researcher/submit/get-started",
  "/br/login",
  "/br/register",
  "/jp",
  "/es/login/forgot-password",
  // The confirmation a ?promo= link shows before anything changes (issue 10 §10), and the WeChat QR page.
  "/br/researcher/submit/new?promo=welcome",
  "/cn/login/wechat",
];

test.describe("accessibility (axe: no serious or critical violation)", () => {
  it("pages seen before signing in", async ({ axePage: page }) => {
    // A dozen pages, each scanned whole: a loaded CI machine needs more than the default 30 s.
    test.setTimeout(90_000);
    for (const path of anonymous) await expectAccessible(page, path);
  });

  it("the account and every wizard step of a signed-in researcher, then the placed order", async ({ axePage: page }) => {
    test.setTimeout(90_000);
    const user = await newResearcher(page.request);
    await api(page.request, "POST", "/api/auth/login", { email: user.email, password: user.password });
    for (const path of ["/en/account", "/en/account/addresses", "/en/account/country", "/cn/account"]) await expectAccessible(page, path);

    const id = (await api(page.request, "GET", "/api/order-form/new")).orderForm.identity as string;
    const upload = await page.request.post(`/api/order-form/${id}/files`, {
      multipart: {
        mainFiles: {
          name: "manuscript.docx",
          mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
          buffer: await makeDocx("Soil microbes regulate nitrogen cycling in temperate forests. ".repeat(40)),
        },
      },
    });
    expect(upload.status(), await upload.text()).toBeLessThan(300);
    await api(page.request, "PUT", `/api/order-form/${id}/basic-details`, { customerGoal: "manuscript", wordCount: 3200, language: 1 });
    await expectAccessible(page, "/en/researcher/submit/manuscript-services");
    await expectAccessible(page, "/br/researcher/submit/manuscript-services");
    await api(page.request, "PUT", `/api/order-form/${id}/selected-service`, {
      serviceIdentities: ["standard-editing"],
      deliveryTier: "standard",
    });
    await expectAccessible(page, "/en/researcher/submit/additional-services");
    await api(page.request, "PUT", `/api/order-form/${id}/step`, { step: "details" });
    await expectAccessible(page, "/en/researcher/submit/details");
    await expectAccessible(page, "/cn/researcher/submit/details");
    const area = (await api(page.request, "GET", "/api/areas-of-study?q=bio")).areas[0].id as number;
    await api(page.request, "PUT", `/api/order-form/${id}/details`, {
      projectTitle: `Accessible order ${Date.now()}`,
      areaOfStudyId: area,
      styleOfEnglish: "american",
    });
    await expectAccessible(page, "/en/researcher/submit/payment-details");
    await expectAccessible(page, "/br/researcher/submit/payment-details");
    const placed = await api(page.request, "POST", `/api/order-form/${id}/payments`, {
      paymentMethodId: 9,
      acceptedTermsAndConditions: true,
    });
    const externalId = placed.order.externalId as string;
    expect(externalId).toMatch(/^RS\d+$/);
    await expectAccessible(page, `/en/researcher/index/details/${externalId}/thank-you`);
    await expectAccessible(page, `/cn/researcher/index/details/${externalId}`);
  });

  it("the staff console", async ({ axePage: page }) => {
    await api(page.request, "POST", "/api/auth/login", SEEDED_STAFF);
    for (const path of ["/en/staff", "/en/staff/outbox", "/cn/staff"]) await expectAccessible(page, path);
  });
});
