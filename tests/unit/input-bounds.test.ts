// The pieces of the input edge (ADR 044) on their own: the integer helpers, the JSON guard, code-point-safe
// clipping, the bad-input SQLSTATEs, and the page side of the last line (a marked request's 500 becomes a 400).
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import {
  INT4_MAX,
  integerOf,
  moneyMinor,
  nullableSerialId,
  optionalSerialId,
  pageNumber,
  serialId,
  serialIdOf,
  serialIdParam,
} from "#common/integers";
import { clip } from "#common/text";
import { jsonProblem, JSON_MAX_DEPTH } from "#server/http/api/json-guard";
import { badInputSqlState, downgradeBadInputStatus, markBadInput } from "#server/http/bad-input";

const NOT_IDS: unknown[] = [
  2 ** 53 + 1,
  1e40,
  Infinity,
  -Infinity,
  NaN,
  1.5,
  0,
  -1,
  INT4_MAX + 1,
  "1e309",
  "1.5",
  "0x10",
  "abc",
  "",
  " ",
  true,
  {},
  [1],
  null,
];

describe("integer helpers", () => {
  it("serialId takes 1 … 2,147,483,647 as a number or a string of digits, and nothing else", () => {
    expect(serialId().parse(1)).toBe(1);
    expect(serialId().parse(" 42 ")).toBe(42);
    expect(serialId().parse(String(INT4_MAX))).toBe(INT4_MAX);
    for (const v of NOT_IDS) expect(serialId().safeParse(v).success, String(v)).toBe(false);
    for (const v of NOT_IDS) expect(serialIdOf(v), String(v)).toBeNull();
    expect(integerOf("9".repeat(21))).toBeNaN();
  });

  it("optional and nullable ids leave absence to the domain and carry the field's message", () => {
    const s = z.object({ a: optionalSerialId("order:errors.value-required"), b: nullableSerialId() });
    expect(s.parse({})).toEqual({});
    expect(s.parse({ a: "", b: null })).toEqual({ b: null });
    expect(s.parse({ a: "7", b: "8" })).toEqual({ a: 7, b: 8 });
    const r = s.safeParse({ a: 2 ** 53 + 1 });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path, i.message])).toEqual([[["a"], "order:errors.value-required"]]);
  });

  it("path ids are digits only; pages default to 1; money stays within exact integers", () => {
    expect(serialIdParam().safeParse("12").success).toBe(true);
    for (const v of ["+5", " 5", "05", "0", "2147483648", "1e3"]) expect(serialIdParam().safeParse(v).success, v).toBe(false);
    expect(pageNumber(10).parse(undefined)).toBe(1);
    expect(pageNumber(10).safeParse("11").success).toBe(false);
    expect(moneyMinor().parse("100000000000000")).toBe(1e14);
    expect(moneyMinor().safeParse(2 ** 53).success).toBe(false);
  });
});

describe("JSON guard", () => {
  it("refuses numbers JavaScript does not hold exactly, naming where they are; fractions are the schemas' business", () => {
    expect(jsonProblem({ a: 1, b: [1.5, -3], c: { d: Number.MAX_SAFE_INTEGER } })).toBeNull();
    expect(jsonProblem(JSON.parse('{"a":{"b":[0, 1e309]}}'))).toEqual({ kind: "number-out-of-range", field: "a.b.1" });
    expect(jsonProblem(JSON.parse('{"id":9007199254740993}'))).toEqual({ kind: "number-out-of-range", field: "id" });
  });

  it("refuses nesting deeper than JSON_MAX_DEPTH without recursing itself", () => {
    const nest = (n: number) => JSON.parse(`${"[".repeat(n)}${"]".repeat(n)}`);
    expect(jsonProblem({ a: nest(JSON_MAX_DEPTH - 1) })).toBeNull();
    expect(jsonProblem({ a: nest(JSON_MAX_DEPTH) })).toEqual({ kind: "too-deep" });
    expect(jsonProblem({ a: nest(50_000) })).toEqual({ kind: "too-deep" });
  });
});

describe("clip", () => {
  it("never leaves half a surrogate pair", () => {
    expect(clip("abc", 5)).toBe("abc");
    expect(clip(`${"a".repeat(4)}🧬`, 5)).toBe("aaaa");
    expect(clip(`${"a".repeat(3)}🧬`, 5)).toBe("aaa🧬");
  });
});

describe("the last line", () => {
  it("knows PostgreSQL's bad-input SQLSTATEs, also as a cause, and nothing else", () => {
    for (const code of ["22P02", "22003", "22021", "54000"]) {
      expect(badInputSqlState({ code })).toBe(code);
      expect(badInputSqlState(new Error("wrapped", { cause: { code } }))).toBe(code);
    }
    for (const e of [{ code: "42P01" }, { code: "ECONNREFUSED" }, new Error("x"), null, "22P02"]) expect(badInputSqlState(e)).toBeNull();
  });

  it("a page request marked as bad input answers 400 for Remix's 500; unmarked and outage statuses stay", () => {
    const statuses: number[] = [];
    const res = { status: (code: number) => statuses.push(code) };
    const context = {};
    downgradeBadInputStatus(res, () => context);
    res.status(500);
    markBadInput(context);
    res.status(500);
    res.status(503);
    res.status(200);
    expect(statuses).toEqual([500, 400, 503, 200]);
  });
});
