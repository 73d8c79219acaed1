// Issue 26 §4 (ADRs 080, 083): no page sends more than 100 KiB of JavaScript. What a page loads without any
// interaction is its route chain's modules and their static imports, as the build's Remix manifest lists them
// (scripts/bench-browser.ts counts the same bytes in Chromium: the two agreed to 0.1 KiB on every page measured);
// the validators load on the first interaction and are not counted. Sizes are the brotli files the portal serves
// (server/http/precompressed.ts), or the file itself below the compression threshold.
// A zod schema module imported by a component (not only by a loader or action) is the usual way over: ~10 KiB.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const CLIENT = path.resolve("build/client");
const BAR = 100 * 1024;

interface Manifest {
  entry: { module: string; imports?: string[] };
  routes: Record<string, { parentId?: string; module: string; imports?: string[] }>;
}

function manifest(): Manifest {
  const dir = path.join(CLIENT, "assets");
  const file = fs.readdirSync(dir).find((f) => /^manifest-[\w-]+\.js$/.test(f));
  if (!file) throw new Error("no Remix manifest in build/client/assets: run npx remix vite:build");
  const src = fs.readFileSync(path.join(dir, file), "utf8");
  return JSON.parse(src.slice(src.indexOf("{"), src.lastIndexOf("}") + 1)) as Manifest;
}

const served = (url: string) => {
  const file = path.join(CLIENT, url);
  return fs.existsSync(`${file}.br`) ? fs.statSync(`${file}.br`).size : fs.statSync(file).size;
};

describe("JavaScript per page", () => {
  it("stays within 100 KiB (brotli, as served) on every route", () => {
    const m = manifest();
    const weights: [string, number][] = [];
    for (const id of Object.keys(m.routes)) {
      const files = new Set([m.entry.module, ...(m.entry.imports ?? [])]);
      for (let r: string | undefined = id; r; r = m.routes[r].parentId) {
        files.add(m.routes[r].module);
        for (const i of m.routes[r].imports ?? []) files.add(i);
      }
      weights.push([id, [...files].reduce((sum, f) => sum + served(f), 0)]);
    }
    // A page of the portal's own shell at least: React, the router and Remix's runtime are counted.
    expect(Math.min(...weights.map(([, w]) => w))).toBeGreaterThan(60 * 1024);
    const over = weights.filter(([, w]) => w > BAR).map(([id, w]) => `${id}: ${(w / 1024).toFixed(1)} KiB`);
    expect(over).toEqual([]);
  });
});
