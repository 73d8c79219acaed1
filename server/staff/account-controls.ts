// Staff controls of a researcher's account states (issue 22 item 5, ADR 066): the states a researcher cannot
// reach by themselves — asked for their country again (the country prompt), invoices hidden, the local-entity
// (wfoe) migration group and its "check back later" state — set by staff on the researcher's staff page, each
// with an audit row naming the staff member, the researcher and the new value.
import { fail, ok, type Result } from "#common/result";
import type { AccountControl } from "#common/staff/schemas";
import type { Scope } from "../scope";
import { audit } from "../kernel/audit";
import { invalidateUser } from "../accounts/user-cache";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ResearcherAccountStates {
  identity: string;
  firstName: string;
  lastName: string;
  email: string;
  active: boolean;
  localization: string;
  /** ISO code of the account's country; null: the researcher is asked for it on every page. */
  country: string | null;
  hideInvoices: boolean;
  wfoe: { inMigratingGroup: boolean; acceptedTermsOfService: boolean; migrated: boolean };
}

function staffOf(scope: Scope): number | null {
  const session = scope.session;
  // A staff member viewing as a researcher acts as that researcher: no staff controls from there.
  if (!session?.user.isStaff || session.impersonatorId) return null;
  return session.user.id;
}

async function findResearcher(scope: Scope, identity: string) {
  if (!UUID.test(identity)) return undefined;
  return scope.app.db
    .selectFrom("users as u")
    .leftJoin("countries as c", "c.id", "u.country_id")
    .select([
      "u.id",
      "u.identity",
      "u.first_name",
      "u.last_name",
      "u.email",
      "u.active",
      "u.is_staff",
      "u.localization",
      "c.iso2",
      "u.hide_invoices",
      "u.wfoe_in_migrating_group",
      "u.wfoe_accepted_tos_at",
      "u.wfoe_migrated",
    ])
    .where("u.identity", "=", identity)
    .executeTakeFirst();
}

/** The researcher `identity`'s account states for the staff page. Errors: `not-allowed` (not staff), `not-found`. */
export async function researcherAccountStates(scope: Scope, identity: string): Promise<Result<ResearcherAccountStates>> {
  if (staffOf(scope) === null) return fail("not-allowed");
  const u = await findResearcher(scope, identity);
  if (!u || u.is_staff) return fail("not-found");
  return ok({
    identity: u.identity,
    firstName: u.first_name,
    lastName: u.last_name,
    email: u.email,
    active: u.active,
    localization: u.localization,
    country: u.iso2 ?? null,
    hideInvoices: u.hide_invoices,
    wfoe: {
      inMigratingGroup: u.wfoe_in_migrating_group,
      acceptedTermsOfService: Boolean(u.wfoe_accepted_tos_at),
      migrated: u.wfoe_migrated,
    },
  });
}

/**
 * Sets one account state of the researcher `identity` (an `AccountControl`), audited as `staff.account.<control>`
 * with the value before and after. Errors: `not-allowed` (not staff, or viewing as someone), `not-found` (unknown
 * identity or a staff account).
 */
export async function setAccountControl(scope: Scope, identity: string, control: AccountControl): Promise<Result> {
  const staffId = staffOf(scope);
  if (staffId === null) return fail("not-allowed");
  const u = await findResearcher(scope, identity);
  if (!u || u.is_staff) return fail("not-found");
  const { db } = scope.app;
  await db.transaction().execute(async (trx) => {
    const now = new Date();
    let before: unknown;
    let after: unknown;
    switch (control.intent) {
      case "ask-country":
        // The researcher's country is cleared: every page asks for it again until they answer (spec 2 §2).
        before = u.iso2 ?? null;
        after = null;
        await trx
          .updateTable("users")
          .set({ country_id: null, snid_country_update_status: null, updated_at: now })
          .where("id", "=", u.id)
          .execute();
        break;
      case "hide-invoices":
        before = u.hide_invoices;
        after = control.value === "on";
        await trx
          .updateTable("users")
          .set({ hide_invoices: after as boolean, updated_at: now })
          .where("id", "=", u.id)
          .execute();
        break;
      case "wfoe-group":
        // Joining the group starts the migration afresh (the terms to accept); leaving it ends the redirect.
        before = { inMigratingGroup: u.wfoe_in_migrating_group, accepted: Boolean(u.wfoe_accepted_tos_at), migrated: u.wfoe_migrated };
        if (control.value === "on") {
          after = { inMigratingGroup: true, accepted: false, migrated: false };
          await trx
            .updateTable("users")
            .set({ wfoe_in_migrating_group: true, wfoe_accepted_tos_at: null, wfoe_migrated: false, updated_at: now })
            .where("id", "=", u.id)
            .execute();
        } else {
          after = { inMigratingGroup: false, accepted: Boolean(u.wfoe_accepted_tos_at), migrated: u.wfoe_migrated };
          await trx.updateTable("users").set({ wfoe_in_migrating_group: false, updated_at: now }).where("id", "=", u.id).execute();
        }
        break;
      case "wfoe-migrated":
        // The migration is complete: the researcher's pages open again.
        before = u.wfoe_migrated;
        after = true;
        await trx.updateTable("users").set({ wfoe_migrated: true, updated_at: now }).where("id", "=", u.id).execute();
        break;
    }
    await audit({ db: trx }, staffId, `staff.account.${control.intent}`, { type: "user", id: u.identity }, { before, after, ip: scope.ip });
  });
  await invalidateUser(scope.app, u.id);
  return ok();
}
