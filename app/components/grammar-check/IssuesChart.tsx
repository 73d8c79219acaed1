// The most-common-issues chart (spec 3 §2): one horizontal bar per category, longest first, with its count.
// Server-rendered SVG like the percentile chart; bar lengths are SVG attributes, not styles (CSP).
import { ISSUE_CATEGORIES, type IssueCategory } from "#common/grammar-check/constants";
import { useTranslation } from "#app/lib/translate";

const W = 560;
const ROW = 40;
const LABEL_W = 0;

export function IssuesChart({ errorCount }: { errorCount: Record<IssueCategory, number> }) {
  const { t } = useTranslation("grammar");
  const rows = ISSUE_CATEGORIES.map((c) => ({ category: c, count: errorCount[c] ?? 0 })).sort((a, b) => b.count - a.count);
  const max = Math.max(1, ...rows.map((r) => r.count));
  const barMax = W - LABEL_W - 60;
  const H = rows.length * ROW + 8;
  return (
    <svg className="grammar-chart issues-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="issues-chart-title">
      <title id="issues-chart-title">
        {`${t("details.issuesChartTitle")}: ${rows.map((r) => `${t(`categories.${r.category}`)} ${r.count}`).join(", ")}`}
      </title>
      {rows.map((r, i) => {
        const top = i * ROW + 4;
        const width = r.count ? Math.max(4, (r.count / max) * barMax) : 0;
        return (
          <g key={r.category}>
            <text x={LABEL_W} y={top + 11} fontSize="13" fill="#1c2733">
              {t(`categories.${r.category}`)}
            </text>
            <rect x={LABEL_W} y={top + 18} width={barMax} height="12" rx="6" fill="#eef2f6" />
            {width ? <rect x={LABEL_W} y={top + 18} width={width.toFixed(1)} height="12" rx="6" fill="#0b5d7a" /> : null}
            <text x={LABEL_W + barMax + 10} y={top + 24} dominantBaseline="central" fontSize="14" fontWeight="700" fill="#1c2733">
              {r.count}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
