// The malformed inputs (ADR 043): the categories of issue 14, drawn from a seeded PRNG so a failure
// reproduces (FUZZ_SEED). Each target gets a fixed set of cases per category (bodies that are not forms or
// not JSON, oversized bodies, duplicated fields, numbers out of range, wrong JSON types, hostile text,
// query and path parameters) and then random mixtures up to CASES_PER_TARGET.
import type { FieldKind, Target } from "./targets";

/** mulberry32: small, fast and the same on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const CASES_PER_TARGET = 56;

export const SCRIPT = "<script>alert(1)</script>";
export const IMG = '"><img src=x onerror=alert(1)>';
/** What an HTML answer must never contain verbatim: the payloads' live markup. */
export const LIVE_MARKUP = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>"];

/** Numbers no field accepts, as text: 2^53+1, 40 digits, beyond a double, NaN, a float, negatives, int4 overflow. */
export const NUMBERS = [
  "9007199254740993",
  "1234567890123456789012345678901234567890",
  "1e309",
  "NaN",
  "1.5",
  "-1",
  "-9007199254740993",
  "Infinity",
  "2147483648",
  "0x1F",
  "1e-400",
];
/** The same as raw JSON number tokens (JSON.stringify would round or refuse them). */
export const JSON_NUMBERS = [
  "9007199254740993",
  "1234567890123456789012345678901234567890",
  "1e309",
  "1.5",
  "-1",
  "2147483648",
  "-1e309",
  "0.1e-400",
];

export const STRINGS = [
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "📄🔬👩‍🔬",
  "\u202eمرحبا\u202c",
  SCRIPT,
  IMG,
  "' OR 1=1; --",
  "1; DROP TABLE users; --",
  "' UNION SELECT password_hash FROM users --",
  "",
  "   ",
  "e\u0301\u0301\u0301\u0301",
  "../../etc/passwd",
  "%s%n%x",
];
/** Long text goes into a few fields only (every field × 100 kB would be a size test, not a text test). */
export const HUGE = "ä".repeat(50_000) + "x".repeat(50_000);

/** Values of the wrong JSON type for a field of each kind. */
export const WRONG_TYPES: unknown[] = [true, false, 0, 12, null, [], ["a"], {}, { a: 1 }, "text", -1];

/** Path parameter values: invalid UTF-8 escapes, a malformed escape, NUL, markup, huge numbers, a backslash, a tab. */
export const PATH_VALUES = [
  "%ff%fe",
  "%c0%af",
  "%E0%A4%A",
  "%00",
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "9007199254740993",
  "..%2F..%2F",
  "%F0%9F%93%84",
  // A backslash and a tab, which a URL parser reads as `/` or drops: `/%5C/login` was a 500 in the router (ADR 047).
  "%5C",
  "%09",
];

/** Query values: not numbers where pages and lists read numbers, NUL, markup, SQL. */
export const QUERY_VALUES = [
  "abc",
  "NaN",
  "1e309",
  "-1",
  "%00",
  "9007199254740993",
  encodeURIComponent(SCRIPT),
  encodeURIComponent("' OR 1=1 --"),
  "%ff%fe",
  "1.5",
];

const LANGS = ["en", "cn", "jp", "br", "es"];

export interface Case {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** A body, or chunks sent with Transfer-Encoding: chunked. */
  body?: Buffer | { chunks: Buffer[] };
  /** The case carries a script payload: an HTML answer must not echo it live. */
  script: boolean;
  /** An oversized body: the server may answer early and close the connection before it is all sent. */
  oversized: boolean;
}

/** Values for path parameters a visitor could hold: the researcher's order form, else harmless text. */
export type Plausible = (name: string, target: Target) => string;

export function caseGenerator(seed: number, plausible: Plausible) {
  const rand = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];

  /** The pattern with its parameters filled; `hostile` replaces one parameter's value. */
  function fill(target: Target, hostile?: { param: string; value: string }): string {
    const [pathPart, search] = target.pattern.split("?");
    const filled = pathPart
      .split("/")
      .map((seg) => {
        if (seg === "*") return hostile?.param === "*" ? hostile.value : "x";
        if (!seg.startsWith(":")) return seg;
        const name = seg.replace(/^:|\?$/g, "");
        if (hostile?.param === name) return hostile.value;
        if (seg.endsWith("?")) return null;
        if (name === "lang") return pick(LANGS);
        return encodeURIComponent(plausible(name, target));
      })
      .filter((s) => s !== null)
      .join("/");
    return search ? `${filled}?${search}` : filled;
  }
  const withQuery = (p: string, q: string) => (q ? p + (p.includes("?") ? "&" : "?") + q : p);
  const params = (t: Target) => [...t.pattern.split("?")[0].matchAll(/:(\w+)|\/(\*)$/g)].map((m) => m[1] ?? "*");

  const fieldNames = (t: Target) => Object.keys(t.fields);
  const ofKind = (t: Target, kind: FieldKind) => fieldNames(t).filter((k) => t.fields[k] === kind);
  /**
   * The fields that take a number: declared as one, or (the schemas parse many numbers from `z.unknown()` in a
   * later pipe step, and forms post text) named like one.
   */
  const numericOf = (t: Target) =>
    fieldNames(t).filter(
      (k) => t.fields[k] === "number" || /(id|count|amount|quantity|page|number|version|step|tier|language|minor|days|year)s?$/i.test(k),
    );

  function form(entries: [string, string][], multipart: boolean): { body: Buffer; type: string } {
    if (!multipart) return { body: Buffer.from(new URLSearchParams(entries).toString()), type: "application/x-www-form-urlencoded" };
    const b = "----fuzz" + Math.floor(rand() * 1e9);
    const parts = entries.map(([k, v]) => `--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
    return { body: Buffer.from(parts.join("") + `--${b}--\r\n`), type: `multipart/form-data; boundary=${b}` };
  }
  /** A JSON body written by hand, so raw number tokens and duplicated keys survive. */
  const json = (entries: [string, string][]) => Buffer.from(`{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`);

  function make(t: Target, label: string, opts: Partial<Case> & { query?: string; hostile?: { param: string; value: string } } = {}): Case {
    const path = withQuery(fill(t, opts.hostile), opts.query ?? "");
    const text = `${path} ${opts.body instanceof Buffer ? opts.body.toString("latin1").slice(0, 200_000) : ""}`;
    return {
      label,
      method: opts.method ?? t.method,
      path,
      headers: opts.headers ?? {},
      body: opts.body,
      script: /alert\(1\)/.test(text) || /alert%281%29|alert\(1%29/.test(text),
      oversized: opts.oversized ?? false,
    };
  }

  /** Bodies that are not what the target reads (not a form, not JSON, broken multipart). */
  function shapeCases(t: Target): Case[] {
    const m = (label: string, type: string | undefined, body: string | Buffer) =>
      make(t, `body ${label}`, { headers: type === undefined ? {} : { "content-type": type }, body: Buffer.from(body) });
    return [
      m("no content-type", undefined, "email=a%40b.c&password=x"),
      m("json", "application/json", '{"email":"a@b.c","intent":"save"}'),
      m("text/plain", "text/plain", "intent=save\nemail=a@b.c"),
      m("multipart without boundary", "multipart/form-data", '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'),
      m(
        "multipart wrong boundary",
        "multipart/form-data; boundary=abc",
        '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--\r\n',
      ),
      m("multipart truncated", "multipart/form-data; boundary=abc", '--abc\r\nContent-Disposition: form-data; name="a"\r\n\r\n12'),
      m("multipart empty boundary", "multipart/form-data; boundary=", "--\r\n\r\n"),
      m("multipart no disposition", "multipart/form-data; boundary=abc", "--abc\r\nContent-Type: text/plain\r\n\r\nx\r\n--abc--\r\n"),
      m("xml", "application/xml", "<a><b>1</b></a>"),
      m(
        "urlencoded invalid bytes",
        "application/x-www-form-urlencoded",
        Buffer.from([0x61, 0x3d, 0xff, 0xfe, 0xc0, 0xaf, 0x26, 0x25, 0x7a]),
      ),
      m("urlencoded empty", "application/x-www-form-urlencoded", ""),
      m("garbage content-type", "foo", "a=1"),
      m("invalid json", "application/json", '{"email": "a@b.c", '),
      m("json top-level array", "application/json", "[1,2,3]"),
      m("json null", "application/json", "null"),
      m("json string", "application/json", '"intent=save"'),
      m("json nested 10k arrays", "application/json", "[".repeat(10_000) + "]".repeat(10_000)),
      m("json nested 10k objects", "application/json", '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000)),
      m("json duplicated keys", "application/json", '{"email":"a@b.c","email":{"$ne":null},"password":"x","password":["x"]}'),
      m("json with BOM", "application/json; charset=utf-8", "\ufeff{}"),
    ];
  }

  function oversizedCases(t: Target): Case[] {
    const type = t.body === "json" ? "application/json" : "application/x-www-form-urlencoded";
    const big = t.body === "json" ? `{"a":"${"x".repeat(5 * 1024 * 1024)}"}` : `a=${"x".repeat(5 * 1024 * 1024)}`;
    const many =
      t.body === "json"
        ? `{${Array.from({ length: 10_000 }, (_, i) => `"f${i}":${i}`).join(",")}}`
        : Array.from({ length: 10_000 }, (_, i) => `f${i}=${i}`).join("&");
    const chunk = Buffer.from(t.body === "json" ? "x".repeat(64 * 1024) : "a".repeat(64 * 1024));
    const chunks = [
      Buffer.from(t.body === "json" ? '{"a":"' : "a="),
      ...Array.from({ length: 32 }, () => chunk),
      Buffer.from(t.body === "json" ? '"}' : ""),
    ];
    return [
      make(t, "oversized 5 MB", { headers: { "content-type": type }, body: Buffer.from(big), oversized: true }),
      make(t, "oversized 10,000 fields", { headers: { "content-type": type }, body: Buffer.from(many), oversized: true }),
      make(t, "oversized 2 MB chunked", { headers: { "content-type": type }, body: { chunks }, oversized: true }),
    ];
  }

  /** Form bodies (pages, uploads): every known field set to one hostile value, urlencoded or multipart. */
  function formCases(t: Target): Case[] {
    const names = fieldNames(t);
    const numeric = numericOf(t);
    const out: Case[] = [];
    const send = (label: string, entries: [string, string][], multipart = rand() < 0.4) => {
      const f = form(entries, multipart);
      out.push(make(t, label, { headers: { "content-type": f.type }, body: f.body }));
    };
    for (const n of NUMBERS)
      send(
        `numbers ${n}`,
        names.map((k) => [k, numeric.includes(k) || rand() < 0.3 ? n : "x"]),
      );
    for (const s of STRINGS)
      send(
        `text ${JSON.stringify(s).slice(0, 30)}`,
        names.map((k) => [k, s]),
      );
    send(
      "text 100 kB",
      [names[0] ?? "a", names[1] ?? "b", "intent"].map((k) => [k, HUGE]),
    );
    send(
      "duplicated fields",
      names.flatMap(
        (k) =>
          [
            [k, "1"],
            [k, SCRIPT],
            [k, "-1"],
          ] as [string, string][],
      ),
    );
    send(
      "duplicated intent",
      Array.from({ length: 50 }, (_, i) => ["intent", `i${i}`] as [string, string]),
    );
    send("field names hostile", [
      [SCRIPT, "1"],
      ["a[b][c]", "1"],
      ["__proto__", "1"],
      ["constructor[prototype][x]", "1"],
      ["a\u0000", "1"],
    ]);
    return out;
  }

  /** JSON bodies (API): wrong types, numbers out of range, hostile text, per known field. */
  function jsonCases(t: Target): Case[] {
    const names = fieldNames(t).length ? fieldNames(t) : ["name", "email", "id"];
    // Fields the schema leaves `unknown` until a later step get numbers too.
    const numeric = [...new Set([...numericOf(t), ...ofKind(t, "unknown")])];
    const strings = names.filter((k) => t.fields[k] !== "number");
    const out: Case[] = [];
    const send = (label: string, entries: [string, string][]) =>
      out.push(make(t, label, { headers: { "content-type": "application/json" }, body: json(entries) }));
    for (const v of WRONG_TYPES)
      send(
        `wrong type ${JSON.stringify(v)}`,
        names.map((k) => [k, JSON.stringify(v)]),
      );
    for (const n of JSON_NUMBERS)
      send(
        `numbers ${n}`,
        (numeric.length ? numeric : names).map((k) => [k, n]),
      );
    for (const n of ["9007199254740993", "NaN", "1e309"])
      send(
        `numbers as text ${n}`,
        (numeric.length ? numeric : names).map((k) => [k, JSON.stringify(n)]),
      );
    for (const s of STRINGS)
      send(
        `text ${JSON.stringify(s).slice(0, 30)}`,
        (strings.length ? strings : names).map((k) => [k, JSON.stringify(s)]),
      );
    send(
      "text 100 kB",
      names.slice(0, 2).map((k) => [k, JSON.stringify(HUGE)]),
    );
    send(
      "duplicated fields",
      names.flatMap(
        (k) =>
          [
            [k, '"1"'],
            [k, "[1]"],
          ] as [string, string][],
      ),
    );
    return out;
  }

  function queryCases(t: Target, method: string): Case[] {
    return QUERY_VALUES.map((v) => make(t, `query ${v}`, { method, query: t.query.map((k) => `${k}=${v}`).join("&") }));
  }

  function pathCases(t: Target): Case[] {
    const ps = params(t);
    if (!ps.length) return PATH_VALUES.slice(0, 4).map((v) => ({ ...make(t, `path suffix ${v}`), path: fill(t).split("?")[0] + "/" + v }));
    return PATH_VALUES.map((v) => {
      const param = pick(ps);
      return make(t, `path :${param}=${v}`, { hostile: { param, value: v } });
    });
  }

  /** Random mixtures: each field a value from any pool, any encoding, sometimes a hostile query too. */
  function randomCase(t: Target, i: number): Case {
    const names = fieldNames(t).length ? fieldNames(t) : ["name", "email", "id", "page"];
    const chosen = names.filter(() => rand() < 0.5);
    const query = rand() < 0.3 ? `${pick(t.query)}=${pick(QUERY_VALUES)}` : "";
    if (t.body === "json") {
      const entries = chosen.map((k): [string, string] => {
        const r = rand();
        return [
          k,
          r < 0.3 ? pick(JSON_NUMBERS) : r < 0.6 ? JSON.stringify(pick(WRONG_TYPES)) : JSON.stringify(pick([...STRINGS, ...NUMBERS])),
        ];
      });
      return make(t, `random #${i}`, { headers: { "content-type": "application/json" }, body: json(entries), query });
    }
    if (t.body === "none")
      return make(t, `random #${i}`, {
        query: t.query
          .filter(() => rand() < 0.6)
          .map((k) => `${k}=${pick(QUERY_VALUES)}`)
          .join("&"),
      });
    const f = form(
      chosen.map((k) => [k, pick([...STRINGS, ...NUMBERS])]),
      rand() < 0.5,
    );
    return make(t, `random #${i}`, { headers: { "content-type": f.type }, body: f.body, query });
  }

  /** CASES_PER_TARGET cases (or more) for one target. */
  return function casesFor(t: Target): Case[] {
    const cases: Case[] = [...pathCases(t)];
    if (t.body === "none") {
      cases.push(...queryCases(t, t.method));
      // A body where none is read, and a body that is not JSON: ignored, never a 500.
      if (t.method !== "GET") cases.push(...shapeCases(t).slice(0, 6), ...oversizedCases(t));
    } else {
      cases.push(...shapeCases(t), ...oversizedCases(t), ...queryCases(t, t.method).slice(0, 4));
      cases.push(...(t.body === "json" ? jsonCases(t) : formCases(t)));
      // A page's loader reads the same URL: its query parameters too.
      if (t.kind === "page") cases.push(...queryCases(t, "GET").slice(0, 5));
    }
    for (let i = 0; cases.length < CASES_PER_TARGET; i++) cases.push(randomCase(t, i));
    return cases;
  };
}
