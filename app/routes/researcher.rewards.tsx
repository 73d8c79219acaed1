import { Link, useLoaderData } from "@remix-run/react";
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { formatDate } from "#common/format";
import { paths } from "#common/paths";
import { TIERS, tierOf, type LoyaltyLevel, type LoyaltyProgress } from "#common/rewards/levels";
import {
  loyaltyOf,
  rewardHistoryOf,
  rewardsTimeZone,
  type EducationalBenefitView,
  type PromoBenefit,
  type RewardHistoryPage,
} from "#server/rewards";
import { LevelBar, ProgressLine } from "#app/components/rewards/LevelBar";
import { PromoTable } from "#app/components/rewards/PromoTable";

export const meta = titleMeta;
export const handle = { i18n: ["rewards"] };

const pageOf = (v: string | null) => (v && /^\d{1,6}$/.test(v) ? Math.max(1, Number(v)) : 1);

// /researcher/rewards (spec 3 §2 "Rewards and promotions", issue 25 item 1): only with hasRewards, else /researcher.
// The description, the level bar and progress, tier boxes, current promotions, earn-rewards teasers, the history
// 10 a page (?page=).
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const loyalty = await loyaltyOf(scope);
  if (!loyalty.ok || !loyalty.value.hasRewards) throw redirect(paths.researcher(scope.lang), 303);
  const history = await rewardHistoryOf(scope, pageOf(new URL(request.url).searchParams.get("page")));
  if (!history.ok) throw redirect(paths.researcher(scope.lang), 303);
  const t = await getFixedT(request, "rewards");
  const l = loyalty.value;
  return Response.json(
    {
      title: t("title"),
      points: l.totalRewardPoints,
      level: l.loyaltyLevel,
      levels: l.loyaltyLevels,
      progress: l.progress,
      // Current promotions: the user's unused earned codes, then the highlighted campaign codes.
      promotions: [...l.earnedPromotionalCodeBenefits.filter((p) => !p.used), ...l.highlightedPromotions],
      educational: l.earnedEducationalBenefits,
      history: history.value,
      timeZone: await rewardsTimeZone(scope),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

type Data = {
  points: number;
  level: string;
  levels: LoyaltyLevel[];
  progress: LoyaltyProgress;
  promotions: PromoBenefit[];
  educational: EducationalBenefitView[];
  history: RewardHistoryPage;
  timeZone: string;
};

export default function Rewards() {
  const data = useLoaderData() as Data;
  const { t } = useTranslation("rewards");
  const lang = useLang();
  const tier = tierOf(data.levels, data.level);
  const { page, pages } = data.history.pagination;
  return (
    <div className="stack rewards-page">
      <h1>{t("title")}</h1>
      <p className="lead">{t("description")}</p>

      <section className="card stack rewards-summary" aria-labelledby="rewards-summary">
        <h2 id="rewards-summary">{t("summary.heading")}</h2>
        <dl className="rewards-facts">
          <div>
            <dt>{t("summary.points")}</dt>
            <dd data-reward-points>{data.points}</dd>
          </div>
          <div>
            <dt>{t("summary.level")}</dt>
            <dd data-level={data.level}>{t(`levels.${data.level}`)}</dd>
          </div>
          <div>
            <dt>{t("summary.tier")}</dt>
            <dd>{t(`tiers.${tier}`)}</dd>
          </div>
        </dl>
        <LevelBar levels={data.levels} current={data.level} />
        <ProgressLine progress={data.progress} />
      </section>

      <section className="stack" aria-labelledby="rewards-tiers">
        <h2 id="rewards-tiers">{t("tiers.heading")}</h2>
        <div className="tier-boxes">
          {TIERS.map((id) => {
            const of = data.levels.filter((l) => l.tier === id);
            return (
              <article key={id} className={`card tier-box tier-${id}${id === tier ? " tier-current" : ""}`}>
                <h3>
                  {t(`tiers.${id}`)} {id === tier ? <span className="badge">{t("tiers.current")}</span> : null}
                </h3>
                <p>{t(`tiers.${id}Text`)}</p>
                {of.length ? (
                  <p className="field-hint">
                    {t("tiers.levels", { levels: of.map((l) => t(`levels.${l.name}`)).join(", ") })}
                    <br />
                    {t("tiers.points", { points: of[0].minimumPointsNeeded })}
                  </p>
                ) : null}
              </article>
            );
          })}
        </div>
      </section>

      <section className="card stack" aria-labelledby="rewards-promotions">
        <h2 id="rewards-promotions">{t("promotions.heading")}</h2>
        {data.promotions.length ? (
          <>
            <PromoTable rows={data.promotions} showUsed={false} timeZone={data.timeZone} />
            <p className="field-hint">{t("promotions.useHint")}</p>
          </>
        ) : (
          <p>{t("promotions.none")}</p>
        )}
        <p>
          <Link to={paths.coupons(lang)}>{t("promotions.all")}</Link>
        </p>
      </section>

      {data.educational.length ? (
        <section className="card stack" aria-labelledby="rewards-educational">
          <h2 id="rewards-educational">{t("educational.heading")}</h2>
          <ul>
            {data.educational.map((e) => (
              <li key={`${e.level}:${e.key}`}>
                <Link to={`/${lang}/${e.path}`}>{t(`educational.${e.key}`)}</Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="stack" aria-labelledby="rewards-earn">
        <h2 id="rewards-earn">{t("earn.heading")}</h2>
        <div className="tier-boxes">
          <article className="card teaser">
            <h3>{t("earn.order")}</h3>
            <p>{t("earn.orderText")}</p>
            <Link to={paths.submit(lang, "new")}>{t("earn.orderLink")}</Link>
          </article>
          <article className="card teaser">
            <h3>{t("earn.refer")}</h3>
            <p>{t("earn.referText")}</p>
            <Link to={paths.referralRewards(lang)}>{t("earn.referLink")}</Link>
          </article>
          <article className="card teaser">
            <h3>{t("earn.testimonial")}</h3>
            <p>{t("earn.testimonialText")}</p>
            <Link to={paths.testimonialSubmit(lang)}>{t("earn.testimonialLink")}</Link>
          </article>
        </div>
      </section>

      <section className="card stack" aria-labelledby="rewards-history">
        <h2 id="rewards-history">{t("history.heading")}</h2>
        {data.history.rewardHistory.length ? (
          <div className="table-scroll" tabIndex={0} role="region" aria-label={t("history.heading")}>
            <table className="reward-history stacked-table">
              <thead>
                <tr>
                  <th scope="col">{t("history.date")}</th>
                  <th scope="col">{t("history.activity")}</th>
                  <th scope="col" className="num">
                    {t("history.points")}
                  </th>
                  <th scope="col" className="num">
                    {t("history.pointsToDate")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.history.rewardHistory.map((h, i) => (
                  <tr key={`${h.date}-${i}`}>
                    <td data-label={t("history.date")}>{formatDate(h.date, lang, data.timeZone)}</td>
                    <td data-label={t("history.activity")}>
                      {t(`history.names.${h.name}`, { defaultValue: h.name })}
                      {h.externalId ? (
                        <Link className="history-order" to={paths.orderDetails(lang, h.externalId)}>
                          {t("history.order", { externalId: h.externalId })}
                        </Link>
                      ) : null}
                    </td>
                    <td className="num" data-label={t("history.points")}>
                      {h.points > 0 ? `+${h.points}` : String(h.points)}
                    </td>
                    <td className="num" data-label={t("history.pointsToDate")}>
                      {h.pointsToDate}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{t("history.none")}</p>
        )}
        {pages > 1 ? (
          <nav className="pagination" aria-label={t("history.heading")}>
            {page > 1 ? (
              <Link rel="prev" to={paths.rewards(lang, { page: page - 1 })}>
                ← {t("history.previous")}
              </Link>
            ) : null}
            <span>{t("history.page", { page, pages })}</span>
            {page < pages ? (
              <Link rel="next" to={paths.rewards(lang, { page: page + 1 })}>
                {t("history.next")} →
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>
    </div>
  );
}
