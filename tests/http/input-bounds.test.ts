// The input edge (issue 14 items 2–5, ADR 044): values that used to reach PostgreSQL and come back as 500s
// (numbers outside their column, wrong JSON types, text a jsonb column refuses, bad list pages, ids in paths
// that cannot exist) are 4xx answers with a field error, and a bad value that slips past the edge anyway is a
// 400 logged with its route, not a 500.
import type { AddressInfo } from "node:net";
import express from "express";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiRouter } from "#server/http/api/router";
import { endpoint, type EndpointTable } from "#server/http/api/endpoint";
import { ok } from "#common/result";
import { startRelaxedPortal, RELAXED_RATE_LIMITS, type TestPortal, type SignedInUser, Client } from "../helpers/portal";
import { createOrderFormFor } from "../helpers/factories";

let portal: TestPortal;
let user: SignedInUser;
let staff: SignedInUser;
let formId: string;
beforeAll(async () => {
  portal = await startRelaxedPortal({
    WECHAT_MODE: "sandbox",
    CONFIG_RATE_LIMITS: JSON.stringify({ ...RELAXED_RATE_LIMITS, resetAttemptsPerHour: 1000, resetFailuresPerAccount: 1000 }),
  });
  user = await portal.researcher();
  staff = await portal.staff();
  formId = (await createOrderFormFor(portal.ctx, user, { services: ["standard-editing"] })).id;
}, 60_000);
afterAll(async () => portal?.stop());

/** A JSON call with a body written by hand (1e309 and 2^53 + 1 cannot be written by JSON.stringify). */
async function send(client: Client, method: string, url: string, body?: string) {
  const r = await client.request(url, { method, headers: { "content-type": "application/json" }, body });
  const text = await r.text();
  let json: { error?: string; fieldErrors?: Record<string, string> } = {};
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON: the status says it */
  }
  return { status: r.status, json };
}

/** What no `integer` id column holds, as JSON literals: unsafe and huge integers, infinity, fractions, wrong types. */
const NOT_AN_ID = [
  "9007199254740993",
  "1".repeat(40),
  "1e309",
  "-1e309",
  "1.5",
  "0",
  "-7",
  "2147483648",
  '"9007199254740993"',
  `"${"1".repeat(40)}"`,
  '"1e309"',
  '"1.5"',
  '"2147483648"',
  '"abc"',
  "true",
  "{}",
  "[1]",
];
/** The same, only those a country reference reads as a number (a non-numeric string is an ISO code to it). */
const NOT_A_COUNTRY_ID = NOT_AN_ID.filter((v) => /^"?[-\d.e]+"?$/.test(v));

describe("numbers bounded to their columns", () => {
  it("language, areaOfStudyId and a country id that no column holds are 400 with the field named", async () => {
    const c = user.client;
    const failures: string[] = [];
    const expectField = async (url: string, body: string, field: string) => {
      const r = await send(c, "PUT", url, body);
      if (r.status !== 400 || !(field in (r.json.fieldErrors ?? {})))
        failures.push(`${url} ${body}: ${r.status} ${JSON.stringify(r.json)}`);
    };
    for (const v of NOT_AN_ID) {
      const basic = `/api/order-form/${formId}/basic-details`;
      await expectField(basic, `{"customerGoal":"manuscript","uploadFilesLater":true,"wordCount":1000,"language":${v}}`, "language");
      await expectField(basic, `{"customerGoal":"manuscript","uploadFilesLater":true,"wordCount":1000,"languageId":${v}}`, "languageId");
      await expectField(`/api/order-form/${formId}/manuscript-details`, `{"wordCount":1000,"language":${v}}`, "language");
      await expectField(
        `/api/order-form/${formId}/details`,
        `{"projectTitle":"Soil","styleOfEnglish":"american","areaOfStudyId":${v}}`,
        "areaOfStudyId",
      );
    }
    for (const v of NOT_A_COUNTRY_ID) await expectField(`/api/snid-account/update-country/${user.identity}`, `{"id":${v}}`, "id");
    expect(failures).toEqual([]);
    // Good values still pass, as numbers and as text.
    expect((await send(c, "PUT", `/api/order-form/${formId}/manuscript-details`, '{"wordCount":1200,"language":"1"}')).status).toBe(200);
    expect((await send(c, "PUT", `/api/order-form/${formId}/manuscript-details`, '{"wordCount":1300,"languageId":1}')).status).toBe(200);
    const saved = await portal.ctx.db
      .selectFrom("order_forms")
      .select(["language_id", "word_count"])
      .where("id", "=", formId)
      .executeTakeFirstOrThrow();
    expect(saved).toEqual({ language_id: 1, word_count: 1300 });
    const country = await portal.ctx.db.selectFrom("countries").select("id").orderBy("id").executeTakeFirstOrThrow();
    expect((await send(c, "PUT", `/api/snid-account/update-country/${user.identity}`, JSON.stringify({ id: country.id }))).status).toBe(
      200,
    );
  }, 60_000);

  it("a number JavaScript cannot hold exactly is refused anywhere in a JSON body, with its path", async () => {
    const r = await send(user.client, "PUT", `/api/order-form/${formId}/journal`, '{"name":"Nature","extra":{"n":[1, 1e400]}}');
    expect(r).toEqual({ status: 400, json: { error: "number-out-of-range", fieldErrors: { "extra.n.1": "number-out-of-range" } } });
  });

  it("JSON nested deeper than any body of the portal is a 400 invalid-json, however deep", async () => {
    for (const depth of [40, 5_000, 30_000]) {
      const body = `{"journal":${"[".repeat(depth)}${"]".repeat(depth)}}`;
      const r = await send(user.client, "PUT", `/api/order-form/${formId}/details`, body);
      expect(r, `depth ${depth}`).toEqual({ status: 400, json: { error: "invalid-json" } });
    }
    const objects = `${'{"a":'.repeat(40)}1${"}".repeat(40)}`;
    expect((await send(user.client, "PUT", `/api/order-form/${formId}/journal`, objects)).status).toBe(400);
  });
});

describe("wrong JSON types", () => {
  it("referralEmails as a boolean, a number, an object or a list of numbers is a 400 naming the field", async () => {
    for (const v of ["true", "false", "42", "1e309", "{}", "[1,2]", "null"]) {
      const r = await send(user.client, "PUT", `/api/order-form/${formId}/referral-emails`, `{"referralEmails":${v}}`);
      expect(r.status, v).toBe(400);
      expect(Object.keys(r.json.fieldErrors ?? {}), v).toContain("referralEmails");
    }
  });

  it("reset-password with userIdentity null, a number, an object or a non-UUID is a 400, never a 500", async () => {
    const visitor = new Client(portal.url);
    for (const v of ["null", "42", "1e309", "{}", "[]", "true", '"not-a-uuid"', '"00000000-0000-0000-0000-00000000000g"', '""']) {
      const body = `{"oneTimeLoginHash":"abcdef","userIdentity":${v},"password":"Factory#Pass-2026x"}`;
      const r = await send(visitor, "POST", "/api/auth/reset-password", body);
      expect(r.status, v).toBe(400);
    }
  });
});

describe("text the database refuses", () => {
  it("a lone surrogate in the journal name is a 400; an emoji is stored as sent, and a name past the limit refused", async () => {
    const url = `/api/order-form/${formId}/journal`;
    expect((await send(user.client, "PUT", url, '{"name":"Nature \\ud83e"}')).status).toBe(400);
    expect((await send(user.client, "PUT", url, '{"name":"\\udc00 Nature"}')).status).toBe(400);
    expect((await send(user.client, "PUT", url, JSON.stringify({ name: "Nature 🧬 Genetics" }))).status).toBe(200);
    let journal = (await portal.ctx.db.selectFrom("order_forms").select("journal").where("id", "=", formId).executeTakeFirstOrThrow())
      .journal;
    expect(journal).toMatchObject({ name: "Nature 🧬 Genetics" });
    // Past 255 code units the name is refused, never cut (issue 22 item 4): a cut could leave half an emoji (jsonb
    // refuses `\ud83e`). 253 letters and an emoji fit exactly and are stored whole.
    const long = `${"a".repeat(254)}🧬🧬`;
    expect((await send(user.client, "PUT", url, JSON.stringify({ name: long }))).status).toBe(400);
    const fits = `${"a".repeat(253)}🧬`;
    expect((await send(user.client, "PUT", url, JSON.stringify({ name: fits }))).status).toBe(200);
    journal = (await portal.ctx.db.selectFrom("order_forms").select("journal").where("id", "=", formId).executeTakeFirstOrThrow()).journal;
    expect((journal as { name: string }).name).toBe(fits);
  });

  it("WeChat sign-in with a NUL or a lone surrogate in redirect or origin is a translated 400 (JSON and form)", async () => {
    for (const lang of ["en", "cn"]) {
      const visitor = new Client(portal.url);
      visitor.cookies.set("lang", lang);
      const bodies: Record<string, string>[] = [
        { redirect: "/en/researcher\u0000x" },
        { origin: "https://example.com\u0000" },
        { redirect: "/en/\ud800" },
      ];
      for (const body of bodies) {
        const json = await visitor.request("/api/auth/wechat-login", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        expect(json.status).toBe(400);
        const answer = await json.json();
        expect(answer.errorCode).toBe("invalid-characters");
        expect(answer.error).toBe(
          lang === "en" ? "The request contains characters that cannot be used. Please try again." : "请求中包含无法使用的字符，请重试。",
        );
        // A form cannot carry a lone surrogate (URL encoding replaces it), only the NUL.
        if (!JSON.stringify(body).includes("\\u0000")) continue;
        const form = await visitor.request("/api/auth/wechat-login", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(body).toString(),
        });
        expect(form.status).toBe(400);
      }
    }
  });
});

/** Every page value that is not a whole page number 1 … max, as sent in a query string. */
const BAD_PAGES = [
  "abc",
  "NaN",
  "Infinity",
  "1e309",
  "1e3",
  "-1",
  "0",
  "1.5",
  "0x10",
  "9".repeat(40),
  "9007199254740993",
  "' OR 1=1--",
  "1;DROP TABLE orders",
  "<script>alert(1)</script>",
  "%27%20OR%20%271%27%3D%271",
  "1 UNION SELECT password FROM users",
];

describe("query parameters", () => {
  it("a page that is not a whole page number is a 400 page-invalid on the order search and the invoice list", async () => {
    const failures: string[] = [];
    for (const list of ["/api/order/search", "/api/invoice/load"]) {
      for (const page of BAD_PAGES) {
        const url = `${list}?page=${page.startsWith("%") ? page : encodeURIComponent(page)}`;
        const r = await user.client.get(url);
        const body = await r.json();
        if (r.status !== 400 || body.fieldErrors?.page !== "page-invalid") failures.push(`${url}: ${r.status} ${JSON.stringify(body)}`);
      }
      expect((await user.client.get(`${list}?page=2`)).status).toBe(200);
    }
    expect(failures).toEqual([]);
  });

  it("the staff lists answer a bad page with a 4xx or the page with its error, never a 5xx", async () => {
    const failures: string[] = [];
    for (const list of ["/en/staff/orders", "/en/staff/payments", "/en/staff/fapiaos", "/en/staff/prepayments"]) {
      for (const page of BAD_PAGES) {
        const r = await staff.client.get(`${list}?page=${encodeURIComponent(page)}`);
        await r.arrayBuffer();
        if (r.status >= 500) failures.push(`${list}?page=${page}: ${r.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("a NUL in xid, orderTitle or the duplicate check's title is a 400", async () => {
    for (const url of ["/api/order/search?xid=a%00b", "/api/order/search?orderTitle=%00", "/api/order/duplicate?title=Soil%00"]) {
      const r = await user.client.get(url);
      expect(r.status, url).toBe(400);
    }
  });
});

/** Path segments that are no serial id (each answers 404: it names nothing). */
const NOT_A_PATH_ID = ["abc", "9007199254740993", "1".repeat(40), "1e309", "1.5", "-1", "0", "2147483648", "+5", "%205", "0x10"];

describe("path parameters", () => {
  it("an id in an API path that no serial column holds is a 404", async () => {
    const failures: string[] = [];
    const tries: [string, string, string?][] = [];
    for (const id of NOT_A_PATH_ID) {
      tries.push(["GET", `/api/fapiao/${id}/pdf`], ["DELETE", `/api/fapiao/${id}`]);
      tries.push(["GET", `/api/account/addresses/${id}`], ["DELETE", `/api/account/addresses/${id}`]);
      tries.push(["PUT", `/api/account/addresses/${id}`, JSON.stringify({ name: "A", address1: "1 Road", city: "Town", countryId: 1 })]);
    }
    for (const [method, url, body] of tries) {
      const r = await send(user.client, method, url, body);
      if (r.status !== 404) failures.push(`${method} ${url}: ${r.status}`);
    }
    expect(failures).toEqual([]);
    // Signed out, the answer is still 401 first: who asks is checked before what is asked for.
    expect((await new Client(portal.url).get("/api/account/addresses/abc")).status).toBe(401);
  });

  it("an id in a page path that names nothing is a 404 (account addresses, staff fapiao, payment, order)", async () => {
    const failures: string[] = [];
    for (const id of NOT_A_PATH_ID) {
      for (const [client, url] of [
        [user.client, `/en/account/addresses/${id}`],
        [staff.client, `/en/staff/fapiaos/${id}`],
        [staff.client, `/en/staff/payments/${id}`],
        [staff.client, `/en/staff/orders/${id}`],
      ] as const) {
        const r = await client.get(url);
        await r.arrayBuffer();
        if (r.status !== 404) failures.push(`${url}: ${r.status}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe("the last line: PostgreSQL refusing a value", () => {
  it("22P02, 22003, 22021 and 54000 from an endpoint are a 400 invalid-input logged with the route; other errors stay 500", async () => {
    const probe = (name: string, query: () => Promise<unknown>) =>
      endpoint({ method: "GET", path: `/api/edge-probe/${name}`, auth: "none", summary: name, handler: async () => ok(await query()) });
    const db = portal.ctx.db;
    const table: EndpointTable = [
      probe("text", () => sql`select ${"abc"}::integer as n`.execute(db)),
      probe("range", () => sql`select ${"9007199254740993"}::integer as n`.execute(db)),
      probe("nul", () => sql`select convert_from(${Buffer.from([0x61, 0xff, 0x62])}::bytea, 'UTF8') as t`.execute(db)),
      probe("limit", () => sql`select repeat('x', 1100000)::tsvector as v`.execute(db)),
      probe("other", () => sql`select * from no_such_table`.execute(db)),
    ];
    const app = express();
    app.use(createApiRouter(portal.ctx, [table]));
    app.use((_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(500).end());
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const warn = vi.spyOn(portal.ctx.logger, "warn");
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const [name, state] of [
        ["text", "22P02"],
        ["range", "22003"],
        ["nul", "22021"],
        ["limit", "54000"],
      ]) {
        const r = await fetch(`${base}/api/edge-probe/${name}`);
        expect(r.status, name).toBe(400);
        expect(await r.json()).toEqual({ error: "invalid-input" });
        expect(warn).toHaveBeenCalledWith({ route: `GET /api/edge-probe/${name}`, sqlState: state }, expect.stringContaining("bad input"));
      }
      expect((await fetch(`${base}/api/edge-probe/other`)).status).toBe(500);
    } finally {
      warn.mockRestore();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
