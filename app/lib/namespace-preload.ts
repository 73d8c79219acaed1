// Translations arrive WITH a client-side navigation's data, not after it (issue 22 §7).
//
// A page's namespaces (`handle.i18n`) are embedded only for the first page; a client-side navigation to a
// page that needs others used to commit first — the router pushes the new URL — and then suspend while
// they loaded, so for a moment the address bar said /en/researcher while the sign-in page was still on
// screen, and a click meant for its "Start an order" landed on the dashboard's "My Orders" that replaced it.
// Remix v2 gives no hook between "data arrived" and "commit", but every navigation that renders a new route
// fetches that route's data through one GET of `<path>.data` (single fetch). So the browser's fetch is
// wrapped: such a request also loads the target route's namespaces, and its response is handed to the router
// only when both are here. They load side by side, so the navigation takes as long as the slower of the two
// and nothing suspends after the URL changes. A failed namespace load does not hold the data back
// (Translator.load settles either way; components then show keys and retry, as before).
import { matchRoutes } from "@remix-run/react";
import { routeNamespaces, type Translator } from "./translate";

interface RemixWindow {
  __remixRouter?: { routes: Parameters<typeof matchRoutes>[0] };
  __remixManifest?: { routes: Record<string, { module: string }> };
  __remixRouteModules?: Record<string, { handle?: unknown } | undefined>;
}

/** The page path a single-fetch data request is for, or null for any other request. */
export function singleFetchPage(input: RequestInfo | URL, init: RequestInit | undefined, origin: string): string | null {
  const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  if (method !== "GET") return null;
  const raw = input instanceof Request ? input.url : String(input);
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || !url.pathname.endsWith(".data")) return null;
  // Remix asks for "/" as /_root.data and for any other path as <path>.data.
  return url.pathname === "/_root.data" ? "/" : url.pathname.slice(0, -".data".length);
}

/** The namespaces the routes matching `path` declare, loading their modules when the router has not yet. */
async function namespacesOf(path: string, w: RemixWindow): Promise<string[]> {
  const routes = w.__remixRouter?.routes;
  if (!routes) return [];
  const matches = matchRoutes(routes, path) ?? [];
  const handles = await Promise.all(
    matches.map(async ({ route }) => {
      const id = route.id!;
      const loaded = w.__remixRouteModules?.[id];
      if (loaded) return { handle: loaded.handle };
      const url = w.__remixManifest?.routes[id]?.module;
      // The same URL the router imports: the browser fetches and evaluates the module once.
      const module = url ? ((await import(/* @vite-ignore */ url)) as { handle?: unknown }) : undefined;
      return { handle: module?.handle };
    }),
  );
  return routeNamespaces(handles);
}

/** Wraps window.fetch so that data for a navigation arrives together with its page's translations. */
export function loadNamespacesWithNavigationData(translator: Translator): void {
  const w = window as unknown as RemixWindow;
  const fetchData = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const response = fetchData(input, init);
    const page = singleFetchPage(input, init, window.location.origin);
    if (page === null) return response;
    const translations = namespacesOf(page, w)
      .then((namespaces) => translator.load(namespaces))
      .catch(() => undefined);
    return Promise.all([response, translations]).then(([r]) => r);
  };
}
