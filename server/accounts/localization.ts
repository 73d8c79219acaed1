// Which localisation's site a user belongs on (spec 1 §2: localisation redirect and mismatch banner).
import type { Localization } from "../config";

export function siteOrigin(secureSite: string, request: Request | URL): string {
  const current = request instanceof URL ? request : new URL(request.url);
  // Local development hosts (*.localhost) keep the current scheme and port.
  if (secureSite === "localhost" || secureSite.endsWith(".localhost"))
    return `${current.protocol}//${secureSite}${current.port ? `:${current.port}` : ""}`;
  return `https://${secureSite}`;
}

/** The address to send the user to: their own localisation's site with `path`, or `path` here when it is this site. */
export function localizationRedirectTarget(
  localizations: Localization[],
  siteIdentity: string,
  userLocalization: string,
  path: string,
  request: Request,
): string {
  const own = localizations.find((l) => l.identity === userLocalization);
  if (!own || own.identity === siteIdentity) return path;
  return siteOrigin(own.secureSite, request) + path;
}
