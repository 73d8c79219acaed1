// Input of any shape is a clean 4xx, never a 500 (issue 9 §3.1): a NUL character or a lone UTF-16 surrogate
// in any JSON string, form field or query, and a malformed percent-escape in any path, sent to every
// endpoint of the API tables (server/api-tables.ts) and to every page that has an action, read
// from the built route tree: a new endpoint or page is covered without touching this file.
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ServerBuild } from "@remix-run/node";
import { API_TABLES } from "#server/api-tables";
import type { Endpoint } from "#server/http/api/endpoint";
import { startRelaxedPortal, type TestPortal, type SignedInUser } from "../helpers/portal";
import { createOrderFormFor } from "../helpers/factories";

let portal: TestPortal;
let user: SignedInUser;
let formId: string;
beforeAll(async () => {
  portal = await startRelaxedPortal();
  user = await portal.researcher();
  formId = (await createOrderFormFor(portal.ctx, user, { services: ["standard-editing"] })).id;
}, 60_000);
afterAll(async () => portal?.stop());
// Each test signs in afresh: the sign-out endpoints and pages at the end of a sweep end the session.
beforeEach(async () => {
  if (user) user.client = await portal.signIn(user);
});

const NUL = "a\u0000b";
const SURROGATE = "a\ud800b";
/** Field names the portal's forms use, sent to every page action (a page ignores those it does not read). */
const FORM_FIELDS = [
  "intent",
  "email",
  "password",
  "firstName",
  "lastName",
  "title",
  "name",
  "organization",
  "address1",
  "address2",
  "city",
  "state",
  "zip",
  "phone",
  "vat",
  "country",
  "currency",
  "code",
  "promoCode",
  "projectTitle",
  "journal",
  "journalName",
  "emails",
  "message",
  "q",
  "wordCount",
  "language",
  "customerGoal",
  "areaOfStudy",
  "styleOfEnglish",
  "comments",
  "purchaseOrder",
  "secondaryEmail",
  "orcid",
  "institution",
];

/** The keys of an endpoint's body or query schema (zod/mini object, possibly inside a pipe). */
function keysOf(schema: unknown): string[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let def = (schema as any)?._zod?.def;
  for (let i = 0; def && i < 5; i++) {
    if (def.shape) return Object.keys(def.shape);
    def = def.in?._zod?.def ?? def.innerType?._zod?.def ?? def.schema?._zod?.def;
  }
  return [];
}

function bodyOf(keys: string[], value: string): Record<string, unknown> {
  const body: Record<string, unknown> = { name: value, email: value, nested: { text: value }, list: [value] };
  for (const k of keys) body[k] = value;
  return body;
}

/** An endpoint's path with its parameters filled: the test user's order form, else `fill`. */
function pathOf(e: Endpoint<unknown, unknown>, fill: string): string {
  return e.path
    .split("/")
    .map((s) =>
      s === "*" ? fill : s.startsWith(":") ? (s === ":id" && e.path.startsWith("/api/order-form") && fill === "1" ? formId : fill) : s,
    )
    .join("/");
}

async function call(
  method: string,
  url: string,
  init: { body?: string | FormData | URLSearchParams; type?: string } = {},
): Promise<number> {
  const headers = new Headers({ cookie: user.client.cookieHeader() });
  if (init.type) headers.set("content-type", init.type);
  const r = await fetch(portal.url + url, { method, headers, body: init.body, redirect: "manual" });
  await r.arrayBuffer();
  return r.status;
}

/** A multipart body written by hand: a raw NUL in a part's file name, which FormData would escape. */
const RAW_MULTIPART = {
  type: "multipart/form-data; boundary=----nul",
  body: [
    "------nul",
    `Content-Disposition: form-data; name="mainFiles"; filename="paper${NUL}.docx"`,
    "Content-Type: application/octet-stream",
    "",
    "not a document",
    "------nul",
    'Content-Disposition: form-data; name="note"',
    "",
    NUL,
    "------nul--",
    "",
  ].join("\r\n"),
};

/** Sign-out last, so the session stays alive for the rest. */
const endpoints = (API_TABLES.flat() as Endpoint<unknown, unknown>[]).sort(
  (a, b) => Number(/logout/.test(a.path)) - Number(/logout/.test(b.path)),
);

describe("malformed input", () => {
  it("a NUL in an otherwise valid field is refused at the edge, before the database sees it (first: the sweeps below reset the draft)", async () => {
    const area = (await (await user.client.get("/api/areas-of-study?q=bio")).json()).areas[0].id as number;
    const fields = { projectTitle: `Soil ${NUL}`, areaOfStudyId: String(area), styleOfEnglish: "american", intent: "next" };
    let status = await call("POST", "/en/researcher/submit/details", {
      body: new URLSearchParams(fields).toString(),
      type: "application/x-www-form-urlencoded",
    });
    expect(status).toBe(400);
    // The page says what is wrong, in the page's language (not "something went wrong").
    const page = await fetch(`${portal.url}/br/researcher/submit/details`, {
      method: "POST",
      headers: { cookie: user.client.cookieHeader(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
      redirect: "manual",
    });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("Solicitação inválida");
    const body = JSON.stringify({ projectTitle: `Soil ${NUL}`, areaOfStudyId: area, styleOfEnglish: "american" });
    status = await call("PUT", `/api/order-form/${formId}/details`, { body, type: "application/json" });
    expect(status).toBe(400);
    const r = await fetch(`${portal.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: user.email, password: `x${NUL}` }),
    });
    expect(r.status).toBe(400);
    // Nothing was saved.
    const form = await portal.ctx.db.selectFrom("order_forms").select("project_title").where("id", "=", formId).executeTakeFirstOrThrow();
    expect(form.project_title ?? "").not.toContain("\u0000");
  });

  it("every API endpoint answers a NUL or a lone surrogate in body, query or path with a 4xx", async () => {
    const failures: string[] = [];
    for (const e of endpoints) {
      const queryKeys = ["q", ...keysOf(e.query)];
      const query = queryKeys.map((k) => `${encodeURIComponent(k)}=%00`).join("&");
      const tries: [string, string, { body?: string; type?: string }][] = [
        ["query NUL", `${pathOf(e, "1")}?${query}`, {}],
        ["path NUL", pathOf(e, "%00"), {}],
        ["path bad escape", pathOf(e, "%E0%A4%A"), {}],
      ];
      if (e.body === "stream") {
        // Uploads: a NUL in a file name and in a text field of the multipart body.
        const multipart = new FormData();
        multipart.append("note", NUL);
        multipart.append("mainFiles", new Blob(["not a document"]), `paper${NUL}.docx`);
        for (const init of [{ body: multipart }, RAW_MULTIPART]) {
          const status = await call(e.method, pathOf(e, "1"), init).catch(() => 0);
          if (status >= 500 || status === 0)
            failures.push(`${e.method} ${pathOf(e, "1")} (multipart NUL file name): ${status || "no answer"}`);
        }
      }
      if (e.method !== "GET" && e.body !== "stream") {
        const keys = keysOf(e.body);
        tries.push(
          ["body NUL", pathOf(e, "1"), { body: JSON.stringify(bodyOf(keys, NUL)), type: "application/json" }],
          ["body surrogate", pathOf(e, "1"), { body: JSON.stringify(bodyOf(keys, SURROGATE)), type: "application/json" }],
          ["body escaped NUL key", pathOf(e, "1"), { body: '{"a\\u0000":1}', type: "application/json" }],
        );
      }
      for (const [what, url, init] of tries) {
        const status = await call(e.method, url, init);
        if (status >= 500) failures.push(`${e.method} ${url} (${what}): ${status}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("every page action answers a NUL or a lone surrogate in a field (urlencoded and multipart) with a 4xx", async () => {
    const build = (await import(/* @vite-ignore */ path.resolve("build/server/index.js"))) as ServerBuild;
    const full = (id: string): string => {
      const r = build.routes[id];
      if (!r) return "";
      const parent = r.parentId ? full(r.parentId) : "";
      return r.path ? `${parent.replace(/\/$/, "")}/${r.path}` : parent;
    };
    const pages = Object.keys(build.routes)
      .filter((id) => build.routes[id].module.action)
      .map(full)
      // Sign-out last, so the session stays alive for the rest.
      .sort((a, b) => Number(/logout/.test(a)) - Number(/logout/.test(b)));
    expect(pages.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const route of pages) {
      // A fresh draft for each page, so the wizard's steps read their forms instead of redirecting (an
      // earlier page, such as reset, may have ended the last one).
      await createOrderFormFor(portal.ctx, user, { services: ["standard-editing"] });
      const url = route
        .replace(":lang", "en")
        .replace(/\/\*$/, "")
        .replace(/\/:[\w]+\?/g, "")
        .replace(/:[\w]+/g, "x");
      for (const [what, value] of [
        ["NUL", NUL],
        ["surrogate", SURROGATE],
      ] as const) {
        const form = new URLSearchParams(FORM_FIELDS.map((f) => [f, value]));
        let status = await call("POST", url, { body: form.toString(), type: "application/x-www-form-urlencoded" });
        if (status >= 500) failures.push(`POST ${url} (urlencoded ${what}): ${status}`);
        const multipart = new FormData();
        for (const f of FORM_FIELDS) multipart.append(f, value);
        multipart.append("mainFiles", new Blob(["not a document"]), `paper${value}.docx`);
        // A connection closed without an answer (status 0) is as bad as a 500.
        status = await call("POST", url, { body: multipart }).catch(() => 0);
        if (status >= 500 || status === 0) failures.push(`POST ${url} (multipart ${what}): ${status || "no answer"}`);
      }
      const raw = await call("POST", url, RAW_MULTIPART).catch(() => 0);
      if (raw >= 500 || raw === 0) failures.push(`POST ${url} (raw multipart, NUL file name): ${raw || "no answer"}`);
      const status = await call("GET", `${url}?q=%00&promo=%00&to=%00`);
      if (status >= 500) failures.push(`GET ${url}?q=%00: ${status}`);
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it("a cookie carrying a NUL is ignored, as if absent", async () => {
    for (const cookie of ["draft=%00abc", "sid=%00", "lang=%00", "draft=a%ud800"]) {
      // /new first: it makes a draft under the cookie's key, which load then reads its files with.
      for (const url of ["/en/researcher/submit/new", "/api/order-form/load", "/api/account"]) {
        const r = await fetch(portal.url + url, { headers: { cookie }, redirect: "manual" });
        expect(r.status, `${cookie} ${url}`).toBeLessThan(500);
      }
    }
  });

  it("a malformed percent-escape in a path is a translated 400, not a 500", async () => {
    for (const url of ["/en/%E0%A4%A", "/en/login/failure/%E0%A4%A", "/cn/researcher/submit/%E0%A4%A", "/en/%00"]) {
      const r = await fetch(portal.url + url, { redirect: "manual" });
      expect(r.status, url).toBe(400);
      const html = await r.text();
      if (url.startsWith("/cn")) expect(html).toContain("请求无效");
      else expect(html).toContain("Bad request");
    }
    for (const url of ["/api/order-form/%E0%A4%A", "/api/areas-of-study?q=%00", "/api/journals?q=%00"]) {
      const r = await fetch(portal.url + url, { headers: { cookie: user.client.cookieHeader() } });
      expect(r.status, url).toBe(400);
      expect(await r.json()).toMatchObject({ error: expect.stringMatching(/^invalid-/) });
    }
  });
});
