// The whole life of an order across its three kinds of visitor (issue 11 "Done when"), in English and Chinese,
// with JavaScript and without (the project decides): a researcher places an order; staff, in the console, start
// it, deliver two files, complete it, record the bank transfer and issue the certificate; the researcher finds it
// completed on the dashboard, downloads every file as one zip (its contents checked), completes the certificate
// and opens its PDF; an anonymous visitor verifies the code. Selectors are the forms' own fields and data
// attributes, so one walk serves both languages.
import fs from "node:fs/promises";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { SEEDED_STAFF, guardThirdParty, jsEnabled, newResearcher, signIn } from "./helpers";
import { makeDocx, makePdf } from "../helpers/fixtures";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** Names and sizes of a zip's entries, from its central directory. */
function zipEntries(zip: Buffer): { name: string; size: number }[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end, "end of central directory").toBeGreaterThan(0);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: { name: string; size: number }[] = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    entries.push({ name: zip.subarray(at + 46, at + 46 + nameLength).toString("utf8"), size });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

/** A bank-transfer order placed through the JSON API with the researcher's own browser session. */
async function placeOrder(page: Page, title: string): Promise<string> {
  const api = page.request;
  const id = (await (await api.get("/api/order-form/new")).json()).orderForm.identity;
  const upload = await api.post(`/api/order-form/${id}/files`, {
    multipart: {
      mainFiles: { name: "paper.docx", mimeType: DOCX, buffer: await makeDocx("Mangroves store carbon in their soil. ".repeat(40)) },
    },
  });
  expect(upload.status()).toBe(201);
  await api.put(`/api/order-form/${id}/basic-details`, { data: { customerGoal: "manuscript", wordCount: 2600, language: 1 } });
  await api.put(`/api/order-form/${id}/selected-service`, { data: { serviceIdentities: ["standard-editing"] } });
  await api.put(`/api/order-form/${id}/step`, { data: { step: "details" } });
  const area = (await (await api.get("/api/areas-of-study?q=bio")).json()).areas[0].id;
  await api.put(`/api/order-form/${id}/details`, { data: { projectTitle: title, areaOfStudyId: area, styleOfEnglish: "american" } });
  const placed = await api.post(`/api/order-form/${id}/payments`, { data: { paymentMethodId: 9, acceptedTermsAndConditions: true } });
  expect(placed.ok(), await placed.text()).toBe(true);
  return (await placed.json()).order.externalId as string;
}

/**
 * Submits the staff order page's form of one intent (its first submit button, or the event's) and waits for what
 * the change shows: with JavaScript the page does not reload, so the outcome is the signal.
 */
async function staffSubmit(page: Page, intent: string, outcome: string, event?: string) {
  const form = page.locator(`form:has(input[name="intent"][value="${intent}"])`);
  await form
    .locator(event ? `button[name="event"][value="${event}"]` : 'button[type="submit"]')
    .first()
    .click();
  await expect(page.locator(outcome).first()).toBeVisible();
}

async function newContextPage(browser: Browser, js: boolean, baseURL: string) {
  const context = await browser.newContext({ javaScriptEnabled: js, baseURL, locale: "en-US", acceptDownloads: true });
  return context.newPage();
}

for (const lang of ["en", "cn"] as const) {
  test(`an order from placing to a verified certificate (${lang})`, async ({ browser, baseURL }, info) => {
    test.slow();
    const js = jsEnabled(info);
    const researcher = await newContextPage(browser, js, baseURL!);
    const check = guardThirdParty(researcher, baseURL!);
    // Registering through the API signs this browser in (the page's request shares its cookies).
    await newResearcher(researcher.request);
    const title = `Mangrove carbon ${lang} ${Date.now()}`;
    const ext = await placeOrder(researcher, title);

    // The dashboard shows it, received and waiting for its bank transfer.
    await researcher.goto(`/${lang}/researcher`);
    const panel = researcher.locator(`[data-order="${ext}"]`);
    await expect(panel).toBeVisible();
    await expect(panel.locator(".order-status")).toHaveClass(/order-status-awaiting-payment/);

    // Staff work through it in the console.
    const staff = await newContextPage(browser, js, baseURL!);
    await signIn(staff, SEEDED_STAFF, lang);
    await staff.goto(`/${lang}/staff/orders/${ext}`);
    await staffSubmit(staff, "transition", 'button[name="event"][value="complete"]', "start");
    const edited = await makeDocx("Mangroves store much carbon in their soil. ".repeat(40));
    const clean = await makePdf("Mangrove carbon, clean copy");
    await staff.waitForLoadState("load");
    await staff.locator('input[name="files"]').setInputFiles([
      { name: "edited.docx", mimeType: DOCX, buffer: edited },
      { name: "clean-copy.pdf", mimeType: "application/pdf", buffer: clean },
    ]);
    await staffSubmit(staff, "upload", 'form:has(input[name="intent"][value="remove-deliverable"]) >> nth=1');
    await staffSubmit(staff, "transition", 'form:has(input[name="intent"][value="certificate"])', "complete");
    await staff.locator('input[name="reference"]').fill(`WIRE-${lang}-${Date.now()}`);
    await staffSubmit(staff, "payment", '[data-paid="true"]');
    await staffSubmit(staff, "certificate", "[data-certificate-code]");
    const code = (await staff.locator("[data-certificate-code]").first().textContent())!.trim();
    expect(code).toMatch(/^[2-9A-HJ-NP-Z]{4}(-[2-9A-HJ-NP-Z]{4}){3}$/);
    await staff.context().close();

    // The researcher finds it completed and downloads every file as one zip.
    await researcher.goto(`/${lang}/researcher`);
    await expect(panel.locator(".order-status")).toHaveClass(/order-status-completed/);
    const downloading = researcher.waitForEvent("download");
    await panel.locator(`a[href="/api/order/${ext}/deliverables.zip"]`).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`Completed files ${ext}\\.zip$`));
    const zip = await fs.readFile((await download.path())!);
    expect(zipEntries(zip)).toEqual([
      { name: "edited.docx", size: edited.length },
      { name: "clean-copy.pdf", size: clean.length },
    ]);

    // The certificate needs its authors before it can be viewed; the researcher adds them on the order page.
    await researcher.goto(`/${lang}/researcher/index/details/${ext}`);
    const certificate = researcher.locator(".certificate-panel");
    await expect(certificate.locator("[data-certificate-incomplete]")).toBeVisible();
    await certificate.locator('textarea[name="authors"]').fill("Ada Lovelace, Grace Hopper");
    await certificate.locator('button[type="submit"]').click();
    await researcher.waitForLoadState("load");
    await expect(certificate.locator("iframe.certificate-frame")).toHaveAttribute("height", "750");
    const pdfPath = await certificate.locator("a[download]").getAttribute("href");
    // The request client reuses a kept-alive socket the server may be closing after 5 idle seconds: a reset of
    // such a reused socket is retried, as browsers do.
    const pdf = await researcher.request.get(pdfPath!, { maxRetries: 2 });
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
    check();
    await researcher.context().close();

    // Anyone holding the code can verify it, without signing in.
    const visitor = await newContextPage(browser, js, baseURL!);
    await visitor.goto(`/${lang}/certificate/verify`);
    await visitor.locator('input[name="code"]').fill(code.toLowerCase());
    await visitor.locator('form:has(input[name="code"]) button[type="submit"]').click();
    await expect(visitor.locator("[data-certificate-title]")).toHaveText(title);
    await expect(visitor.locator("[data-certificate-authors]")).toHaveText("Ada Lovelace, Grace Hopper");
    await expect(visitor.locator("td[data-certificate-code]")).toHaveText(code);
    await visitor.context().close();
  });
}
