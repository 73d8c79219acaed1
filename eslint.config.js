// ESLint 9 flat config (ADR 015). `npm run lint` runs this and `prettier --check`.
// Beside typescript-eslint's recommended rules it enforces the layer boundaries of
// docs/conventions.md: server/ imports nothing of app/ but app/common (as #common/*),
// app/common stays isomorphic, route modules never query the database, and no import cycles.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";
import { builtinModules } from "node:module";

// Route modules never reach the database themselves (context.app.db, or `const { db } = …`).
const routeNoDb = [
  {
    selector: "MemberExpression[property.name='db']",
    message: "Route modules do not touch the database (context.app.db): call a domain function in server/.",
  },
  {
    selector: "VariableDeclarator > ObjectPattern > Property[key.name='db']",
    message: "Route modules do not touch the database (context.app.db): call a domain function in server/.",
  },
];

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "node_modules/**",
      "data/**",
      ".test-results/**",
      "test-results/**",
      "playwright-report/**",
      "public/build/**",
      ".tmp/**",
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      // `_`-prefixed names are deliberately unused (positional parameters, rest-omit).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },

  // server/ imports app/common (as #common/*) and nothing else of app/.
  {
    files: ["server/**/*.{ts,tsx,js,mjs}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(#app/|~/)",
              message: "server/ imports nothing of app/ but app/common, as #common/* (docs/conventions.md).",
            },
            {
              regex: "^(\\.\\./)+app(/|$)",
              message: "server/ imports nothing of app/ but app/common, as #common/* (not a relative path).",
            },
          ],
        },
      ],
    },
  },

  // app/common is isomorphic: no server code, no other app code, no Node builtins, no kysely.
  // A relative path may not climb out of app/common: one config per folder depth (up to 7) says how far is out.
  ...[0, 1, 2, 3, 4, 5, 6, 7].map((depth) => ({
    files: [`app/common/${"*/".repeat(depth)}*.{ts,tsx,js,mjs}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: builtinModules.map((name) => ({ name, message: "app/common is isomorphic: no Node builtins." })),
          patterns: [
            { regex: "^#server/", message: "app/common is isomorphic: it imports no server code." },
            { regex: "^(#app/|~/)", message: "app/common imports only itself (relative paths or #common/*) and browser-safe packages." },
            {
              regex: `^(\\.\\./){${depth + 1},}`,
              message: "app/common imports only itself (relative paths or #common/*) and browser-safe packages.",
            },
            { regex: "^node:", message: "app/common is isomorphic: no Node builtins." },
            { regex: "^kysely(-|/|$)", message: "app/common is isomorphic: no database code." },
          ],
        },
      ],
    },
  })),

  // Route modules are thin: they call domain functions and never query the database themselves.
  {
    files: ["app/routes/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^kysely(-|/|$)", message: "Route modules do not query the database: call a domain function in server/." },
            {
              regex: "^(#server/db|(\\.\\./)+server/db|(\\.\\./)+db)(/|\\.|$)",
              message: "Route modules do not query the database: call a domain function.",
            },
          ],
        },
      ],
      "no-restricted-syntax": ["error", ...routeNoDb],
    },
  },

  // The Remix route tree holds pages only: /api/* is served by the endpoint tables (server/http/api, ADR 013).
  {
    files: ["app/routes/api.*", "app/routes/api/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...routeNoDb,
        { selector: "Program", message: "No API routes in app/routes: declare the endpoint in server/<area>/api.ts (ADR 013)." },
      ],
    },
  },

  // A migration is frozen in time: it types the database as Kysely<any>, never as today's tables.
  {
    files: ["db/migrations/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },

  // Playwright reads the fixtures a test needs from its first parameter's pattern; `{}` asks for none.
  {
    files: ["tests/e2e/**/*.ts"],
    rules: { "no-empty-pattern": "off" },
  },

  // The unit lane is pure and fast (issue 21 §7): no processes, threads, databases or PDF rendering (the db lane
  // renders PDFs, the faults lane runs processes and measures time), and no clocks measuring how long things took.
  {
    files: ["tests/unit/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "node:child_process", message: "Processes belong to the faults lane (tests/faults)." },
            { name: "node:worker_threads", message: "Threads belong to the faults lane (tests/faults)." },
            { name: "pg", message: "Databases belong to the db lane (tests/db)." },
            { name: "@electric-sql/pglite", message: "Databases belong to the db lane (tests/db)." },
          ],
          patterns: [
            {
              group: ["**/server/pdf/pool", "**/server/pdf/price-quote", "**/server/pdf/certificate"],
              message: "PDF rendering belongs to the db lane.",
            },
            {
              group: ["**/helpers/db", "**/helpers/portal", "**/helpers/template"],
              message: "Databases and servers belong to the db and http lanes.",
            },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[object.name='performance'][property.name='now']",
          message: "Timing assertions belong to the faults lane.",
        },
        {
          selector: "MemberExpression[object.name='process'][property.name='hrtime']",
          message: "Timing assertions belong to the faults lane.",
        },
        {
          selector: "BinaryExpression[operator='-'][left.callee.object.name='Date'][left.callee.property.name='now']",
          message: "Timing assertions belong to the faults lane.",
        },
      ],
    },
  },
);
