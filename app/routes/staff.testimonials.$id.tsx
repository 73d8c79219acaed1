import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
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
import { staffTestimonial, type StaffTestimonial } from "#server/testimonials";
import { review } from "#app/components/referrals/review.server";

export const handle = { i18n: ["referrals"] };
export const meta = titleMeta;

// /{lang}/staff/testimonials/{id} (issue 25 item 4): one testimonial's whole text and photo (from the staff-only
// image route), with approve and reject (audited). POST → 303 → GET.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const r = await staffTestimonial(scope, params.id ?? "");
  if (!r.ok) throw new Response("Not Found", { status: errorStatus(r.error) });
  const t = await getFixedT(request, "referrals");
  return { title: t("staff.one"), testimonial: r.value, reviewed: new URL(request.url).searchParams.get("reviewed") };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  return review(request, context, (lang, status) => `${paths.staffTestimonials(lang, params.id ?? "")}?reviewed=${status}`);
}

export default function StaffTestimonialPage() {
  const data = useLoaderData<typeof loader>();
  const x = data.testimonial as StaffTestimonial;
  const reply = useActionData<{ error?: string }>();
  const { t } = useTranslation("referrals");
  const lang = useLang();
  return (
    <div className="stack testimonial-one">
      <p>
        <Link to={paths.staffTestimonials(lang)}>← {t("staff.back")}</Link>
      </p>
      <h1>{t("staff.one")}</h1>
      <ActionAlerts done={[data.reviewed && t(`staff.done.${data.reviewed}`)]} error={reply?.error && t(reply.error)} />
      <section className="card stack">
        <p className="testimonial-meta">
          <span className={`badge testimonial-status-${x.status}`}>{t(`testimonialStatus.${x.status}`)}</span>{" "}
          <Link to={paths.staffResearcher(lang, x.researcher.identity)}>{x.researcher.name}</Link> · {x.researcher.email} ·{" "}
          {formatDateTime(x.createdAt, lang)}
        </p>
        <p className="testimonial-text">{x.text}</p>
        {x.hasPhoto ? (
          <img
            className="testimonial-photo"
            src={paths.staffTestimonialPhoto(lang, x.id)}
            alt={t("staff.photoAlt", { name: x.researcher.name })}
          />
        ) : (
          <p className="field-hint">{t("staff.noPhoto")}</p>
        )}
        {x.reviewedAt ? (
          <p className="field-hint">{t("staff.reviewed", { by: x.reviewedBy ?? "—", at: formatDateTime(x.reviewedAt, lang) })}</p>
        ) : null}
        <ReviewButtons id={x.id} status={x.status} />
      </section>
    </div>
  );
}
