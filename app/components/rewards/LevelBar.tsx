// The loyalty level bar (spec 3 §3 "Loyalty", §4 "Loyalty progress"; spec 2 §2 "Widget row"): one segment per level
// (equal: its percentageWidth), the reached ones filled, and a progress bar toward the next level. Server-rendered: no script.
import { useTranslation } from "#app/lib/translate";
import type { LoyaltyLevel, LoyaltyProgress } from "#common/rewards/levels";

export function ProgressLine({ progress, compact = false }: { progress: LoyaltyProgress; compact?: boolean }) {
  const { t } = useTranslation("rewards");
  const label = progress.next
    ? t("summary.progress", { percent: progress.percent, level: t(`levels.${progress.next}`) })
    : t("summary.top");
  return (
    <div className="rewards-progress">
      <progress max={100} value={progress.percent} aria-label={label}>
        {progress.percent}%
      </progress>
      <p className={compact ? "field-hint" : undefined}>
        {label}
        {progress.next && !compact ? (
          <>
            {" · "}
            {t("summary.toNext", { points: progress.pointsToNextLevel, level: t(`levels.${progress.next}`) })}
          </>
        ) : null}
      </p>
    </div>
  );
}

export function LevelBar({ levels, current }: { levels: LoyaltyLevel[]; current: string }) {
  const { t } = useTranslation("rewards");
  const at = levels.findIndex((l) => l.identity === current);
  return (
    <ol className="level-bar" aria-label={t("summary.bar")}>
      {levels.map((l, i) => (
        // Equal segments (the levels' percentageWidth) by the stylesheet: the page's CSP allows no inline style.
        <li key={l.identity} className={i <= at ? "level-reached" : undefined} aria-current={i === at ? "step" : undefined}>
          <span className="level-name">{t(`levels.${l.name}`)}</span>
          <span className="level-points">{l.minimumPointsNeeded}</span>
        </li>
      ))}
    </ol>
  );
}
