// Pages of the assessment list (30 a page, spec 3 §9): plain links, so they work without JavaScript.
import { paths } from "#common/paths";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";

export function Pagination({ page, pages }: { page: number; pages: number }) {
  const { t } = useTranslation("grammar");
  const lang = useLang();
  if (pages <= 1) return null;
  const numbers = Array.from({ length: pages }, (_, i) => i + 1).filter((p) => p === 1 || p === pages || Math.abs(p - page) <= 2);
  return (
    <nav className="gc-pagination" aria-label={t("list.pagination")}>
      <p className="field-hint">{t("list.page", { page, pages })}</p>
      <ul>
        {page > 1 ? (
          <li>
            <a href={paths.grammarCheck(lang, { page: page - 1 })} rel="prev">
              ‹ {t("list.previous")}
            </a>
          </li>
        ) : null}
        {numbers.map((p, i) => (
          <li key={p}>
            {i > 0 && p - numbers[i - 1] > 1 ? <span aria-hidden="true">… </span> : null}
            {p === page ? <span aria-current="page">{p}</span> : <a href={paths.grammarCheck(lang, { page: p })}>{p}</a>}
          </li>
        ))}
        {page < pages ? (
          <li>
            <a href={paths.grammarCheck(lang, { page: page + 1 })} rel="next">
              {t("list.next")} ›
            </a>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
