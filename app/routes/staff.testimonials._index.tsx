import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { ActionAlerts } from "#app/components/staff/ActionAlerts";
import { ReviewButtons } from "#app/components/referrals/ReviewButtons";
import { formatDateTime } from "#common/format";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { TESTIMONIAL_STATUSES } from "#common/testimonials/constants";
import { listTestimonials, type StaffTestimonial } from "#server/testimonials";
import { review } from "#app/components/referrals/review.server";

export const handle = { i18n: ["referrals"] };
export const meta = titleMeta;

// /{lang}/staff/testimonials (issue 25 item 4): testimonials to review, those submitted first (?status= filters);
// approve or reject each (audited). POST → 303 → GET.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const params = new URL(request.url).searchParams;
  const status = TESTIMONIAL_STATUSES.find((s) => s === params.get("status"));
  const r = await listTestimonials(scope, status);
  if (!r.ok) throw new Response("Forbidden", { status: errorStatus(r.error) });
  const t = await getFixedT(request, "referrals");
  return { title: t("staff.title"), testimonials: r.value, status: status ?? null, reviewed: params.get("reviewed") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return review(request, context, (lang, status) => `${paths.staffTestimonials(lang)}?reviewed=${status}`);
}

export default function StaffTestimonials() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<{ error?: string }>();
  const { t } = useTranslation("referrals");
  const lang = useLang();
  return (
    <div className="stack">
      <h1>{t("staff.title")}</h1>
      <ActionAlerts done={[data.reviewed && t(`staff.done.${data.reviewed}`)]} error={reply?.error && t(reply.error)} />
      <nav className="testimonial-filter" aria-label={t("staff.filter")}>
        <Link to={paths.staffTestimonials(lang)} aria-current={data.status === null ? "page" : undefined}>
          {t("staff.all")}
        </Link>
        {TESTIMONIAL_STATUSES.map((s) => (
          <Link key={s} to={`${paths.staffTestimonials(lang)}?status=${s}`} aria-current={data.status === s ? "page" : undefined}>
            {t(`testimonialStatus.${s}`)}
          </Link>
        ))}
      </nav>
      {data.testimonials.length ? (
        <ul className="testimonial-list">
          {(data.testimonials as StaffTestimonial[]).map((x) => (
            <li key={x.id} className="card stack">
              <p className="testimonial-meta">
                <span className={`badge testimonial-status-${x.status}`}>{t(`testimonialStatus.${x.status}`)}</span>{" "}
                <strong>{x.researcher.name}</strong> · {x.researcher.email} · {formatDateTime(x.createdAt, lang)}
                {x.hasPhoto ? ` · ${t("staff.hasPhoto")}` : ""}
              </p>
              <p className="testimonial-text">{x.text.length > 400 ? `${x.text.slice(0, 400)}…` : x.text}</p>
              <div className="testimonial-actions">
                <Link to={paths.staffTestimonials(lang, x.id)}>{t("staff.view")}</Link>
                <ReviewButtons id={x.id} status={x.status} />
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("staff.none")}</p>
      )}
    </div>
  );
}
