// /{lang}/rubriq/* (spec 3 §2, issue 25 item 6, ADR 077): with rubriq_ui_hosted_on_new_site on, the area leaves for
// the configured external address keeping the request's path and query. It never leaves for an address that is
// empty or not http(s) (a misconfiguration must not become an open redirect to javascript: or a relative path):
// then the pages here show.
import type { AppContext } from "../context";
import type { Scope } from "../scope";

/** The external address to leave for, or null to show the page here. `path` and `search` as in the request URL. */
export async function rubriqExternalTarget(app: AppContext, path: string, search: string): Promise<string | null> {
  const snapshot = await app.config.snapshot();
  if (!snapshot.flags.rubriq_ui_hosted_on_new_site) return null;
  const raw = snapshot.config.rubriqExternalUrl;
  if (typeof raw !== "string" || !raw.trim()) return null;
  let base: URL;
  try {
    base = new URL(raw.trim());
  } catch {
    return null;
  }
  if (base.protocol !== "https:" && base.protocol !== "http:") return null;
  if (base.username || base.password) return null;
  // The base's own path is a prefix ('https://rubriq.example/app' + '/en/rubriq/plan'); its query and fragment are dropped.
  const prefix = base.pathname.replace(/\/+$/, "");
  const safePath = path.startsWith("/") ? path : `/${path}`;
  return `${base.origin}${prefix}${safePath}${search.startsWith("?") || !search ? search : `?${search}`}`;
}

/**
 * Where /rubriq/plan/subscribe goes (ADR 077): the digital editing subscription page, except on the China
 * localisation while rubriq_china_cart_purchase is off — plans are not sold in the China cart then, and the page
 * says so (with the Chinese digital trial and support as the ways on) instead of opening a purchase that cannot be paid.
 */
export async function rubriqPlanPurchase(scope: Scope): Promise<"subscribe" | "not-sold-in-china"> {
  if (scope.localization !== "CN") return "subscribe";
  return (await scope.app.config.flag("rubriq_china_cart_purchase")) ? "subscribe" : "not-sold-in-china";
}
