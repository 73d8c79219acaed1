// The score circle of the list and of the report (spec 3 §2, §5, §9): an SVG ring filled in proportion to the
// score out of 10, in the category's colour, the score with one decimal in the middle. Pure SVG rendered on the
// server: no script, no inline style (the CSP has no 'unsafe-inline'; colours are presentation attributes).
import { SCORE_COLOURS, SCORE_MAX, scoreCategory, scoreText } from "#common/grammar-check/constants";
import { LANG_TAG } from "#common/i18n";
import { useLang } from "#app/lib/use-lang";
import { useTranslation } from "#app/lib/translate";

const NEUTRAL = "#56657a";

export function ScoreCircle({
  score,
  size = 64,
  state,
}: {
  score: number | null;
  size?: number;
  state: "complete" | "processing" | "failed";
}) {
  const { t } = useTranslation("grammar");
  const lang = useLang();
  const r = 42;
  const circumference = 2 * Math.PI * r;
  const shown = state === "complete" && score !== null;
  const colour = shown ? SCORE_COLOURS[scoreCategory(score)] : NEUTRAL;
  const fraction = shown ? Math.max(0, Math.min(1, score / SCORE_MAX)) : 0;
  const text = shown ? scoreText(score, LANG_TAG[lang]) : state === "failed" ? "!" : "…";
  const label = shown ? t("list.scoreLabel", { score: text }) : state === "failed" ? t("list.couldNotComplete") : t("list.processing");
  return (
    <svg
      className={`score-circle${state === "processing" ? " score-circle-processing" : ""}`}
      width={size}
      height={size}
      viewBox="0 0 100 100"
      role="img"
      aria-label={label}
    >
      <circle cx="50" cy="50" r={r} fill="none" stroke="#e4e9ee" strokeWidth="9" />
      {shown ? (
        <circle
          cx="50"
          cy="50"
          r={r}
          fill="none"
          stroke={colour}
          strokeWidth="9"
          strokeLinecap="round"
          strokeDasharray={`${(fraction * circumference).toFixed(2)} ${circumference.toFixed(2)}`}
          transform="rotate(-90 50 50)"
        />
      ) : null}
      <text x="50" y="50" textAnchor="middle" dominantBaseline="central" fontSize="28" fontWeight="700" fill={colour}>
        {text}
      </text>
    </svg>
  );
}
