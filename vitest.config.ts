import { defineConfig } from "vitest/config";

// Three lanes (docs/conventions.md "Tests of an area"):
// - unit: pure rules, no database, no build: seconds (`npm run test:unit`);
// - db: domain functions on a real database: PGlite cloned from a migrated template, or
//   PostgreSQL when DATABASE_URL is set (`npm run test:db`);
// - http: pages and API over HTTP; needs build/server/index.js (`npm run test:http`).
// The global setup builds the template only for db/http and demands the build only for http.
export default defineConfig({
  resolve: {
    // One set of aliases (tsconfig.json "paths" says the same for tsc and tsx); every project
    // inherits them through `extends: true`.
    alias: [
      { find: /^#common\//, replacement: new URL("./app/common/", import.meta.url).pathname },
      { find: /^#app\//, replacement: new URL("./app/", import.meta.url).pathname },
      { find: /^#server\//, replacement: new URL("./server/", import.meta.url).pathname },
    ],
  },
  test: {
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default"],
    projects: [
      // The unit, db and http lanes share one module graph per worker (isolate: false, ADR 084): importing the
      // server's ~360 modules again for every file was a third of these lanes' time. A file that needs a module of
      // its own (a spy on an export) undoes it in afterAll; every test makes its own database or portal.
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], isolate: false } },
      {
        extends: true,
        test: { name: "db", include: ["tests/db/**/*.test.ts"], globalSetup: ["tests/helpers/global-setup.ts"], isolate: false },
      },
      {
        extends: true,
        test: { name: "http", include: ["tests/http/**/*.test.ts"], globalSetup: ["tests/helpers/global-setup.ts"], isolate: false },
      },
      // Fault tests (issue 14): real processes killed, services of their own on spare ports; after the http lane.
      // One file at a time: they measure timings under load. The Redis/PostgreSQL outages (ADR 045) run in the
      // embedded-database run only: they bring their own services, so the PostgreSQL run would repeat them; so does
      // the PDF pool's (worker threads, no database).
      {
        extends: true,
        test: {
          name: "faults",
          include: ["tests/faults/**/*.test.ts"],
          exclude: process.env.DATABASE_URL ? ["tests/faults/outages.test.ts", "tests/faults/pdf-pool.test.ts"] : [],
          fileParallelism: false,
        },
      },
      // A second machine (issue 26 §5, ADR 078): two web processes and a worker on one PostgreSQL and S3 store; needs
      // the build. One file at a time beside nothing else: it runs three portal processes.
      {
        extends: true,
        test: {
          name: "twoproc",
          include: ["tests/twoproc/**/*.test.ts"],
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 240_000,
        },
      },
      // The fuzz suite (ADR 043): pages and API over HTTP like http, run once per CI run (PGlite) by scripts/test.sh.
      // One file at a time: each measures answer times, and the connection inputs (ADR 047) run a portal process of their own.
      {
        extends: true,
        test: {
          name: "fuzz",
          include: ["tests/fuzz/**/*.test.ts"],
          globalSetup: ["tests/helpers/global-setup.ts"],
          fileParallelism: false,
        },
      },
    ],
  },
});
