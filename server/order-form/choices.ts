// The read-only lists the wizard's pages offer: manuscript languages, areas of study, the currencies of the
// summary's picker. Pages read them here (route modules never query the database).
import { currencyName } from "#common/format";
import { LANG_TAG } from "#common/i18n";
import type { Scope } from "../scope";
import { listCurrencies } from "../kernel/reference";
import { areaTree } from "../catalogue/areas";
import { rememberedReference } from "../kernel/reference";

/**
 * Manuscript languages in their display order, each named in the scope's language (spec 1 §3 manuscriptLanguages
 * `{ id, name }`): the get-started page and GET /api/order-form/{id}/load offer the same list.
 */
export function manuscriptLanguages(scope: Scope): Promise<{ id: number; code: string; name: string }[]> {
  // Reference data: named once a minute per process and language, not on every get-started page (ADR 081).
  return rememberedReference(scope.app.db, `manuscript-languages:${scope.lang}`, async () => {
    const rows = await scope.app.db.selectFrom("languages").select(["id", "code"]).orderBy("sort_order").execute();
    const names = new Intl.DisplayNames([LANG_TAG[scope.lang]], { type: "language" });
    return rows.map((l) => ({ id: l.id, code: l.code, name: names.of(l.code) ?? l.code }));
  });
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
