// Issue 25 ("done when"): no route of app/routes.ts renders the "coming soon" page any more. Walks the whole route
// table (nested layouts included) and lists every route whose module is routes/soon.tsx or routes/soon-protected.tsx;
// also checks every route's module exists, so a route cannot dodge the check by pointing nowhere.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import routes from "../../app/routes";

interface RouteEntry {
  id?: string;
  path?: string;
  index?: boolean;
  file: string;
  children?: RouteEntry[];
}

function walk(entries: RouteEntry[], prefix = ""): { at: string; id?: string; file: string }[] {
  return entries.flatMap((r) => {
    const at = r.index ? `${prefix}/ (index)` : `${prefix}/${r.path ?? ""}`.replace(/\/+/g, "/");
    return [{ at, id: r.id, file: r.file }, ...walk(r.children ?? [], r.path ? `${prefix}/${r.path}` : prefix)];
  });
}

describe("the route table", () => {
  const all = walk(routes as unknown as RouteEntry[]);

  it("is walked whole (layouts, researcher, staff, order form)", () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all.some((r) => r.file === "routes/staff.tsx")).toBe(true);
  });

  it("has no route rendering the coming-soon page", () => {
    const soon = all.filter((r) => /^routes\/soon(-protected)?\.tsx$/.test(r.file)).map((r) => `${r.at} (${r.id ?? r.file})`);
    expect(soon).toEqual([]);
  });

  it("points every route at a module that exists", () => {
    const missing = all.filter((r) => !fs.existsSync(path.join("app", r.file))).map((r) => r.file);
    expect(missing).toEqual([]);
  });
});
