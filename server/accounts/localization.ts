// Which localisation's site a user belongs on (spec 1 §2: localisation redirect and mismatch banner).
// Sites of their own are configuration (`localizationHosts`, ADR 021): with none configured, the default
// of every fresh deployment, one address serves every localisation and nobody belongs elsewhere.
import type { Localization } from "../config";

/** `current`: the address the request came to (its adapter passes it; domain code takes no Request, ADR 057). */
export function siteOrigin(secureSite: string, current: URL): string {
  // Local development hosts (*.localhost) keep the current scheme, and the current port unless the site names its own.
  const name = secureSite.replace(/:\d+$/, "");
  const ownPort = name !== secureSite;
  if (name === "localhost" || name.endsWith(".localhost"))
    return `${current.protocol}//${secureSite}${!ownPort && current.port ? `:${current.port}` : ""}`;
  return `https://${secureSite}`;
}

/**
 * The host of the site a user of `userLocalization` belongs on when it is not the site `siteIdentity` they
 * are on, else null. A localisation without a configured host has no other site to send anyone to.
 */
export function otherSiteHost(localizations: Localization[], siteIdentity: string, userLocalization: string): string | null {
  const own = localizations.find((l) => l.identity === userLocalization);
  if (!own?.secureSite || own.identity === siteIdentity) return null;
  return own.secureSite;
}

/** The address to send the user to: their own localisation's site with `path`, or `path` here when it is this site. */
export function localizationRedirectTarget(
  localizations: Localization[],
  siteIdentity: string,
  userLocalization: string,
  path: string,
  current: URL,
): string {
  const host = otherSiteHost(localizations, siteIdentity, userLocalization);
  return host ? siteOrigin(host, current) + path : path;
}

/** Origins of the other localisations' own sites (their logout images); none when no hosts are configured. */
export function otherSiteOrigins(localizations: Localization[], siteIdentity: string | undefined, current: URL): string[] {
  return localizations.filter((l) => l.secureSite && l.identity !== siteIdentity).map((l) => siteOrigin(l.secureSite!, current));
}
