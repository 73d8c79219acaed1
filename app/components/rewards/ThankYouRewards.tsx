// The thank-you view's rewards block (spec 2 §2 "Thank-you view", §4; issue 25 item 1): the points the order earned,
// shown only when the user has rewards. While a paid order's points are not in yet the block waits for them: with
// JavaScript it asks GET /api/users/{id}/reward-points?externalId= a few times; without it the page refreshes itself
// (a <noscript> meta refresh counting in ?rewardsPoll=) until they are in or the tries are spent.
import { useEffect, useState } from "react";
import { Link } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";

export const REWARDS_POLL_SECONDS = 3;
export const REWARDS_POLL_TRIES = 10;

export interface ThankYouRewardsData {
  userIdentity: string;
  externalId: string;
  paid: boolean;
  totalRewardPoints: number;
  orderPoints: number;
  updated: boolean;
  pollCount: number;
}

export function ThankYouRewards({ data }: { data: ThankYouRewardsData }) {
  const { t } = useTranslation("rewards");
  const lang = useLang();
  const [state, setState] = useState({ updated: data.updated, total: data.totalRewardPoints, points: data.orderPoints });
  const [tries, setTries] = useState(data.pollCount);
  const waiting = data.paid && !state.updated && tries < REWARDS_POLL_TRIES;
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(async () => {
      try {
        const url = `/api/users/${encodeURIComponent(data.userIdentity)}/reward-points?externalId=${encodeURIComponent(data.externalId)}`;
        const r = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
        if (r.ok) {
          const body = (await r.json()) as { updated: boolean; totalRewardPoints: number; orderPoints: number };
          setState({ updated: body.updated, total: body.totalRewardPoints, points: body.orderPoints });
        }
      } finally {
        setTries((n) => n + 1);
      }
    }, REWARDS_POLL_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [waiting, tries, data.userIdentity, data.externalId]);
  return (
    <section className="card stack thank-you-rewards" aria-labelledby="rewards-heading" aria-live="polite">
      <h2 id="rewards-heading">{t("thankYou.heading")}</h2>
      {state.updated && state.points > 0 ? (
        <p data-order-points={state.points}>{t("thankYou.earned", { points: state.points, total: state.total })}</p>
      ) : waiting ? (
        <>
          <p role="status">
            <span className="spinner" aria-hidden="true" /> {t("thankYou.waiting")}
          </p>
          <noscript>
            <meta httpEquiv="refresh" content={`${REWARDS_POLL_SECONDS};url=?rewardsPoll=${data.pollCount + 1}`} />
          </noscript>
        </>
      ) : (
        <p>{t("thankYou.later")}</p>
      )}
      <p>
        <Link to={paths.rewards(lang)}>{t("thankYou.link")}</Link>
      </p>
    </section>
  );
}
