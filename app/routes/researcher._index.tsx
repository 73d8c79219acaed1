import { Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { parseFields, readFormData } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { paths } from "#common/paths";
import { conformErrors } from "#common/result";
// The schema apart from the filter's fields: only the loader reads it, so it stays out of the browser's bundle.
import { orderSearchSchema, type OrderSearchInput } from "#common/orders/search";
import { ORDER_FILTER_FIELDS, hasFilter } from "#common/orders/filter";
import { dashboardOf, type Dashboard } from "#server/orders/dashboard";
import { setCountry } from "#server/accounts/account";
import { OrderPanel } from "#app/components/dashboard/OrderPanel";
import { UnpaidBanner } from "#app/components/dashboard/UnpaidBanner";
import { CountryDialog } from "#app/components/dashboard/CountryDialog";
import { ReferralWidget } from "#app/components/dashboard/ReferralWidget";
import { PrepayCreditsWidget } from "#app/components/dashboard/PrepayCreditsWidget";
import { dashboardBalance } from "#server/payments/balances";
import { panelFapiaos, type PanelFapiao } from "#server/fapiao";
import { OrderSearch, Pagination, type FilterValues } from "#app/components/dashboard/OrderSearch";
import { ToolsWidget, hasTools, type ResearcherTools } from "#app/components/digital/ToolsWidget";
import { digitalAccess } from "#server/digital";
import { grammarCheckAccess } from "#server/grammar-check";
// Issue 25 (helper H): the preferred group widgets.
import { preferredGroupOf } from "#server/groups";
import { groupIntent, type GroupActionData } from "#app/lib/preferred-group.server";
import { PreferredGroupWidgets } from "#app/components/home/PreferredGroupWidgets";
import { SpamBanner } from "#app/components/home/SpamBanner";
import { groupOutcome, type GroupOutcome } from "#common/groups/outcomes";
// (end of helper H's imports)
// Issue 25 (helper R): the rewards widget.
import { rewardsWidgetOf, type RewardsWidgetView } from "#server/rewards";
import { RewardsWidget } from "#app/components/rewards/RewardsWidget";
import { welcomeCodeOf } from "#server/referrals";
import { ReferralDashboardNotices } from "#app/components/referrals/DashboardNotices";

export const meta = titleMeta;
// countryPrompt "own": the page shows the country question as its modal, the layout's card stays away.
export const handle = {
  i18n: ["dashboard", "orders", "catalogue", "certificate", "credits", "fapiao", "digital", "home", "rewards", "referrals"],
  countryPrompt: "own",
};

type FieldErrors = Record<string, string[]>;

/** The filter as posted or in the URL ("_" parts of the path are empty), for parsing and for refilling the form. */
function filterValues(source: (name: string) => string | null | undefined): FilterValues {
  const v = (k: string) => {
    const s = source(k) ?? "";
    return s === "_" ? "" : s;
  };
  return { xid: v("xid"), orderTitle: v("orderTitle"), from: v("from"), to: v("to") };
}

function parseFilter(values: FilterValues, page = "1") {
  const fields = Object.fromEntries(Object.entries({ ...values, page }).filter(([, s]) => s !== ""));
  const submission = parseFields<OrderSearchInput>(fields, orderSearchSchema);
  return submission.status === "success"
    ? { ok: true as const, value: submission.value }
    : { ok: false as const, fieldErrors: conformErrors(firstErrors(submission.error)) };
}

function firstErrors(error: Record<string, string[] | null> | null | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(error ?? {}).flatMap(([k, v]) => (v?.length ? [[k, v[0]]] : [])));
}

// /researcher and /researcher/index/orders/{xid}/{orderTitle}/{from}/{to}/{page} (spec 2 §2): the orders, 30 a
// page. A search sent as a query (the filter form without JavaScript, or a link) goes to the path form (303).
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const t = await getFixedT(request, "dashboard");
  const query = new URL(request.url).searchParams;
  const fromPath = params.page !== undefined;
  const values = filterValues(fromPath ? (k) => params[k] : (k) => query.get(k));
  const parsed = parseFilter(values, fromPath ? params.page : "1");
  if (parsed.ok && !fromPath && ORDER_FILTER_FIELDS.some((k) => query.has(k))) {
    throw redirect(paths.researcherOrders(scope.lang, { ...parsed.value, page: 1 }), { status: 303 });
  }
  // A bad filter (a date that is not MM/dd/yyyy…) is the form with its errors and no list: a 400, never a 500.
  const search: OrderSearchInput = parsed.ok ? parsed.value : { page: 1 };
  // The widgets do not depend on the list: all asked at once, so the page waits for the slowest, not the sum (ADR 081).
  const [r, prepayWidget, tools, preferredGroup, rewardsWidget, welcomeCode] = await Promise.all([
    dashboardOf(scope, search),
    dashboardBalance(scope),
    researcherTools(scope),
    preferredGroupOf(scope),
    rewardsWidgetOf(scope),
    welcomeCodeOf(scope),
  ]);
  if (!r.ok) throw new Response("Bad Request", { status: 400 });
  const data = {
    title: t("title"),
    values,
    fieldErrors: parsed.ok ? null : parsed.fieldErrors,
    filtered: hasFilter(values),
    ...r.value,
    // No list under a filter that could not be read: the unfiltered orders would look like its answer.
    panels: parsed.ok ? r.value.panels : [],
    // The "Prepay and credits" widget (issue 13): null unless a balance shows.
    prepayWidget,
    // The panels' fapiao links (spec 2 §2 "Order panel"), by invoice number; staff acting for the researcher
    // also get each unpaid invoice's "Record a payment" link to the staff order page (ADR 067).
    panelFapiaos: Object.fromEntries(
      await panelFapiaos(
        scope,
        r.value.panels.flatMap((p) => (p.invoice ? [p.invoice.number] : [])),
      ),
    ),
    staffActing: scope.impersonatorId !== null,
    // The researcher's tools (issue 24): only those the researcher may open.
    tools,
    // Issue 25 (helper H): the preferred group or join-a-group widget, and the message after its form.
    preferredGroup,
    groupOutcome: groupOutcome(query.get("group")),
    // The rewards widget (issue 25, spec 2 §2 "Widget row"): null unless the researcher has rewards.
    rewardsWidget,
    // Issue 25 (helper F): the testimonial's notice after its 303, a referred colleague's welcome code.
    testimonialReceived: query.get("testimonial") === "received",
    welcomeCode,
  };
  return Response.json(data, { status: parsed.ok ? 200 : 400, headers: { "Cache-Control": "private, no-store" } });
}

async function researcherTools(scope: Awaited<ReturnType<typeof pageScope>>): Promise<ResearcherTools> {
  const [digital, grammar] = await Promise.all([digitalAccess(scope), grammarCheckAccess(scope)]);
  return { grammarCheck: grammar.allowed, digitalEditing: digital.editing, digitalTranslations: digital.translations };
}

// The filter form (posted), Clear, and the country modal's answer; each ends in a 303, or a 400 with the errors.
export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const form = await readFormData(request);
  const intent = form.get("intent");
  // Issue 25 (helper H): join or leave a preferred group (303 back with the message, or 400 with the error).
  const group = await groupIntent(scope, form, (outcome) => paths.researcherGroup(scope.lang, outcome));
  if (group) return group;
  if (intent === "country") {
    const r = await setCountry(scope, String(form.get("country") ?? ""));
    if (!r.ok) return Response.json({ countryError: "dashboard:errors.country-required" }, { status: 400 });
    const url = new URL(request.url);
    return redirect(url.pathname + url.search, { status: 303 });
  }
  if (intent === "clear") return redirect(paths.researcher(scope.lang), { status: 303 });
  const values = filterValues((k) => {
    const v = form.get(k);
    return typeof v === "string" ? v : null;
  });
  const parsed = parseFilter(values);
  if (!parsed.ok) return Response.json({ values, fieldErrors: parsed.fieldErrors }, { status: 400 });
  // A new search starts at page 1 (spec 2 §2).
  return redirect(paths.researcherOrders(scope.lang, { ...parsed.value, page: 1 }), { status: 303 });
}

type LoaderData = Omit<Dashboard, "orders"> & {
  title: string;
  values: FilterValues;
  fieldErrors: FieldErrors | null;
  filtered: boolean;
} & {
  prepayWidget: Awaited<ReturnType<typeof dashboardBalance>>;
  panelFapiaos: Record<string, PanelFapiao>;
  staffActing: boolean;
  tools: ResearcherTools;
  preferredGroup: Awaited<ReturnType<typeof preferredGroupOf>>;
  groupOutcome: GroupOutcome | null;
  rewardsWidget: RewardsWidgetView | null;
  testimonialReceived: boolean;
  welcomeCode: Awaited<ReturnType<typeof welcomeCodeOf>>;
};
type ActionData = { countryError?: string; values?: FilterValues; fieldErrors?: FieldErrors } & Partial<GroupActionData>;

export default function ResearcherDashboard() {
  const data = useLoaderData() as LoaderData;
  const action = useActionData() as ActionData | undefined;
  const chrome = useRouteLoaderData("routes/chrome") as { countries: { iso2: string; name: string }[] | null } | undefined;
  const navigation = useNavigation();
  const { t } = useTranslation("dashboard");
  const lang = useLang();
  const values = action?.values ?? data.values;
  const fieldErrors = action?.fieldErrors ?? data.fieldErrors;
  const { total } = data.pagination;
  // The form hides only when there is nothing to search: no orders and no filter (spec 2 §2).
  const showSearch = total > 0 || data.filtered || Boolean(fieldErrors);
  const loading = navigation.state === "loading" && navigation.location.pathname.startsWith(paths.researcher(lang));
  return (
    <div className="stack dashboard">
      {chrome?.countries ? <CountryDialog countries={chrome.countries} error={action?.countryError} /> : null}
      <SpamBanner />
      <ReferralDashboardNotices testimonialReceived={data.testimonialReceived} welcomeCode={data.welcomeCode} />
      <UnpaidBanner count={data.unpaid.count} invoices={data.unpaid.invoices} timeZone={data.timeZone} />
      {data.unfinishedOrderForm ? (
        <p className="alert alert-info unfinished-alert">
          {t("unfinished.text")} <Link to={paths.submit(lang, "resume")}>{t("unfinished.link")}</Link>
        </p>
      ) : null}
      <div className="dashboard-layout">
        <section className="stack dashboard-orders" aria-labelledby="dashboard-heading" aria-busy={loading}>
          <div className="dashboard-heading">
            <h1 id="dashboard-heading">{t("heading")}</h1>
            {total > 0 ? (
              <Link className="button button-primary button-small" to={paths.submit(lang, "new")}>
                {t("newOrder")}
              </Link>
            ) : null}
          </div>
          {/* Keyed by the filter: after a client-side navigation the fields show the new filter, not the typed text. */}
          {showSearch ? <OrderSearch key={JSON.stringify(values)} values={values} fieldErrors={fieldErrors} /> : null}
          {loading ? (
            <p className="alert alert-info" role="status">
              <span className="spinner" aria-hidden="true" /> {t("loading")}
            </p>
          ) : null}
          {data.panels.length ? (
            <ol className="order-list">
              {data.panels.map((o) => (
                <OrderPanel
                  key={o.externalId}
                  order={o}
                  timeZone={data.timeZone}
                  fapiao={o.invoice ? (data.panelFapiaos[o.invoice.number] ?? null) : null}
                  staffActing={data.staffActing}
                />
              ))}
            </ol>
          ) : fieldErrors ? null : data.filtered || total > 0 ? (
            <p className="card">{t("noMatch")}</p>
          ) : (
            <div className="card dashboard-empty">
              <p>{t("empty")}</p>
              <p>
                <Link className="button button-primary" to={paths.submit(lang, "new")}>
                  {t("emptyLink")}
                </Link>
              </p>
            </div>
          )}
          {fieldErrors ? null : <Pagination filter={data.values} pagination={data.pagination} />}
        </section>
        {data.referralLink || data.prepayWidget || hasTools(data.tools) || showsGroupWidget(data.preferredGroup) || data.rewardsWidget ? (
          <aside className="dashboard-widgets" aria-label={t("referral.title")}>
            <ToolsWidget tools={data.tools} />
            {data.rewardsWidget ? <RewardsWidget data={data.rewardsWidget} /> : null}
            {data.referralLink ? <ReferralWidget link={data.referralLink} /> : null}
            {data.prepayWidget ? (
              <PrepayCreditsWidget
                amount={data.prepayWidget.amount}
                currency={data.prepayWidget.currency}
                prepayOpen={data.prepayWidget.prepayOpen}
              />
            ) : null}
            {/* Issue 25 (helper H): the preferred group widget, or the join-a-group widget. */}
            <PreferredGroupWidgets
              group={data.preferredGroup}
              outcome={data.groupOutcome}
              error={action?.groupError}
              typedCode={action?.groupCode}
            />
          </aside>
        ) : null}
      </div>
    </div>
  );
}

/** The membership widget shows unless the group hides it (free trial); without a group, the join widget shows. */
function showsGroupWidget(group: LoaderData["preferredGroup"]): boolean {
  return !group || group.membershipDisplayed;
}
