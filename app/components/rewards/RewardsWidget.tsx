// The dashboard's rewards widget (spec 2 §2 "Widget row"): the points, the level, the progress bar and the link to
// /researcher/rewards. Rendered only when the user has rewards.
import { Link } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import type { LoyaltyProgress } from "#common/rewards/levels";
import { ProgressLine } from "./LevelBar";

export interface RewardsWidgetData {
  totalRewardPoints: number;
  loyaltyLevel: string;
  progress: LoyaltyProgress;
}

export function RewardsWidget({ data }: { data: RewardsWidgetData }) {
  const { t } = useTranslation("rewards");
  const lang = useLang();
  return (
    <section className="card dashboard-widget rewards-widget" aria-labelledby="rewards-widget-title">
      <h2 id="rewards-widget-title">{t("widget.title")}</h2>
      <p className="rewards-widget-points">
        <strong data-reward-points>{t("widget.points", { points: data.totalRewardPoints })}</strong>
        <br />
        <span>{t("widget.level", { level: t(`levels.${data.loyaltyLevel}`) })}</span>
      </p>
      <ProgressLine progress={data.progress} compact />
      <p>
        <Link to={paths.rewards(lang)} className="button button-small">
          {t("widget.link")}
        </Link>
      </p>
    </section>
  );
}
