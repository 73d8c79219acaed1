// Import-cycle check, run by `npm run lint` (ADR 015). A cycle makes module initialisation depend on
// which file is loaded first and hides which module owns what. ESLint's import plugins need a native
// resolver this registry does not carry, so the graph is built here with the TypeScript parser:
// static imports and re-exports of app/, server/, db/ and scripts/, resolved through relative paths and
// the #common/* #app/* #server/* aliases. Type-only imports are left out (erased at build time), and so
// are dynamic import() calls (loaded later, on demand, so they cannot deadlock initialisation).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

const SOURCE = /\.(ts|tsx|js|mjs)$/;
const EXTENSIONS = [".ts", ".tsx", ".js", ".mjs"];

/** Aliases of tsconfig.json "paths" (and vite.config.ts), relative to the project root. */
export const ALIASES: Record<string, string> = { "#common/": "app/common/", "#app/": "app/", "#server/": "server/", "~/": "app/" };

/** The module specifiers a file loads when it is evaluated (no type-only imports, no dynamic import()). */
export function importsOf(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const specs: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      // `import { type A, type B } from` is erased entirely (isolatedModules without verbatimModuleSyntax).
      const bindings = clause?.namedBindings;
      if (clause && !clause.name && bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0) {
        if (bindings.elements.every((e) => e.isTypeOnly)) continue;
      }
      specs.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      if (statement.isTypeOnly) continue;
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly)) continue;
      specs.push(statement.moduleSpecifier.text);
    }
  }
  return specs;
}

/** The project file a specifier names, or null for a package or a builtin. */
export function resolveImport(root: string, fromFile: string, spec: string): string | null {
  let base: string | null = null;
  if (spec.startsWith("./") || spec.startsWith("../")) base = path.resolve(path.dirname(fromFile), spec);
  else {
    const alias = Object.keys(ALIASES).find((prefix) => spec.startsWith(prefix));
    if (alias) base = path.join(root, ALIASES[alias], spec.slice(alias.length));
  }
  if (base === null) return null;
  const candidates = [
    base,
    ...EXTENSIONS.map((ext) => base + ext),
    // ESM-style "./x.js" naming x.ts
    ...(base.endsWith(".js") ? [base.slice(0, -3) + ".ts", base.slice(0, -3) + ".tsx"] : []),
    ...EXTENSIONS.map((ext) => path.join(base, "index" + ext)),
  ];
  return candidates.find((file) => SOURCE.test(file) && fs.existsSync(file) && fs.statSync(file).isFile()) ?? null;
}

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(full);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** file → the project files it loads, for every source file under the given folders of root. */
export function buildGraph(root: string, dirs: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap((dir) => sourceFiles(path.join(root, dir)))) {
    const targets = importsOf(file, fs.readFileSync(file, "utf8"))
      .map((spec) => resolveImport(root, file, spec))
      .filter((target): target is string => target !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * One cycle per strongly connected component (Tarjan), as a path that starts and ends on the same
 * file. Breaking the printed cycle may leave another in the same component; the next run shows it.
 */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  const edges = (node: string) => graph.get(node) ?? [];

  // Iterative, so a deep graph cannot overflow the call stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; i: number }> = [{ node: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = edges(frame.node);
      if (frame.i < targets.length) {
        const target = targets[frame.i++];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, i: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || edges(frame.node).includes(frame.node)) components.push(component);
      }
    }
  }
  return components.map((component) => cycleWithin(graph, new Set(component)));
}

/** A shortest path from the component's first file (by name) back to itself, inside the component. */
function cycleWithin(graph: Map<string, string[]>, members: Set<string>): string[] {
  const start = [...members].sort()[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const between: string[] = [];
        for (let at = node; at !== start; at = previous.get(at)!) between.unshift(at);
        return [start, ...between, start];
      }
      if (!previous.has(target) && target !== start) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/**
 * The folder-level graph of server/ (issue 21 §6): area → the areas its files load (value imports only, as for
 * cycles). Files directly in server/ (boot, context, env…) are the composition root, not an area.
 */
export function areaGraph(root: string, graph: Map<string, string[]>): Map<string, Set<string>> {
  const serverDir = path.join(root, "server");
  const areaOf = (file: string) => {
    const rel = path.relative(serverDir, file);
    return rel.startsWith("..") || !rel.includes(path.sep) ? null : rel.split(path.sep)[0];
  };
  const areas = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    const a = areaOf(from);
    if (!a) continue;
    const deps = areas.get(a) ?? areas.set(a, new Set()).get(a)!;
    for (const to of targets) {
      const b = areaOf(to);
      if (b && b !== a) deps.add(b);
    }
  }
  return areas;
}

/** Pairs of areas that load each other ("a <-> b", a before b by name): each is a knot the layering must untie. */
export function mutualPairs(areas: Map<string, Set<string>>): string[] {
  const pairs: string[] = [];
  for (const [a, deps] of areas) for (const b of deps) if (a < b && areas.get(b)?.has(a)) pairs.push(`${a} <-> ${b}`);
  return pairs.sort();
}

/**
 * The mutual pairs that existed when the check was introduced (issue 21 §6). The list may only shrink: a new pair
 * fails the check, and so does a listed pair that no longer exists (remove it here, so it cannot come back).
 */
export const KNOWN_MUTUAL_PAIRS: readonly string[] = [];

/** Every import and re-export of a file, type-only ones included, each with whether it is erased at build time. */
export function allImportsOf(fileName: string, text: string): { spec: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const values = new Set(importsOf(fileName, text));
  const found: { spec: string; typeOnly: boolean }[] = [];
  for (const statement of source.statements) {
    const spec =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : null;
    if (spec !== null) found.push({ spec, typeOnly: !values.has(spec) });
  }
  return found;
}

/** Whether a file names the fetch API's `Request` (a parameter or variable of that type, or `new Request(…)`). */
export function mentionsRequest(fileName: string, text: string): boolean {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && node.typeName.text === "Request") found = true;
    else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "Request") found = true;
    else ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The files of an area that stand at the HTTP boundary (ADR 057): its endpoint table (`api.ts`, `*-api.ts`) and
 * its route adapters (`http.ts`, `*-http.ts`). They may use server/http and the fetch `Request`; the rest of the
 * area is domain code, which takes plain values (a client address, a cookie's value) computed by an adapter.
 */
export function isHttpAdapter(serverRelative: string): boolean {
  return /(^|[-/])(api|http)\.tsx?$/.test(serverRelative.split(path.sep).join("/"));
}

/** Server folders that kernel files may name in type-only imports: the handles their functions take. */
export const KERNEL_TYPE_SOURCES: readonly string[] = ["cache", "db"];

/**
 * The layering rules of server/ (issue 21 §6, ADR 057), as messages "<file>: <rule>" with server/-relative paths:
 * - server/kernel/ is the lowest floor: it imports no other folder of server/ (type-only imports of the handles in
 *   KERNEL_TYPE_SOURCES aside) and nothing of app/ but app/common;
 * - domain code (an area's files but its adapters, see isHttpAdapter) imports nothing of server/http, not even a
 *   type, and takes no `Request`.
 */
export function layerViolations(root: string, files: Map<string, string>): string[] {
  const serverDir = path.join(root, "server");
  const rel = (file: string) => path.relative(serverDir, file).split(path.sep).join("/");
  const inServer = (file: string) => !path.relative(serverDir, file).startsWith("..");
  const found: string[] = [];
  for (const [file, text] of files) {
    if (!inServer(file)) continue;
    const name = rel(file);
    if (!name.includes("/")) continue; // the composition root (boot, context, scope…)
    const area = name.split("/")[0];
    if (area === "http") continue;
    const targets = allImportsOf(file, text).flatMap(({ spec, typeOnly }) => {
      const target = resolveImport(root, file, spec);
      return target ? [{ target, typeOnly }] : [];
    });
    if (area === "kernel") {
      for (const { target, typeOnly } of targets) {
        if (inServer(target)) {
          const to = rel(target);
          const toArea = to.includes("/") ? to.split("/")[0] : null;
          if (toArea === "kernel" || (typeOnly && toArea !== null && KERNEL_TYPE_SOURCES.includes(toArea))) continue;
          found.push(`${name}: the kernel imports nothing above it (server/${to})`);
        } else if (!path.relative(path.join(root, "app", "common"), target).startsWith("..")) continue;
        else found.push(`${name}: the kernel imports nothing above it (${path.relative(root, target).split(path.sep).join("/")})`);
      }
      continue;
    }
    if (isHttpAdapter(name)) continue;
    for (const { target } of targets)
      if (inServer(target) && rel(target).startsWith("http/"))
        found.push(`${name}: domain code imports nothing of server/http (${rel(target)})`);
    if (mentionsRequest(file, text)) found.push(`${name}: domain code takes no Request (an adapter passes the values it needs)`);
  }
  return [...new Set(found)].sort();
}

/**
 * Domain files that still broke the HTTP boundary when it was drawn (ADR 057). The list may only shrink, like
 * KNOWN_MUTUAL_PAIRS: a new offender fails the check, and so does a listed file that no longer offends.
 */
export const KNOWN_HTTP_IN_DOMAIN: readonly string[] = [];

/**
 * The floors of issue 21 §1 (ADR 056) and of ADR 059: an area never loads one above it. Money is the base the rest
 * stands on: billing (invoices, the ledger) under payments under orders, prepay and the order form; the kernel under
 * all. Under the order form: vouchers (it prices with them) and accounts (under auth, whose sign-in claims drafts);
 * under accounts: mail (it sends accounts' mail). A higher area reacts to a lower one's events or provides its ports
 * (server/kernel/events.ts, ports.ts) instead of being called by it.
 */
export const FORBIDDEN_AREA_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  billing: ["payments", "orders", "prepay", "order-form", "staff", "rewards", "referrals", "testimonials", "groups", "home"],
  payments: ["orders", "prepay", "order-form", "staff", "rewards", "referrals", "testimonials", "groups", "home"],
  "order-form": ["orders", "prepay", "auth", "staff", "rewards", "referrals", "testimonials", "groups", "home"],
  vouchers: ["order-form", "orders", "staff", "rewards", "referrals", "testimonials", "groups", "home"],
  accounts: ["auth", "staff", "order-form", "orders", "payments", "prepay", "rewards", "referrals", "testimonials", "groups", "home"],
  mail: [
    "accounts",
    "auth",
    "order-form",
    "orders",
    "payments",
    "prepay",
    "staff",
    "rewards",
    "referrals",
    "testimonials",
    "groups",
    "home",
  ],
  // The grammar check (issue 23) stands on documents, accounts and the order form; sign-in (auth) claims its rows.
  "grammar-check": ["auth", "orders", "payments", "prepay", "billing", "staff"],
  // Issue 25: rewards (points, levels, promotions), referrals, testimonials and preferred groups stand on billing,
  // payments, orders and accounts and react to their events; the home area stands on all of them. None loads staff
  // (the staff console loads them). The lower areas never load them.
  orders: ["rewards", "referrals", "testimonials", "groups", "home"],
  rewards: ["referrals", "testimonials", "groups", "home", "staff", "auth"],
  referrals: ["testimonials", "groups", "home", "staff"],
  testimonials: ["rewards", "referrals", "groups", "home", "staff"],
  groups: ["rewards", "referrals", "testimonials", "home", "staff"],
  home: ["staff"],
};

/**
 * Areas that load no other area but the listed ones (ADR 059): the HTTP layer (router, cookies, the multipart
 * reader) is loaded by every area's adapters and loads only the translators of its fallback pages; the job queue
 * runs every area's jobs and loads none (the list of them is server/job-handlers.ts, the composition root).
 */
export const AREA_LOADS_ONLY: Readonly<Record<string, readonly string[]>> = {
  http: ["i18n", "kernel"],
  jobs: ["kernel"],
  // The file store (ADR 078) is under every area that keeps files: it loads none.
  storage: [],
};

/** "a → b" for every area that loads one its floor forbids (the kernel loads no area at all). */
export function floorViolations(areas: Map<string, Set<string>>): string[] {
  const violations: string[] = [];
  for (const [area, deps] of areas)
    for (const dep of deps)
      if (
        area === "kernel" ||
        FORBIDDEN_AREA_IMPORTS[area]?.includes(dep) ||
        (AREA_LOADS_ONLY[area] !== undefined && !AREA_LOADS_ONLY[area].includes(dep))
      )
        violations.push(`${area} → ${dep}`);
  return violations.sort();
}

/**
 * Knots of areas longer than a pair (a → b → c → a), as "a → b → c → a": the floors are an order only if the area
 * graph has no cycle at all (ADR 059). A mutual pair is reported as a pair (mutualPairs) and not again here.
 */
export function areaCycles(areas: Map<string, Set<string>>): string[] {
  const graph = new Map([...areas].map(([a, deps]) => [a, [...deps].sort()]));
  return findCycles(graph)
    .filter((cycle) => cycle.length > 3)
    .map((cycle) => cycle.join(" → "))
    .sort();
}

function main(): void {
  const started = performance.now();
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
  const graph = buildGraph(root, ["app", "server", "db", "scripts"]);
  const cycles = findCycles(graph);
  const serverFiles = new Map(
    [...graph.keys()].filter((f) => f.startsWith(path.join(root, "server") + path.sep)).map((f) => [f, fs.readFileSync(f, "utf8")]),
  );
  const layers = layerViolations(root, serverFiles);
  const layersAdded = layers.filter((v) => !KNOWN_HTTP_IN_DOMAIN.includes(v));
  const layersGone = KNOWN_HTTP_IN_DOMAIN.filter((v) => !layers.includes(v));
  const areas = areaGraph(root, graph);
  const pairs = mutualPairs(areas);
  const ms = Math.round(performance.now() - started);
  if (process.argv.includes("--graph")) {
    for (const [area, deps] of [...areas].sort(([a], [b]) => a.localeCompare(b))) console.log(`${area} → ${[...deps].sort().join(", ")}`);
    for (const pair of pairs) console.log(`mutual: ${pair}`);
  }
  for (const cycle of cycles) console.error("import cycle: " + cycle.map((file) => path.relative(root, file)).join(" → "));
  const floors = floorViolations(areas);
  for (const v of floors)
    console.error(`an area loads one above it: ${v} (emit an event it handles or call a port it provides instead; ADR 056, 059)`);
  const knots = areaCycles(areas);
  for (const knot of knots) console.error(`areas load each other in a circle: ${knot} (ADR 059)`);
  const added = pairs.filter((p) => !KNOWN_MUTUAL_PAIRS.includes(p));
  const gone = KNOWN_MUTUAL_PAIRS.filter((p) => !pairs.includes(p));
  for (const pair of added)
    console.error(`new mutual import between server areas: ${pair} (a lower area emits an event instead; docs/conventions.md)`);
  for (const pair of gone)
    console.error(`untied: ${pair} — remove it from KNOWN_MUTUAL_PAIRS in scripts/check-imports.ts so it stays untied`);
  for (const v of layersAdded) console.error(`layering: ${v} (docs/conventions.md, ADR 057)`);
  for (const v of layersGone)
    console.error(`fixed: "${v}" — remove it from KNOWN_HTTP_IN_DOMAIN in scripts/check-imports.ts so it stays fixed`);
  console.log(
    `check-imports: ${graph.size} files, ${cycles.length} cycle${cycles.length === 1 ? "" : "s"}, ` +
      `${pairs.length} mutual area pair${pairs.length === 1 ? "" : "s"} in server/ (--graph prints them) (${ms} ms)`,
  );
  if (
    cycles.length > 0 ||
    added.length > 0 ||
    gone.length > 0 ||
    floors.length > 0 ||
    knots.length > 0 ||
    layersAdded.length > 0 ||
    layersGone.length > 0
  )
    process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
