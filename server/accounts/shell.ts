// Rules of the site shell that depend on the signed-in user (spec 1 §2 "Global behaviour", spec 2 §4 "Migration").
import type { UserView } from "./account";

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

export function shellState(user: UserView, siteLocalization: string): ShellState {
  const wfoe = user.wfoeMigrationStatus;
  return {
    banner: user.localization !== siteLocalization ? "localization-mismatch" : user.creditNotesLocked ? "credit-notes-lockout" : null,
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
