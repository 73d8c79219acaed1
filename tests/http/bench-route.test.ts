// The bench's bare Remix page (ADR 079) exists only for `npm run bench`: without BENCH_BARE_ROUTE it is a 404 (no
// page, no language redirect, no Remix render), with it a page of about the asked size with no loader's data in it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, type TestPortal } from "../helpers/portal";

describe("the bench's bare page", () => {
  describe("in normal operation", () => {
    let portal: TestPortal;
    beforeAll(async () => {
      portal = await startRelaxedPortal();
    });
    afterAll(async () => portal.stop());

    it("answers 404 for GET, HEAD and POST, before the language redirect", async () => {
      for (const method of ["GET", "HEAD", "POST"]) {
        const r = await fetch(`${portal.url}/__bench/bare/20000`, { method, redirect: "manual" });
        expect(r.status, method).toBe(404);
        expect(r.headers.get("location")).toBeNull();
        expect(await r.text()).not.toContain("Field 1");
      }
      const data = await fetch(`${portal.url}/__bench/bare/20000.data`, { redirect: "manual" });
      expect(data.status).toBe(404);
    });
  });

  describe("with BENCH_BARE_ROUTE on (the bench's portal)", () => {
    let portal: TestPortal;
    beforeAll(async () => {
      portal = await startRelaxedPortal({ BENCH_BARE_ROUTE: "1" });
    });
    afterAll(async () => portal.stop());

    it("renders a page of about the asked size", async () => {
      const small = await fetch(`${portal.url}/__bench/bare/1000`);
      expect(small.status).toBe(200);
      const smallBytes = Buffer.byteLength(await small.text());
      const r = await fetch(`${portal.url}/__bench/bare/20000`);
      expect(r.status).toBe(200);
      const html = await r.text();
      expect(html).toContain('<label for="f1">Field <!-- -->1</label>');
      // The root layout's shell is the same for both: the difference is the asked-for markup, within 15 %.
      const grown = Buffer.byteLength(html) - smallBytes;
      expect(grown).toBeGreaterThan(19000 * 0.85);
      expect(grown).toBeLessThan(19000 * 1.15);
    });
  });
});
