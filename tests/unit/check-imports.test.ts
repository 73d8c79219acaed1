// The import-cycle check of `npm run lint` (scripts/check-imports.ts, ADR 015) on tiny fixture graphs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  allImportsOf,
  areaCycles,
  areaGraph,
  buildGraph,
  findCycles,
  floorViolations,
  importsOf,
  isHttpAdapter,
  layerViolations,
  mentionsRequest,
  mutualPairs,
  resolveImport,
} from "../../scripts/check-imports";

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

describe("findCycles", () => {
  it("finds none in a graph without cycles", () => {
    expect(findCycles(graph({ a: ["b", "c"], b: ["c"], c: [] }))).toEqual([]);
  });

  it("prints a cycle as a path back to its first file", () => {
    expect(findCycles(graph({ a: ["b"], b: ["c"], c: ["a"], d: ["a"] }))).toEqual([["a", "b", "c", "a"]]);
  });

  it("reports each strongly connected component once, and a file importing itself", () => {
    const cycles = findCycles(graph({ a: ["b"], b: ["a"], c: ["d"], d: ["c", "e"], e: ["e"], f: [] }));
    expect(cycles).toHaveLength(3);
    expect(cycles).toContainEqual(["a", "b", "a"]);
    expect(cycles).toContainEqual(["c", "d", "c"]);
    expect(cycles).toContainEqual(["e", "e"]);
  });

  it("gives the shortest way round when a component has several", () => {
    expect(findCycles(graph({ a: ["b", "c"], b: ["c"], c: ["d"], d: ["a"] }))).toEqual([["a", "c", "d", "a"]]);
  });
});

describe("importsOf", () => {
  it("keeps what runs at load time and leaves out type-only and dynamic imports", () => {
    const text = [
      'import a from "./a";',
      'import { b, type B } from "./b";',
      'import type { C } from "./c";',
      'import { type D } from "./d";',
      'import "./e";',
      'export * from "./f";',
      'export type { G } from "./g";',
      'export { h } from "./h";',
      'const lazy = () => import("./i");',
    ].join("\n");
    expect(importsOf("x.ts", text)).toEqual(["./a", "./b", "./e", "./f", "./h"]);
  });
});

describe("buildGraph", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "check-imports-"));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it("resolves relative paths, index files and the #common/#app/#server aliases", () => {
    write("app/common/paths.ts", 'import "zod";\nexport const p = 1;');
    write("app/lib/meta.ts", 'import { p } from "#common/paths";\nimport { s } from "#server/scope";\nexport const m = p + s;');
    write("server/scope.ts", 'import { q } from "./queue";\nexport const s = q;');
    write("server/queue/index.ts", 'import { m } from "#app/lib/meta";\nexport const q = m;');
    write("server/types.ts", 'import type { m } from "#app/lib/meta";');
    const g = buildGraph(root, ["app", "server"]);
    const at = (file: string) => path.join(root, file);
    expect(g.get(at("app/common/paths.ts"))).toEqual([]);
    expect(g.get(at("server/scope.ts"))).toEqual([at("server/queue/index.ts")]);
    expect(g.get(at("server/types.ts"))).toEqual([]);
    expect(resolveImport(root, at("server/scope.ts"), "node:fs")).toBeNull();
    expect(findCycles(g).map((cycle) => cycle.map((file) => path.relative(root, file)))).toEqual([
      ["app/lib/meta.ts", "server/scope.ts", "server/queue/index.ts", "app/lib/meta.ts"],
    ]);
  });
});

describe("the folder-level graph of server/ (issue 21 §6)", () => {
  it("groups files by area, leaves the composition root out, and names each pair of areas that load each other once", () => {
    const f = (p: string) => path.join("/r", p);
    const graph = new Map<string, string[]>([
      [f("server/orders/life.ts"), [f("server/payments/index.ts"), f("server/orders/read.ts")]],
      [f("server/orders/read.ts"), []],
      [f("server/payments/service.ts"), [f("server/orders/read.ts"), f("server/kernel/money.ts")]],
      [f("server/kernel/money.ts"), []],
      [f("server/boot.ts"), [f("server/orders/life.ts"), f("server/payments/service.ts")]],
    ]);
    const areas = areaGraph("/r", graph);
    expect([...areas.keys()].sort()).toEqual(["kernel", "orders", "payments"]);
    expect([...areas.get("payments")!].sort()).toEqual(["kernel", "orders"]);
    expect(mutualPairs(areas)).toEqual(["orders <-> payments"]);
  });
});

describe("the layering of server/ (issue 21 §6, ADR 057)", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "check-layers-"));
  const files = new Map<string, string>();
  const write = (file: string, text: string) => {
    const full = path.join(root, file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
    files.set(full, text);
  };
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it("lists every import with whether it is erased, and sees a Request taken or built", () => {
    expect(allImportsOf("x.ts", 'import { a } from "./a";\nimport type { B } from "./b";\nexport { type C } from "./c";')).toEqual([
      { spec: "./a", typeOnly: false },
      { spec: "./b", typeOnly: true },
      { spec: "./c", typeOnly: true },
    ]);
    expect(mentionsRequest("x.ts", "export function f(r: Request) { return r; }")).toBe(true);
    expect(mentionsRequest("x.ts", "export const r = new Request('http://x');")).toBe(true);
    expect(mentionsRequest("x.ts", "export function f(ip: string, request: { id: string }) { return ip + request.id; }")).toBe(false);
  });

  it("lets an area's endpoint tables and route adapters use HTTP, and nothing else of it", () => {
    for (const adapter of ["orders/api.ts", "orders/deliverables-api.ts", "auth/http.ts", "fapiao/staff-http.ts"])
      expect(isHttpAdapter(adapter)).toBe(true);
    for (const domain of ["orders/life.ts", "payments/api-keys.ts", "staff/apiary.ts", "auth/https-only.ts"])
      expect(isHttpAdapter(domain)).toBe(false);
  });

  it("fails a kernel file that imports an area, and a domain file that imports server/http or takes a Request", () => {
    write("server/http/cookies.ts", "export const cookies = {};");
    write("server/cache/index.ts", "export interface Cache { hit(): void }");
    write("server/db/index.ts", "export type DB = unknown;");
    write("server/orders/read.ts", "export const read = 1;");
    write("app/common/result.ts", "export const ok = 1;");
    write("app/lib/page.ts", "export const page = 1;");
    write(
      "server/kernel/limits.ts",
      'import type { Cache } from "../cache";\nimport type { DB } from "#server/db";\nimport { ok } from "#common/result";\nimport { other } from "./other";',
    );
    write("server/kernel/other.ts", "export const other = 1;");
    write(
      "server/kernel/bad.ts",
      'import { read } from "../orders/read";\nimport type { DB } from "../db";\nimport { page } from "#app/lib/page";',
    );
    write("server/kernel/typed.ts", 'import type { cookies } from "../http/cookies";');
    write("server/orders/api.ts", 'import { cookies } from "../http/cookies";\nexport const h = (r: Request) => r;');
    write(
      "server/orders/life.ts",
      'import { read } from "./read";\nimport { rateLimit } from "../kernel/limits";\nexport const f = (ip: string) => ip;',
    );
    write("server/orders/quote.ts", 'import type { cookies } from "#server/http/cookies";');
    write("server/orders/upload.ts", "export async function upload(request: Request) { return request.body; }");
    write("server/scope.ts", 'import { cookies } from "./http/cookies";\nexport const s = (r: Request) => r;');
    expect(layerViolations(root, files)).toEqual([
      "kernel/bad.ts: the kernel imports nothing above it (app/lib/page.ts)",
      "kernel/bad.ts: the kernel imports nothing above it (server/orders/read.ts)",
      "kernel/typed.ts: the kernel imports nothing above it (server/http/cookies.ts)",
      "orders/quote.ts: domain code imports nothing of server/http (http/cookies.ts)",
      "orders/upload.ts: domain code takes no Request (an adapter passes the values it needs)",
    ]);
  });
});

describe("the floors of the money areas (issue 21 §1, ADR 056)", () => {
  const areas = (edges: Record<string, string[]>) => new Map(Object.entries(edges).map(([a, deps]) => [a, new Set(deps)]));
  it("lets a higher area load billing and payments, and the kernel be loaded by all", () => {
    expect(
      floorViolations(areas({ orders: ["payments", "billing", "kernel"], payments: ["billing", "kernel"], billing: ["kernel"] })),
    ).toEqual([]);
  });
  it("names payments loading orders or prepay, billing loading payments, and the kernel loading any area", () => {
    expect(
      floorViolations(areas({ payments: ["orders", "prepay", "billing"], billing: ["payments", "catalogue"], kernel: ["accounts"] })),
    ).toEqual(["billing → payments", "kernel → accounts", "payments → orders", "payments → prepay"]);
  });
});

describe("the floors of ADR 059 (issue 21 §6: no mutual pair, no knot)", () => {
  const areas = (edges: Record<string, string[]>) => new Map(Object.entries(edges).map(([a, deps]) => [a, new Set(deps)]));
  it("lets the HTTP layer load the translators and the kernel only, and the job queue no area", () => {
    expect(floorViolations(areas({ http: ["i18n", "kernel"], jobs: ["kernel"], orders: ["http", "jobs"] }))).toEqual([]);
    // What server/http/app.ts, api/tables.ts and server/jobs/handlers.ts did before they moved to the server/ root.
    expect(floorViolations(areas({ http: ["accounts", "payments", "i18n"], jobs: ["billing", "orders"] }))).toEqual([
      "http → accounts",
      "http → payments",
      "jobs → billing",
      "jobs → orders",
    ]);
  });

  it("names the order form loading orders, vouchers the order form, accounts auth and mail accounts", () => {
    // The edges each untied pair had (order-form/rework.ts → orders/read, vouchers/apply.ts → order-form/store,
    // accounts/account.ts → auth/session, mail/links.ts → accounts/localization).
    expect(
      floorViolations(
        areas({
          "order-form": ["orders", "vouchers", "accounts"],
          vouchers: ["order-form"],
          accounts: ["auth", "mail"],
          mail: ["accounts"],
        }),
      ),
    ).toEqual(["accounts → auth", "mail → accounts", "order-form → orders", "vouchers → order-form"]);
  });

  it("finds a circle of areas longer than a pair, and leaves pairs to mutualPairs", () => {
    expect(areaCycles(areas({ a: ["b"], b: ["c"], c: ["a"], d: ["e"], e: ["d"] }))).toEqual(["a → b → c → a"]);
    expect(areaCycles(areas({ a: ["b", "c"], b: ["c"], c: [] }))).toEqual([]);
  });
});
