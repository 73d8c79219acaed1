import { defineConfig } from "vitest/config";

// Server modules and HTTP tests run against a real database: PGlite cloned
// from a migrated template, or PostgreSQL when DATABASE_URL is set.
export default defineConfig({
  resolve: {
    // One set of aliases (tsconfig.json "paths" says the same for tsc and tsx).
    alias: [
      { find: /^#common\//, replacement: new URL("./app/common/", import.meta.url).pathname },
      { find: /^#app\//, replacement: new URL("./app/", import.meta.url).pathname },
      { find: /^#server\//, replacement: new URL("./server/", import.meta.url).pathname },
    ],
  },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/http/**/*.test.ts"],
    globalSetup: ["tests/helpers/global-setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: process.env.CI ? ["default"] : ["default"],
  },
});
