// The route-match memo (server/http/route-matching.ts) must answer exactly as
// @remix-run/router's own matchRoutes, for every tree Remix builds per render.
import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { installRouteMatchMemo, ROUTE_MATCH_MEMO_SIZE } from "../../server/http/route-matching";

type R = { id: string; path?: string; index?: boolean; children?: R[] };
const tree = (): R[] => [
  {
    id: "root",
    path: "",
    children: [
      { id: "api", path: "api/*" },
      {
        id: "lang",
        path: ":lang",
        children: [
          { id: "landing", index: true },
          { id: "login", path: "login/:failure?/:message?" },
          { id: "details", path: "researcher/index/details/:externalId/:status?" },
          { id: "other", path: "*" },
        ],
      },
    ],
  },
];

describe("route-match memo", () => {
  const router = createRequire(import.meta.url)("@remix-run/router") as {
    matchRoutes: (
      r: R[],
      l: string | { pathname: string },
      b?: string,
    ) => { route: R; params: Record<string, string>; pathname: string; pathnameBase: string }[] | null;
  };
  const original = router.matchRoutes;
  const memo = installRouteMatchMemo();

  it("is installed on the module every caller uses, once", () => {
    expect(router.matchRoutes).toBe(memo.matchRoutes);
    expect(router.matchRoutes).not.toBe(original);
    expect(installRouteMatchMemo().matchRoutes).toBe(memo.matchRoutes);
  });

  it("answers as the router does, for new trees of the same routes and for query strings", () => {
    for (const path of [
      "/en/login",
      "/en/login/oauth-failure",
      "/cn/researcher/index/details/RS100/thank-you",
      "/api/order-form/x/load",
      "/en",
      "/en/nowhere/at/all",
      "/en/login?redirect=/x",
    ]) {
      const first = tree();
      const again = tree();
      const expected = original(first, path);
      expect(router.matchRoutes(first, path), path).toEqual(expected);
      // A second tree of the same shape (Remix makes one per render): same answer, with that tree's route objects.
      const hit = router.matchRoutes(again, { pathname: path.split("?")[0] });
      expect(hit, path).toEqual(original(again, path));
      if (hit) expect(hit[hit.length - 1].route).toBe(original(again, path)![hit.length - 1].route);
    }
  });

  it("gives every caller its own params, and forgets when full", () => {
    const t = tree();
    const a = router.matchRoutes(t, "/en/researcher/index/details/RS1")!;
    a[a.length - 1].params.externalId = "changed";
    expect(router.matchRoutes(t, "/en/researcher/index/details/RS1")![2].params.externalId).toBe("RS1");
    for (let i = 0; i < ROUTE_MATCH_MEMO_SIZE + 5; i++) router.matchRoutes(t, `/en/researcher/index/details/RS${i}`);
    expect(router.matchRoutes(t, "/en/researcher/index/details/RS7")![2].params.externalId).toBe("RS7");
  });

  it("leaves trees without route ids to the router", () => {
    const anonymous = [{ path: "a/:x" }] as unknown as R[];
    expect(router.matchRoutes(anonymous, "/a/1")).toEqual(original(anonymous, "/a/1"));
  });
});

// The router's own internal calls (createStaticHandler's query, on every document request) do not go through the
// module's exports, so @remix-run/router is patched at install (patches/, ADR 081): a tree's ranked branches and
// each pattern's regular expression are computed once, and a pathname remembers the branch it matched.
describe("the patched router (patch-package at npm install)", () => {
  const source = createRequire(import.meta.url).resolve("@remix-run/router");

  it("is the patched build", async () => {
    const text = await import("node:fs").then((fs) => fs.readFileSync(source, "utf8"));
    expect(text).toContain("rankedBranchesCache");
    expect(text).toContain("compiledPathCache");
    expect(text).toContain("matchedBranchCache");
  });

  it("matches the same tree the same way the second time, with new match objects", () => {
    const { createStaticHandler } = createRequire(import.meta.url)("@remix-run/router") as {
      createStaticHandler: (r: unknown[]) => { dataRoutes: R[] };
    };
    const { matchRoutes } = installRouteMatchMemo();
    const t = createStaticHandler(tree()).dataRoutes;
    for (const path of ["/en/login/oauth-failure", "/cn/researcher/index/details/RS100/thank-you", "/en/nowhere", "/api/x"]) {
      // Each tree object is new to the module-level memo: these calls reach the router's own (patched) matching.
      const first = JSON.stringify(matchRoutes(t, path)?.map((m) => [m.route.id, m.params, m.pathname]));
      const second = matchRoutes(t, path);
      expect(JSON.stringify(second?.map((m) => [m.route.id, m.params, m.pathname])), path).toBe(first);
    }
    const a = matchRoutes(t, "/en/researcher/index/details/RS1")!;
    const b = matchRoutes(t, "/en/researcher/index/details/RS1")!;
    expect(a[2]).not.toBe(b[2]);
    expect(a[2].params).not.toBe(b[2].params);
    expect(matchRoutes(t, "/en/researcher/index/details/RS2")![2].params.externalId).toBe("RS2");
  });
});
