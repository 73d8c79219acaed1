// The percentile chart of the report (spec 3 §2, §9): the reference curve (the lowest score at each percentile,
// `percentiles` of the search answer), x from 0 to 100 in steps of 25, a marker at the 95th percentile and one at
// the document's own. Server-rendered SVG: it works without JavaScript and adds nothing to the browser bundle
// beyond this component's markup. Colours are presentation attributes (no inline style under the CSP).
import { PERCENTILE_HIGHLIGHT, PERCENTILE_TICKS, SCORE_COLOURS, SCORE_MAX, type ScoreCategory } from "#common/grammar-check/constants";
import type { PercentilePoint } from "#server/grammar-check/types";
import { useTranslation } from "#app/lib/translate";
import { percentileOrdinal } from "./ordinal";

const W = 560;
const H = 260;
const PAD = { left: 44, right: 20, top: 28, bottom: 44 };
const plotW = W - PAD.left - PAD.right;
const plotH = H - PAD.top - PAD.bottom;
const x = (p: number) => PAD.left + (Math.max(0, Math.min(100, p)) / 100) * plotW;
const y = (s: number) => PAD.top + plotH - (Math.max(0, Math.min(SCORE_MAX, s)) / SCORE_MAX) * plotH;

/** The SVG path of the curve, sorted by percentile; points outside the axes are clamped. */
export function curvePath(points: PercentilePoint[]): string {
  const sorted = [...points]
    .filter((p) => Number.isFinite(p.percentile) && Number.isFinite(p.minimumScore))
    .sort((a, b) => a.percentile - b.percentile);
  return sorted.map((p, i) => `${i ? "L" : "M"}${x(p.percentile).toFixed(1)},${y(p.minimumScore).toFixed(1)}`).join(" ");
}

export function PercentileChart({
  percentiles,
  percentile,
  score,
  category,
}: {
  percentiles: PercentilePoint[];
  percentile: number;
  score: number;
  category: ScoreCategory;
}) {
  const { t } = useTranslation("grammar");
  const colour = SCORE_COLOURS[category];
  const px = x(percentile);
  const path = curvePath(percentiles);
  // The document's marker label sits left of its line when it would run off the right edge.
  const labelRight = px < W - 90;
  return (
    <svg
      className="grammar-chart percentile-chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-labelledby="percentile-chart-title percentile-chart-desc"
    >
      <title id="percentile-chart-title">{t("details.chartTitle")}</title>
      <desc id="percentile-chart-desc">
        {t("details.percentileSentence", { percent: Math.round(percentile), ordinal: percentileOrdinal(t, percentile) })}
      </desc>
      {/* Grid and axes */}
      {[0, 5, 10].map((s) => (
        <g key={`y${s}`}>
          <line x1={PAD.left} x2={W - PAD.right} y1={y(s)} y2={y(s)} stroke="#e4e9ee" />
          <text x={PAD.left - 8} y={y(s)} textAnchor="end" dominantBaseline="central" fontSize="12" fill="#56657a">
            {s}
          </text>
        </g>
      ))}
      {PERCENTILE_TICKS.map((p) => (
        <g key={`x${p}`}>
          <line x1={x(p)} x2={x(p)} y1={PAD.top + plotH} y2={PAD.top + plotH + 5} stroke="#b8c4ce" />
          <text x={x(p)} y={PAD.top + plotH + 18} textAnchor="middle" fontSize="12" fill="#56657a">
            {p}
          </text>
        </g>
      ))}
      <line x1={PAD.left} x2={W - PAD.right} y1={PAD.top + plotH} y2={PAD.top + plotH} stroke="#b8c4ce" />
      <text x={PAD.left + plotW / 2} y={H - 6} textAnchor="middle" fontSize="12" fill="#56657a">
        {t("details.chartAxis")}
      </text>
      <text
        x={12}
        y={PAD.top + plotH / 2}
        textAnchor="middle"
        fontSize="12"
        fill="#56657a"
        transform={`rotate(-90 12 ${PAD.top + plotH / 2})`}
      >
        {t("details.chartScoreAxis")}
      </text>
      {/* The reference curve */}
      {path ? <path d={path} fill="none" stroke="#0b5d7a" strokeWidth="2.5" strokeLinejoin="round" /> : null}
      {/* The top 5% */}
      <line
        x1={x(PERCENTILE_HIGHLIGHT)}
        x2={x(PERCENTILE_HIGHLIGHT)}
        y1={PAD.top}
        y2={PAD.top + plotH}
        stroke="#067647"
        strokeDasharray="4 4"
      />
      <text x={x(PERCENTILE_HIGHLIGHT)} y={PAD.top - 8} textAnchor="end" fontSize="12" fill="#067647">
        {t("details.chartTop")}
      </text>
      {/* The document */}
      <line x1={px} x2={px} y1={PAD.top} y2={PAD.top + plotH} stroke={colour} strokeWidth="2" />
      <circle cx={px} cy={y(score)} r="6" fill={colour} stroke="#fff" strokeWidth="2" />
      <text
        x={labelRight ? px + 8 : px - 8}
        y={PAD.top + 12}
        textAnchor={labelRight ? "start" : "end"}
        fontSize="13"
        fontWeight="700"
        fill={colour}
      >
        {`${t("details.chartYou")} · ${percentileOrdinal(t, percentile)}`}
      </text>
    </svg>
  );
}
