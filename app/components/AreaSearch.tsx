import { useTranslation } from "#app/lib/translate";
import { paths } from "#common/paths";
import { SearchSuggest, setFieldValue } from "./SearchSuggest";

/**
 * Area-of-study search (spec 1 §5: at least 2 characters, at most 6 matches over all three levels).
 * It picks the option in the select `selectId`, which stays as the no-JS fallback.
 */
export function AreaSearch({
  selectId,
  onPick,
}: {
  selectId: string;
  /** The cascading selects set their three levels from the picked area (then the select `selectId` holds it). */
  onPick?: (area: { id: number; parentId: number; grandparentId: number }) => void;
}) {
  const { t } = useTranslation("order");
  return (
    <SearchSuggest
      id={`${selectId}-search`}
      label={t("details.searchArea")}
      hint={t("details.searchAreaHint")}
      minChars={2}
      fetchItems={async (q) => {
        const d = (await (await fetch(paths.api.areasOfStudy(q))).json()) as {
          areas: { id: number; searchParam: string; parentId: number; grandparentId: number }[];
        };
        return d.areas
          .slice(0, 6)
          .map((a) => ({ key: String(a.id), label: a.searchParam, parentId: a.parentId, grandparentId: a.grandparentId }));
      }}
      onPick={(item) => {
        if (onPick) onPick({ id: Number(item.key), parentId: item.parentId, grandparentId: item.grandparentId });
        else setFieldValue(selectId, item.key);
      }}
    />
  );
}

/** Target-journal search (at least 3 characters, 10 suggestions): fills the journal name and website fields. */
export function JournalSearch({ nameId, urlId }: { nameId: string; urlId: string }) {
  const { t } = useTranslation("order");
  return (
    <SearchSuggest
      id={`${nameId}-search`}
      label={t("details.searchJournal")}
      hint={t("details.searchJournalHint")}
      minChars={3}
      fetchItems={async (q) => {
        const d = (await (await fetch(paths.api.journals(q))).json()) as {
          journals: { id: number; name: string; url: string | null }[];
        };
        return d.journals.map((j) => ({ key: String(j.id), label: j.name, url: j.url ?? "" }));
      }}
      onPick={(item) => {
        setFieldValue(nameId, item.label);
        setFieldValue(urlId, item.url);
      }}
    />
  );
}
