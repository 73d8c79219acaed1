// Who may open the grammar check pages (spec 3 §2, §6), decided by the domain's grammarCheckAccess: a signed-in
// researcher whose languageAssessmentEnabled flag is off goes to /{lang}/researcher; a visitor, when anonymous
// assessment is not allowed, goes to sign-in with this page as the way back. A signed-in researcher also passes the
// shell rules every protected page applies (requireUser: account details, local-entity migration).
import { redirect, type AppLoadContext } from "@remix-run/node";
import { paths } from "#common/paths";
import type { Scope } from "#server/scope";
import { grammarCheckAccess } from "#server/grammar-check";
import { pageScope } from "#app/lib/scope.server";
import { requireUser } from "#app/lib/session.server";

export interface GrammarPageAccess {
  scope: Scope;
  anonymous: boolean;
  captcha: boolean;
  uploadFilesUi: boolean;
}

export async function grammarPage(request: Request, context: AppLoadContext): Promise<GrammarPageAccess> {
  const scope = await pageScope(request, context);
  const access = await grammarCheckAccess(scope);
  if (!access.allowed) {
    const url = new URL(request.url);
    throw redirect(
      access.redirect === "login" ? paths.login(scope.lang, { redirect: url.pathname + url.search }) : paths.researcher(scope.lang),
    );
  }
  if (!access.anonymous) await requireUser(request, context);
  return { scope, anonymous: access.anonymous, captcha: access.captcha, uploadFilesUi: access.uploadFilesUi };
}

/** ?page=N of the list (and ?from=N of a report): a whole number from 1, anything else page 1. */
export function pageParam(value: string | null): number {
  if (!value || !/^[1-9][0-9]{0,5}$/.test(value)) return 1;
  return Number(value);
}

/** A file name carried by ?archived= / ?deleted= for the notice: plain text, bounded. */
export function noticeName(value: string | null): string | null {
  if (!value) return null;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
  const text = value.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return text ? text.slice(0, 255) : null;
}
