// Remix matches the URL against the route tree several times per request
// (server matching, the fog-of-war manifest for every parent path, React
// Router's <Routes> while rendering). Each call of @remix-run/router's
// matchRoutes flattens and ranks the whole tree and compiles a regular
// expression per branch: about 0.5–1 ms with this portal's ~95 routes, a third
// of the CPU of a page (measured, ADR 010). The result depends only on the
// route tree and the pathname, so it is memoised here.
//
// The callers reach matchRoutes through the module's exports object
// (`router.matchRoutes(...)`), so replacing that property is enough; every
// caller gets its own copy of the match objects, as it would without the memo.
import { createRequire } from "node:module";

type Route = { id?: string; children?: Route[] };
type Match = { params: Record<string, string | undefined>; pathname: string; pathnameBase: string; route: Route };
type MatchRoutes = (
  routes: Route[],
  location: string | { pathname?: string; search?: string; hash?: string },
  basename?: string,
) => Match[] | null;
type Remembered = { id: string; params: Match["params"]; pathname: string; pathnameBase: string }[] | null;

/** Pathnames remembered per route tree before the memo starts over (a crawler's endless ids cannot grow it without bound). */
export const ROUTE_MATCH_MEMO_SIZE = 2000;

const INSTALLED = Symbol.for("portal.routeMatchMemo");

function pathnameOf(location: Parameters<MatchRoutes>[1]): string | null {
  if (typeof location === "string") {
    const end = location.search(/[?#]/);
    return end === -1 ? location : location.slice(0, end);
  }
  return typeof location?.pathname === "string" ? location.pathname : null;
}

/**
 * A route tree's shape (its ids in order) and its routes by id. Remix builds a new tree of the same
 * routes for every render, so the memo is keyed by shape and the matches are rebuilt from the routes
 * of the tree passed in. Null when a route has no id (then nothing is memoised).
 */
const trees = new WeakMap<Route[], { shape: string; byId: Map<string, Route> } | null>();
function treeOf(routes: Route[]) {
  let t = trees.get(routes);
  if (t === undefined) {
    const byId = new Map<string, Route>();
    const parts: string[] = [];
    let ok = true;
    const walk = (list: Route[]) => {
      parts.push("(");
      for (const r of list) {
        if (typeof r.id !== "string") ok = false;
        else byId.set(r.id, r);
        parts.push(r.id ?? "", ",");
        if (r.children?.length) walk(r.children);
      }
      parts.push(")");
    };
    walk(routes);
    t = ok ? { shape: parts.join(""), byId } : null;
    trees.set(routes, t);
  }
  return t;
}

/** Memoises @remix-run/router's matchRoutes for this process (idempotent). Returns the module for tests. */
export function installRouteMatchMemo(): { matchRoutes: MatchRoutes } {
  const router = createRequire(import.meta.url)("@remix-run/router") as { matchRoutes: MatchRoutes; [INSTALLED]?: boolean };
  if (router[INSTALLED]) return router;
  const original = router.matchRoutes;
  const memo = new Map<string, Map<string, Remembered>>();
  router.matchRoutes = (routes, location, basename = "/") => {
    const pathname = pathnameOf(location);
    const tree = pathname !== null && Array.isArray(routes) ? treeOf(routes) : null;
    if (pathname === null || !tree) return original(routes, location, basename);
    let byPath = memo.get(tree.shape);
    if (!byPath) {
      // One route tree per build; a new shape (hot reload in development) replaces the old ones.
      memo.clear();
      memo.set(tree.shape, (byPath = new Map()));
    }
    const key = `${basename}\u0000${pathname}`;
    let hit = byPath.get(key);
    if (hit === undefined) {
      const matches = original(routes, location, basename);
      hit = matches
        ? matches.map((m) => ({ id: m.route.id!, params: { ...m.params }, pathname: m.pathname, pathnameBase: m.pathnameBase }))
        : null;
      if (byPath.size >= ROUTE_MATCH_MEMO_SIZE) byPath.clear();
      byPath.set(key, hit);
      return matches;
    }
    // Each caller gets its own match objects, pointing at the routes of the tree it passed.
    return hit
      ? hit.map((m) => ({ params: { ...m.params }, pathname: m.pathname, pathnameBase: m.pathnameBase, route: tree.byId.get(m.id)! }))
      : null;
  };
  router[INSTALLED] = true;
  return router;
}
