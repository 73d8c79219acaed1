// The read-only lists the wizard's pages offer: manuscript languages, areas of study, the currencies of the
// summary's picker. Pages read them here (route modules never query the database).
import { currencyName } from "#common/format";
import type { Scope } from "../scope";
import { listCurrencies } from "../kernel/reference";
import { areaTree } from "../catalogue/areas";

/** Manuscript languages in their display order ({ id, code }; the page names them in the visitor's language). */
export function manuscriptLanguages(scope: Scope): Promise<{ id: number; code: string }[]> {
  return scope.app.db.selectFrom("languages").select(["id", "code"]).orderBy("sort_order").execute();
}

/** The areas of study as a tree, named in the page's language. */
export function areasOfStudy(scope: Scope) {
  return areaTree(scope.app.db, scope.lang);
}

/** The currencies an anonymous visitor may pick in the summary (selectable ones). */
export async function pickerCurrencies(scope: Scope): Promise<{ isoCode: string; name: string }[]> {
  return (await listCurrencies(scope.app.db))
    .filter((c) => c.selectable)
    .map((c) => ({ isoCode: c.isoCode, name: currencyName(c.isoCode, scope.lang, c.name) }));
}
