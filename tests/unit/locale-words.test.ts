// Issue 22 item 2: pt-BR says "Vale" for a voucher everywhere; "Voucher" beside "Vale" read as two things.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

function strings(value: unknown, at: string, out: [string, string][] = []): [string, string][] {
  if (typeof value === "string") out.push([at, value]);
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) strings(v, at ? `${at}.${k}` : k, out);
  return out;
}

describe("pt-BR vocabulary", () => {
  it("names a voucher 'Vale' in every namespace, never 'Voucher'", () => {
    const dir = path.resolve("locales/pt_BR");
    const offenders = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .flatMap((f) => strings(JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")), f.replace(/\.json$/, "")))
      .filter(([, text]) => /\bvouchers?\b/i.test(text))
      .map(([key]) => key);
    expect(offenders).toEqual([]);
  });
});
