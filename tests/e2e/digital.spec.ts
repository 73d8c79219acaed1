import { expect, test, type Page } from "@playwright/test";
import JSZip from "jszip";
import { guardThirdParty, jsEnabled, newResearcher, uniqueEmail, whenHydrated } from "./helpers";
import { makeDocx } from "../helpers/fixtures";

// Digital editing and translation end to end (issue 24, ADR 074), with and without JavaScript:
// a) a subscription bought through the payment sandbox (card with JavaScript, PayPal without: card entry needs it),
//    a .docx with planted errors proofread by the portal's own worker, and the tracked .docx read back: each error
//    is a w:del followed by the w:ins that fixes it;
// b) a 3-use Spanish package bought by PayPal, a Spanish .docx translated (Apertium: English words come out), the
//    uses drop from 3 to 2;
// c) the Chinese trial grants one use, once.
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

async function fillBilling(page: Page) {
  await whenHydrated(page);
  const billing = page.locator("fieldset.pm-address").first();
  await billing.getByLabel("Address", { exact: true }).fill("1 Main Street");
  await billing.getByLabel("City").fill("Boston");
  await billing.getByLabel("Country").selectOption({ label: "United States" });
  await billing.getByLabel("State or province").selectOption({ label: "Massachusetts" });
  await billing.getByLabel("Zip or postcode").fill("02108");
  await page.getByLabel("I accept the terms of service").check();
}

async function payByPayPal(page: Page, button: string) {
  await page.locator(".pm-method", { hasText: "PayPal" }).click();
  await fillBilling(page);
  await page.getByRole("button", { name: button }).click();
  await page.waitForURL(/\/en\/payment-sandbox\/paypal\//);
  await page.getByRole("button", { name: "Approve" }).click();
}

async function payByCard(page: Page, button: string) {
  // The card fields come with the page's script: a page that has not hydrated is annotated with what it had loaded
  // (seen once in a loaded PostgreSQL run, session 17: the subscribe page still unhydrated after 60 s).
  await whenHydrated(page);
  await page.locator(".pm-method", { hasText: "Credit card" }).click();
  const fields = page.frameLocator(".card-fields-frame");
  await fields.getByLabel("Card number").fill("4111 1111 1111 1111");
  await fields.getByLabel("Expiry (MM/YY)").fill("12/30");
  await fields.getByLabel("Security code").fill("123");
  await expect(fields.locator("#card-result")).toContainText("1111");
  await fillBilling(page);
  await page.getByRole("button", { name: button }).click();
}

/** The row's status through the API (the page polls the same endpoint), until it is no longer processing. */
async function settled(page: Page, api: "digital-edit" | "digital-order", identity: string): Promise<string> {
  let status = "processing";
  await expect
    .poll(
      async () => {
        const r = await page.request.get(`/api/${api}/search?identities=${identity}`);
        const body = (await r.json()) as { results: { status: string }[] };
        status = body.results[0]?.status ?? "missing";
        return status;
      },
      { timeout: 30_000, intervals: [500, 1000] },
    )
    .not.toBe("processing");
  return status;
}

async function documentXml(body: Buffer): Promise<string> {
  const zip = await JSZip.loadAsync(body);
  return zip.file("word/document.xml")!.async("string");
}

const revisions = (xml: string) =>
  [...xml.matchAll(/<w:(ins|del) [^>]*>([\s\S]*?)<\/w:\1>/g)].map((m) => ({
    kind: m[1],
    text: [...m[2].matchAll(/<w:(?:t|delText)[^>]*>([^<]*)</g)].map((t) => t[1]).join(""),
  }));

test.describe("digital editing and translation", () => {
  test("a) subscribes, proofreads a .docx with planted errors and downloads the tracked changes", async ({ page, baseURL }, info) => {
    test.setTimeout(60_000);
    const checkOrigins = guardThirdParty(page, baseURL!);
    await newResearcher(page.request);
    await page.goto("/en/researcher/digital-editing");
    await expect(page.locator(".badge-brand")).toHaveText("Automated proofreading");
    await page.locator(".digital-subscribe-notice").getByRole("link", { name: "Subscribe" }).click();
    await expect(page.locator(".digital-list-price")).toHaveText("$200");
    await expect(page.locator(".digital-price strong")).toHaveText("$140");
    if (jsEnabled(info)) await payByCard(page, "Pay and subscribe");
    else await payByPayPal(page, "Pay and subscribe");
    // The success return waits for the purchase and goes on to the list once it is active.
    await page.waitForURL(/\/en\/researcher\/digital-editing\?notice=subscribed$/, { timeout: 25_000 });
    await expect(page.getByText("Your digital editing subscription is active.")).toBeVisible();
    await expect(page.locator(".digital-badge-state")).toHaveText("Subscription active");

    const name = `planted-${info.project.name}.docx`;
    const buffer = await makeDocx(
      "Teh samples were dried and weighed. We measured a a second sample.\nTheir is no evidence that the method changed the result.",
    );
    await page.locator("#digital-file").setInputFiles({ name, mimeType: DOCX, buffer });
    await page.getByLabel("British English").check();
    await page.getByRole("button", { name: "Proofread my document" }).click();
    const row = page.locator(".digital-row", { hasText: name });
    await expect(row).toBeVisible();
    const identity = (await row.getAttribute("data-identity"))!;
    expect(await settled(page, "digital-edit", identity)).toBe("completed");
    await page.reload();
    await expect(row).toHaveClass(/digital-completed/);

    const tracked = await page.request.get(`/api/digital-edit/${identity}/download`);
    expect(tracked.status()).toBe(200);
    expect(tracked.headers()["content-disposition"]).toContain("attachment");
    const found = revisions(await documentXml(await tracked.body()));
    for (const [deleted, inserted] of [
      ["Teh", "The"],
      ["a a", "a"],
      ["Their", "There"],
    ]) {
      const i = found.findIndex((r) => r.kind === "del" && r.text === deleted);
      expect(i, deleted).toBeGreaterThanOrEqual(0);
      expect(found[i + 1], deleted).toEqual({ kind: "ins", text: inserted });
    }

    // Delete asks first: a <dialog> with JavaScript, the confirmation page without.
    await row.getByRole("link", { name: "Delete" }).click();
    if (jsEnabled(info)) await page.locator("dialog[open]").getByRole("button", { name: "Delete" }).click();
    else {
      await expect(page.getByRole("heading", { name: `Delete ${name}?` })).toBeVisible();
      await page.getByRole("button", { name: "Delete" }).click();
    }
    await expect(page.getByText(`${name} deleted`)).toBeVisible();
    await expect(row).toHaveCount(0);
    checkOrigins();
  });

  test("b) buys 3 Spanish translations by PayPal, translates a Spanish .docx, and has 2 uses left", async ({ page, baseURL }, info) => {
    test.setTimeout(60_000);
    const checkOrigins = guardThirdParty(page, baseURL!);
    await newResearcher(page.request);
    await page.goto("/en/researcher/digital-translations");
    await page.getByRole("link", { name: "Buy translations" }).click();
    // With JavaScript a change sends the choice at once (after hydration); without it the Choose button does.
    await whenHydrated(page);
    await page.getByLabel("Translate from").selectOption({ label: "Spanish to English" });
    await page.getByLabel(/^3 translations/).check();
    if (!jsEnabled(info)) await page.getByRole("button", { name: "Choose" }).click();
    await expect(page.getByRole("heading", { name: /^3 translations — Spanish to English: \$65$/ })).toBeVisible();
    await payByPayPal(page, "Pay");
    await page.waitForURL(/\/en\/researcher\/digital-translations\?notice=purchased$/, { timeout: 25_000 });
    await expect(page.locator(".digital-badge-state")).toHaveText("3 uses left");

    const name = `hola-${info.project.name}.docx`;
    const buffer = await makeDocx("La casa es grande.\nEl perro come pan en la cocina.");
    await page.locator("#digital-file").setInputFiles({ name, mimeType: DOCX, buffer });
    await page.getByLabel("Language of the document").selectOption("es_ES");
    await page.getByRole("button", { name: "Translate into English" }).click();
    await expect(page.locator(".digital-badge-state")).toHaveText("2 uses left");
    const row = page.locator(".digital-row", { hasText: name });
    const identity = (await row.getAttribute("data-identity"))!;
    expect(await settled(page, "digital-order", identity)).toBe("completed");
    await page.reload();
    await expect(row).toContainText("Machine translation, draft quality.");
    const out = await page.request.get(`/api/digital-order/${identity}/download`);
    expect(out.status()).toBe(200);
    const text = (await documentXml(await out.body())).replace(/<[^>]+>/g, " ");
    expect(text).toMatch(/\bhouse\b/i);
    expect(text).toMatch(/\bdog\b/i);
    checkOrigins();
  });

  test("d) the survey: thanks, and with JavaScript the drawer closes 2 seconds later", async ({ page, baseURL }, info) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    await newResearcher(page.request);
    await page.goto("/en/researcher/digital-editing");
    const drawer = page.locator("details.digital-survey");
    await drawer.locator("summary").click();
    await drawer.locator('input[name="usefulness"][value="5"]').check();
    await drawer.locator('input[name="recommend"][value="yes"]').check();
    await drawer.getByLabel("Anything else? (optional)").fill("Quick and clear.");
    await whenHydrated(page);
    await drawer.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Thank you for your answers.")).toBeVisible();
    if (jsEnabled(info)) {
      await expect(drawer).toHaveAttribute("open", "");
      await expect(drawer).not.toHaveAttribute("open", "", { timeout: 4_000 });
    } else await expect(page).toHaveURL(/\/en\/researcher\/digital-editing\/survey$/);
    checkOrigins();
  });

  test("e) the Word add-in's task pane sends the open document (office.js stood in for by a stub)", async ({ page }, info) => {
    test.setTimeout(45_000);
    // office.js is Microsoft's: here a stub served in its place gives the pane a "Word" whose open document is a
    // real .docx. Only the pane opened by Word (?host=word) asks for it; every other request stays on our origin.
    const foreign: string[] = [];
    page.on("request", (req) => {
      const url = new URL(req.url());
      if (url.hostname !== "127.0.0.1" && url.hostname !== "appsforoffice.microsoft.com") foreign.push(req.url());
    });
    const docx = await makeDocx("Teh open document in Word.");
    await page.route("https://appsforoffice.microsoft.com/**", (route) =>
      route.fulfill({
        contentType: "application/javascript",
        body: `window.Office = {
          FileType: { Compressed: "compressed" },
          onReady(cb) { setTimeout(() => cb({ host: "Word" }), 0); },
          context: { document: { url: "https://contoso.sharepoint.com/Shared Documents/thesis-from-word.docx",
            getFileAsync(type, options, cb) {
              const data = ${JSON.stringify([...docx])};
              cb({ status: "succeeded", value: { sliceCount: 1, closeAsync() {},
                getSliceAsync(i, done) { done({ status: "succeeded", value: { data } }); } } });
            } } } };`,
      }),
    );
    await newResearcher(page.request);
    await page.goto("/en/researcher/digital-editing/subscribe");
    await payByPayPal(page, "Pay and subscribe");
    await page.waitForURL(/\/en\/researcher\/digital-editing\?notice=subscribed$/, { timeout: 25_000 });

    await page.goto("/en/researcher/digital-editing/add-in?host=word");
    await expect(page.getByRole("heading", { name: "Digital editing for Word" })).toBeVisible();
    if (!jsEnabled(info)) {
      // Without scripts there is no Office: the pane's own upload form is the way, and nothing was fetched.
      await expect(page.locator(".digital-office")).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Proofread my document" })).toBeVisible();
    } else {
      const bridge = page.locator(".digital-office");
      await expect(bridge).toBeVisible();
      await bridge.getByLabel("Please select your preferred type of English.").selectOption("American English");
      await bridge.getByRole("button", { name: "Send the open document" }).click();
      await expect(page.locator(".digital-row", { hasText: "thesis-from-word.docx" })).toBeVisible({ timeout: 10_000 });
    }
    expect(foreign, "requests to other origins").toEqual([]);
  });

  test("c) the Chinese trial grants one translation, once", async ({ page, baseURL }) => {
    const checkOrigins = guardThirdParty(page, baseURL!);
    const user = { email: uniqueEmail("li"), password: "Li#Bai-701-Poet" };
    const r = await page.request.post("/api/auth/register", {
      data: {
        email: user.email,
        password: user.password,
        firstName: "Bai",
        lastName: "Li",
        countryCode: "CN",
        phoneNumber: "13800138000",
        country: "CN",
        currency: "USD",
        language: "en",
        agreeToTOS: true,
      },
    });
    expect(r.status(), await r.text()).toBe(201);
    await page.goto("/en/chinese-digital-trial");
    await page.getByRole("button", { name: "Get my free translation" }).click();
    await page.waitForURL(/\/en\/researcher\/digital-translations\?notice=trial$/);
    await expect(page.getByText("Your free Chinese-to-English translation is ready to use.")).toBeVisible();
    await expect(page.locator(".digital-badge-state")).toHaveText("1 use left");
    await page.goto("/en/chinese-digital-trial");
    await expect(page.getByText("This offer is not available for your account, or you have already used it.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Get my free translation" })).toHaveCount(0);
    checkOrigins();
  });
});
