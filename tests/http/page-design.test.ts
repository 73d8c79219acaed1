// The design system's promises checked over HTTP on the built app (issue 9 §1, §4; ADR 017):
// no inline style attribute on any page, HTML + linked CSS within 60 KiB gzip, and on every form a field
// with an error is aria-invalid and described by its message (every aria-describedby names an id on the page).
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, startRelaxedPortal, type TestPortal } from "../helpers/portal";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

const BUDGET = 60 * 1024;

async function page(c: Client, path: string, status = 200): Promise<string> {
  const r = await c.get(path);
  expect(r.status, path).toBe(status);
  return r.text();
}

/** gzip size of the HTML plus every stylesheet it links (each fetched from the portal). */
async function weight(c: Client, html: string): Promise<{ html: number; css: number }> {
  const hrefs = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]*>/g)].map((m) => /href="([^"]+)"/.exec(m[0])![1]);
  expect(hrefs.length).toBeGreaterThan(0);
  let css = 0;
  for (const href of hrefs) {
    const r = await c.get(href);
    expect(r.status, href).toBe(200);
    css += gzipSync(Buffer.from(await r.arrayBuffer()), { level: 9 }).length;
  }
  return { html: gzipSync(Buffer.from(html), { level: 9 }).length, css };
}

/** Every id an aria-describedby names is on the page. */
function danglingDescriptions(html: string): string[] {
  const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
  return [...html.matchAll(/aria-describedby="([^"]*)"/g)].flatMap((m) => m[1].split(/\s+/).filter((id) => id && !ids.has(id)));
}

/** The attributes of the element with this id (its opening tag). */
function tagWithId(html: string, id: string): string {
  const tag = new RegExp(`<[a-z]+[^>]*\\sid="${id}"[^>]*>`).exec(html)?.[0];
  expect(tag, `#${id}`).toBeTruthy();
  return tag!;
}

/** A visitor on the services step of a new order form (word count given, files later). */
async function visitorOnServices(lang: string): Promise<Client> {
  const c = new Client(portal.url);
  await c.get(`/${lang}/researcher/submit/new`);
  const r = await c.post(`/${lang}/researcher/submit/get-started`, {
    intent: "next",
    customerGoal: "manuscript",
    uploadFilesLater: "on",
    wordCount: "3500",
    languageId: "1",
  });
  expect(r.status).toBe(303);
  const toggled = await c.post(`/${lang}/researcher/submit/manuscript-services`, { toggle: "standard-editing" });
  expect(toggled.status).toBe(303);
  return c;
}

describe("every page", () => {
  it("has no inline style attribute, stays within 60 KiB gzip with its CSS, and names only ids it has", async () => {
    const visitor = await visitorOnServices("cn");
    // On through the services and add-ons steps, so that every step until details can be shown.
    expect((await visitor.post("/cn/researcher/submit/manuscript-services", { intent: "next", services: "standard-editing" })).status).toBe(
      303,
    );
    expect((await visitor.post("/cn/researcher/submit/additional-services", { intent: "next" })).status).toBe(303);
    const researcher = (await portal.researcher()).client;
    const pages: [Client, string][] = [
      [new Client(portal.url), "/en/"],
      [new Client(portal.url), "/en/login"],
      [new Client(portal.url), "/br/register"],
      [new Client(portal.url), "/cn/login/forgot-password"],
      [visitor, "/cn/researcher/submit/get-started"],
      [visitor, "/cn/researcher/submit/manuscript-services"],
      [visitor, "/cn/researcher/submit/additional-services"],
      [visitor, "/cn/researcher/submit/details"],
      [researcher, "/br/account"],
      [researcher, "/br/account/addresses"],
    ];
    for (const [c, path] of pages) {
      const html = await page(c, path);
      expect(html, path).not.toMatch(/<[a-z][^>]*\sstyle=/i);
      const w = await weight(c, html);
      expect(w.html + w.css, `${path}: ${w.html} B HTML + ${w.css} B CSS gzip`).toBeLessThanOrEqual(BUDGET);
      expect(danglingDescriptions(html), path).toEqual([]);
    }
  });

  it("puts My Order beside the step and its collapsible copy in the step's form, above the actions", async () => {
    const html = await page(await visitorOnServices("br"), "/br/researcher/submit/manuscript-services");
    const peek = html.indexOf('<details class="order-peek"');
    expect(peek).toBeGreaterThan(html.indexOf("<main"));
    expect(peek).toBeLessThan(html.indexOf('class="wizard-actions"'));
    expect(html.indexOf('<aside class="my-order"')).toBeGreaterThan(html.indexOf("</main>"));
    expect(html).toMatch(/<li class="step step-current" aria-current="step">/);
  });
});

describe("fields with errors", () => {
  it("are aria-invalid and described by their message in the wizard", async () => {
    const c = new Client(portal.url);
    await c.get("/en/researcher/submit/new");
    const r = await c.post("/en/researcher/submit/get-started", { intent: "next", customerGoal: "manuscript", wordCount: "many" });
    expect(r.status).toBe(400);
    const html = await r.text();
    const input = tagWithId(html, "wordCount");
    expect(input).toContain('aria-invalid="true"');
    expect(input).toContain('aria-describedby="wordCount-error"');
    expect(tagWithId(html, "wordCount-error")).toContain('class="field-error"');
    expect(danglingDescriptions(html)).toEqual([]);
  });

  it("are aria-invalid and described by their message on the sign-in and registration forms", async () => {
    const c = new Client(portal.url);
    await c.get("/en/register");
    const r = await c.post("/en/register", { email: "not-an-address" });
    expect(r.status).toBe(400);
    const html = await r.text();
    const invalid = [...html.matchAll(/<(?:input|select|textarea)[^>]*aria-invalid="true"[^>]*>/g)].map((m) => m[0]);
    expect(invalid.length).toBeGreaterThan(0);
    for (const tag of invalid) expect(tag).toMatch(/aria-describedby="[^"]+"/);
    expect(danglingDescriptions(html)).toEqual([]);
  });
});
