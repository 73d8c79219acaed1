import { Link, useLoaderData } from "@remix-run/react";
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { paths } from "#common/paths";
import { loyaltyOf, rewardsTimeZone, type PromoBenefit } from "#server/rewards";
import { PromoTable } from "#app/components/rewards/PromoTable";

export const meta = titleMeta;
export const handle = { i18n: ["rewards"] };

// /researcher/coupons 'Current Promotions' (spec 3 §2, issue 25 item 2): the user's promo codes; used ones are hidden
// unless ?showUsed=1 (a plain link, so it works without JavaScript).
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const loyalty = await loyaltyOf(scope);
  if (!loyalty.ok) throw redirect(paths.researcher(scope.lang), 303);
  const showUsed = new URL(request.url).searchParams.get("showUsed") === "1";
  const t = await getFixedT(request, "rewards");
  const codes = loyalty.value.earnedPromotionalCodeBenefits;
  return Response.json(
    {
      title: t("coupons.title"),
      showUsed,
      codes: showUsed ? codes : codes.filter((c) => !c.used),
      usedCount: codes.filter((c) => c.used).length,
      total: codes.length,
      hasRewards: loyalty.value.hasRewards,
      timeZone: await rewardsTimeZone(scope),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function Coupons() {
  const data = useLoaderData() as {
    showUsed: boolean;
    codes: PromoBenefit[];
    usedCount: number;
    total: number;
    hasRewards: boolean;
    timeZone: string;
  };
  const { t } = useTranslation("rewards");
  const lang = useLang();
  return (
    <div className="stack coupons-page">
      <h1>{t("coupons.title")}</h1>
      <p>{t("coupons.intro")}</p>
      {data.usedCount > 0 ? (
        <p>
          <Link
            to={data.showUsed ? paths.coupons(lang) : paths.coupons(lang, { showUsed: 1 })}
            className="button button-small"
            preventScrollReset
          >
            {data.showUsed ? t("coupons.hideUsed") : t("coupons.showUsed")}
          </Link>
        </p>
      ) : null}
      <section className="card stack" aria-label={t("coupons.title")}>
        {data.codes.length ? (
          <PromoTable rows={data.codes} showUsed={data.showUsed} timeZone={data.timeZone} />
        ) : (
          <p>{data.total ? t("coupons.noneUnused") : t("coupons.none")}</p>
        )}
      </section>
      {data.hasRewards ? (
        <p>
          <Link to={paths.rewards(lang)}>{t("coupons.rewardsLink")}</Link>
        </p>
      ) : null}
    </div>
  );
}
