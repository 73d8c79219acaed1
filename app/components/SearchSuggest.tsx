import { useEffect, useRef, useState } from "react";

/**
 * A search box with suggestions from our API, shown only once JavaScript runs: an enhancement over a
 * plain field or select that works without it. `fetchItems` maps a query to suggestions.
 */
export function SearchSuggest<T extends { key: string; label: string }>({
  id,
  label,
  hint,
  minChars,
  fetchItems,
  onPick,
}: {
  id: string;
  label: string;
  hint: string;
  minChars: number;
  fetchItems: (query: string) => Promise<T[]>;
  onPick: (item: T) => void;
}) {
  const [hydrated, setHydrated] = useState(false);
  const [query, setQuery] = useState("");
  const [items, setItems] = useState<T[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (timer.current) clearTimeout(timer.current);
    if (query.trim().length < minChars) {
      setItems([]);
      return;
    }
    timer.current = setTimeout(() => {
      fetchItems(query.trim()).then(setItems, () => setItems([]));
    }, 250);
    // fetchItems is stable enough per render; the query drives the search.
  }, [query, minChars]);
  if (!hydrated) return null;
  return (
    <div className="field search-suggest">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" value={query} onChange={(e) => setQuery(e.target.value)} autoComplete="off" placeholder={hint} />
      {items.length ? (
        <ul className="suggestions" role="listbox">
          {items.map((item) => (
            <li key={item.key} role="option" aria-selected="false">
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  onPick(item);
                  setQuery(item.label);
                  setItems([]);
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Sets a form control's value the way a person would, so listeners see the change. */
export function setFieldValue(id: string, value: string) {
  const el = document.getElementById(id) as HTMLInputElement | HTMLSelectElement | null;
  if (!el) return;
  el.value = value;
  el.dispatchEvent(new Event("change", { bubbles: true }));
}
