// The unit, db and http lanes run with vitest's isolate: false (ADR 084): the files of a worker share one module
// graph. A module mock (vi.mock, vi.doMock) or a stubbed global would then leak into the files run after it, so
// these lanes use none: a spy on a module's export (vi.spyOn), undone in afterAll, is the seam instead.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const LANES = ["tests/unit", "tests/db", "tests/http"];
const LEAKING = /\bvi\.(mock|doMock|unmock|stubGlobal|stubEnv)\s*\(/;

describe("lanes that share a module graph", () => {
  it("mock no module and stub no global", () => {
    const offenders: string[] = [];
    for (const lane of LANES)
      for (const name of fs.readdirSync(lane)) {
        if (!name.endsWith(".ts") || name === path.basename(import.meta.filename)) continue;
        const text = fs.readFileSync(path.join(lane, name), "utf8");
        const line = text.split("\n").findIndex((l) => LEAKING.test(l));
        if (line >= 0) offenders.push(`${lane}/${name}:${line + 1}`);
      }
    expect(offenders).toEqual([]);
  });
});
