import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

interface Match {
  id: number;
  searchParam: string;
}

/**
 * Area-of-study search (spec 1 §5: at least 2 characters, at most 6 matches over all three levels).
 * An enhancement: it picks the option in the select named `selectId`, which stays as the no-JS fallback.
 */
export function AreaSearch({ selectId }: { selectId: string }) {
  const { t } = useTranslation("order");
  const [hydrated, setHydrated] = useState(false);
  const [query, setQuery] = useState("");
  const [matches, setMatches] = useState<Match[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (timer.current) clearTimeout(timer.current);
    if (query.trim().length < 2) {
      setMatches([]);
      return;
    }
    timer.current = setTimeout(() => {
      fetch(`/api/areas-of-study?q=${encodeURIComponent(query.trim())}`)
        .then((r) => r.json())
        .then((d: { areas: Match[] }) => setMatches(d.areas.slice(0, 6)))
        .catch(() => setMatches([]));
    }, 250);
  }, [query]);
  if (!hydrated) return null;
  const choose = (m: Match) => {
    const select = document.getElementById(selectId) as HTMLSelectElement | null;
    if (select) {
      select.value = String(m.id);
      select.dispatchEvent(new Event("change", { bubbles: true }));
    }
    setQuery(m.searchParam);
    setMatches([]);
  };
  return (
    <div className="field area-search">
      <label htmlFor={`${selectId}-search`}>{t("details.searchArea")}</label>
      <input id={`${selectId}-search`} type="search" value={query} onChange={(e) => setQuery(e.target.value)} autoComplete="off" placeholder={t("details.searchAreaHint")} />
      {matches.length ? (
        <ul className="area-matches" role="listbox">
          {matches.map((m) => (
            <li key={m.id} role="option" aria-selected="false">
              <button type="button" className="link-button" onClick={() => choose(m)}>
                {m.searchParam}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
