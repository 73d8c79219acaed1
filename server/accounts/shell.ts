// Rules of the site shell that depend on the signed-in user (spec 1 §2 "Global behaviour", spec 2 §4 "Migration").
import type { Localization } from "../config";
import type { UserView } from "./account";
import { otherSiteHost } from "./localization";

export type ShellBanner = "localization-mismatch" | "credit-notes-lockout" | null;

export interface ShellState {
  /** A warning banner that replaces the page (the account pages stay reachable). */
  banner: ShellBanner;
  /** Users without a country are asked for it. */
  countryModal: boolean;
  /** Account information is missing (other than the country): the user is sent to /account. */
  redirectToAccount: boolean;
  /** The user must go through the local-entity (wfoe) migration status page. */
  wfoeRequired: boolean;
}

/**
 * The shell rules for `user` on the site of localisation `siteLocalization`. The mismatch banner shows only
 * when the user's localisation has a site of its own (config `localizationHosts`, ADR 021) and this is not it.
 */
export function shellState(user: UserView, siteLocalization: string, localizations: Localization[]): ShellState {
  const wfoe = user.wfoeMigrationStatus;
  const mismatch = otherSiteHost(localizations, siteLocalization, user.localization) !== null;
  return {
    banner: mismatch ? "localization-mismatch" : user.creditNotesLocked ? "credit-notes-lockout" : null,
    countryModal: user.shouldDisplayCountryModal,
    redirectToAccount: user.missingFields.some((f) => f !== "country"),
    wfoeRequired: wfoe.inMigratingGroup && !(wfoe.acceptedTermsOfService && wfoe.migrated),
  };
}

/** Paths (without the language prefix) a user who must migrate may still open. */
export function wfoeExempt(pathWithoutLang: string): boolean {
  return (
    /^\/(researcher\/wfoe-migration-status|login|register|logout|account|staff)(\/|$)/.test(pathWithoutLang) ||
    !pathWithoutLang.startsWith("/researcher")
  );
}
