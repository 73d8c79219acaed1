import { useEffect, useRef } from "react";
import { Link, useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { readFormData } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { groupIntent, type GroupActionData } from "#app/lib/preferred-group.server";
import { paths } from "#common/paths";
import { formatDate } from "#common/format";
import { groupOutcome } from "#common/groups/outcomes";
import { DIGITAL_POLL_SECONDS } from "#common/digital/constants";
import { homeOf } from "#server/home";
import { ReferralWidget } from "#app/components/dashboard/ReferralWidget";
import { PrepayCreditsWidget } from "#app/components/dashboard/PrepayCreditsWidget";
import { PreferredGroupWidgets } from "#app/components/home/PreferredGroupWidgets";
import { RefreshWhile } from "#app/components/digital/polling";
import { SpamBanner } from "#app/components/home/SpamBanner";

export const meta = titleMeta;
export const handle = { i18n: ["home", "dashboard", "credits", "orders", "digital"] };

// /{lang}/home (spec 3 §2 "Home area", issue 25 item 6): only with curie_is_launched, else 303 to /researcher.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  if (!(await context.app.config.flag("curie_is_launched"))) throw redirect(paths.researcher(scope.lang), 303);
  const home = await homeOf(scope);
  if (!home) throw new Response("Not Found", { status: 404 });
  const t = await getFixedT(request, "home");
  const snapshot = await context.app.config.snapshot();
  return Response.json(
    {
      title: t("title"),
      ...home,
      groupOutcome: groupOutcome(new URL(request.url).searchParams.get("group")),
      // The preprint promotion (spec 3 §6): when configured, in English and Chinese only.
      preprint: snapshot.config.showPreprintPromotion === true && (scope.lang === "en" || scope.lang === "cn"),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

// The preferred group forms (intent join / leave); anything else is a 400.
export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  if (!(await context.app.config.flag("curie_is_launched"))) throw redirect(paths.researcher(scope.lang), 303);
  const answer = await groupIntent(scope, await readFormData(request), (outcome) => paths.homeArea(scope.lang, { group: outcome }));
  return answer ?? Response.json({ groupError: "home:errors.bad-form", groupCode: "" } satisfies GroupActionData, { status: 400 });
}

type LoaderData = Awaited<ReturnType<typeof homeOf>> & {
  title: string;
  groupOutcome: ReturnType<typeof groupOutcome>;
  preprint: boolean;
};

/** With JavaScript, the page's data is read again every DIGITAL_POLL_SECONDS while a document processes. */
function useRevalidateWhile(active: boolean) {
  const revalidator = useRevalidator();
  const ref = useRef(revalidator);
  ref.current = revalidator;
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      if (ref.current.state === "idle") ref.current.revalidate();
    }, DIGITAL_POLL_SECONDS * 1000);
    return () => window.clearInterval(timer);
  }, [active]);
}

export default function Home() {
  const data = useLoaderData() as NonNullable<LoaderData>;
  const action = useActionData() as GroupActionData | undefined;
  const { t } = useTranslation("home");
  const lang = useLang();
  useRevalidateWhile(data.processing);
  return (
    <div className="stack home">
      <RefreshWhile active={data.processing} />
      <SpamBanner />
      <h1>{t("welcome", { name: data.fullName })}</h1>
      {data.preprint ? (
        <section className="card stack preprint-promo" aria-labelledby="home-preprint">
          <h2 id="home-preprint">{t("preprint.title")}</h2>
          <p>{t("preprint.body")}</p>
        </section>
      ) : null}
      <div className="dashboard-layout">
        <div className="stack">
          <section className="card stack" aria-labelledby="home-orders">
            <h2 id="home-orders">{t("orders.title")}</h2>
            {data.recentOrders.length ? (
              <ul className="home-list">
                {data.recentOrders.map((o) => (
                  <li key={o.externalId}>
                    <Link to={paths.orderDetails(lang, o.externalId)}>
                      <span className="home-list-id">{o.externalId}</span> {o.title}
                    </Link>
                    <span className={`badge order-status order-status-${o.displayStatus}`}>{t(`orders:status.${o.displayStatus}`)}</span>
                    <span className="field-hint">{formatDate(o.createdAt, lang)}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p>{t("orders.none")}</p>
            )}
            <p>
              <Link to={paths.researcher(lang)}>{t("orders.all")}</Link>
            </p>
          </section>
          <section className="card stack" aria-labelledby="home-documents" aria-busy={data.processing}>
            <h2 id="home-documents">{t("documents.title")}</h2>
            {data.documents.length ? (
              <ul className="home-list">
                {data.documents.map((d) => (
                  <li key={`${d.kind}-${d.identity}`}>
                    <Link to={d.kind === "edit" ? paths.digitalEditingDetails(lang, d.identity) : paths.digitalTranslations(lang)}>
                      {d.fileName}
                    </Link>
                    <span className="field-hint">{t(`documents.kind.${d.kind}`)}</span>
                    <span className={`badge digital-status digital-status-${d.status}`}>
                      {d.status === "processing" ? <span className="spinner" aria-hidden="true" /> : null}{" "}
                      {t(`documents.status.${d.status}`)}
                    </span>
                    <span className="field-hint">{formatDate(d.createdAt, lang)}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p>{t("documents.none")}</p>
            )}
            <p>
              <Link to={paths.rubriq(lang)}>{t("documents.all")}</Link>
            </p>
          </section>
        </div>
        <aside className="dashboard-widgets" aria-labelledby="home-more">
          <h2 id="home-more" className="home-more-title">
            {t("more.title")}
          </h2>
          {data.referralLink ? <ReferralWidget link={data.referralLink} /> : null}
          <PreferredGroupWidgets
            group={data.preferredGroup}
            outcome={data.groupOutcome}
            error={action?.groupError}
            typedCode={action?.groupCode}
          />
          {data.balance ? (
            <PrepayCreditsWidget amount={data.balance.amount} currency={data.balance.currency} prepayOpen={data.balance.prepayOpen} />
          ) : null}
        </aside>
      </div>
    </div>
  );
}
