// Every error→status decision is in ERROR_STATUS (app/common/result.ts; issue 21 §6, ADR 057): domain code, endpoint
// tables and pages ask errorStatus(code) instead of writing a status beside a code. This scan finds a literal error
// status (401–599) in a `status:` or a conditional; the files that still have one are listed and may only shrink.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

function files(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return rel === path.join("server", "http") ? [] : files(rel);
    // The Express app is the HTTP layer's (its 503s, 400s and 415s are the edge's), in the server/ root since ADR 059.
    if (rel === path.join("server", "app.ts")) return [];
    return /\.tsx?$/.test(e.name) ? [rel.split(path.sep).join("/")] : [];
  });
}

/** The literal error statuses of a source text. */
export function literalErrorStatuses(text: string): number[] {
  const found: number[] = [];
  for (const m of text.matchAll(/status:\s*(\d{3})\b|\?\s*(\d{3})\s*:(?:\s*(\d{3})\b)?/g)) {
    for (const n of [m[1], m[2], m[3]].filter(Boolean).map(Number)) if (n > 400 && n < 600 && n !== 404) found.push(n);
  }
  return found;
}

/**
 * Statuses still chosen in place: page-level answers that carry no error code (a rate-limited page form, 403/405
 * thrown by a page, a deliberate 500), and the WeChat phone page's own outcome statuses.
 */
const KNOWN: Record<string, number> = {
  "app/routes/account._index.tsx": 1,
  "app/routes/account.addresses.tsx": 1,
  "app/routes/login.forgot-password.tsx": 1,
  "app/routes/login.reset-password.tsx": 1,
  "app/routes/login.tsx": 1,
  "app/routes/login.wechat.confirm.$loginCode.tsx": 1,
  "app/routes/login.wechat.tsx": 1,
  "app/routes/register.tsx": 2,
  "app/routes/staff.credits.tsx": 1,
  "app/routes/staff.fapiaos._index.tsx": 1,
  "app/routes/staff.vouchers.tsx": 1,
  "app/routes/support.tsx": 1,
  "server/auth/wechat.ts": 2,
  "server/orders/deliverables-api.ts": 1,
};

describe("error statuses (ERROR_STATUS)", () => {
  it("finds a status written beside a code, in a `status:` and in a conditional", () => {
    expect(literalErrorStatuses("reply({ error }, { status: 409 }); x = a ? 429 : 400; y = b ? 400 : 410; { status: 404 }")).toEqual([
      409, 429, 410,
    ]);
    expect(literalErrorStatuses("reply(body, { status: errorStatus(error) }); workerHeapMb: 512,")).toEqual([]);
  });

  it("has no new one outside ERROR_STATUS in server/ (but server/http) and app/routes", () => {
    const counts: Record<string, number> = {};
    for (const file of [...files("server"), ...files(path.join("app", "routes"))]) {
      const n = literalErrorStatuses(fs.readFileSync(path.join(ROOT, file), "utf8")).length;
      if (n > 0) counts[file] = n;
    }
    expect(counts).toEqual(KNOWN);
  });
});
