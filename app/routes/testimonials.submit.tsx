import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { multipartBody } from "#server/http/multipart";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { TESTIMONIAL_TEXT_MAX } from "#common/testimonials/constants";
import { submitTestimonial } from "#server/testimonials";

export const meta = titleMeta;
export const handle = { i18n: ["referrals"] };

// /{lang}/testimonials/submit 'Submit a testimonial' (spec 3 §2 "Testimonials", issue 25 item 4): sign-in required.
// The text (required) and one optional photo, posted as multipart with or without JavaScript; success is a 303 to
// /researcher with its notice, a refusal the form again with the message (and the text kept).
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const t = await getFixedT(request, "referrals");
  return { title: t("testimonial.title") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const r = await submitTestimonial(scope, multipartBody(request));
  if (r.ok) throw redirect(paths.testimonialReceived(scope.lang), { status: 303 });
  const text = typeof r.details?.text === "string" ? r.details.text : "";
  const known = Object.keys(r.fieldErrors).length > 0;
  return Response.json(
    {
      fieldErrors: r.fieldErrors,
      error: known ? null : r.error === "too-many-requests" ? "referrals:errors.too-many-requests" : "referrals:errors.generic",
      text,
    },
    { status: errorStatus(r.error) },
  );
}

export default function SubmitTestimonial() {
  const reply = useActionData<{ fieldErrors: Record<string, string>; error: string | null; text: string }>();
  const { t } = useTranslation("referrals");
  const busy = useNavigation().state === "submitting";
  const fe = reply?.fieldErrors ?? {};
  return (
    <div className="testimonial-page">
      <section className="card stack">
        <h1>{t("testimonial.title")}</h1>
        <p>{t("testimonial.intro")}</p>
        {reply?.error ? (
          <p className="alert alert-danger" role="alert">
            {t(reply.error)}
          </p>
        ) : null}
        <Form method="post" encType="multipart/form-data" className="stack" noValidate>
          <div className={`field${fe.testimonial ? " field-invalid" : ""}`}>
            <label htmlFor="testimonial-text">{t("testimonial.text")}</label>
            <textarea
              id="testimonial-text"
              name="testimonial"
              rows={8}
              maxLength={TESTIMONIAL_TEXT_MAX}
              defaultValue={reply?.text ?? ""}
              aria-invalid={fe.testimonial ? true : undefined}
              aria-describedby={fe.testimonial ? "testimonial-text-error" : undefined}
              required
            />
            {fe.testimonial ? (
              <p className="field-error" id="testimonial-text-error" role="alert">
                {t(fe.testimonial)}
              </p>
            ) : null}
          </div>
          <div className={`field${fe.testimonialFiles ? " field-invalid" : ""}`}>
            <label htmlFor="testimonial-photo">{t("testimonial.photo")}</label>
            <input
              id="testimonial-photo"
              type="file"
              name="testimonialFiles"
              accept="image/jpeg,image/png,image/webp"
              aria-invalid={fe.testimonialFiles ? true : undefined}
              aria-describedby="testimonial-photo-hint"
            />
            <p className="field-hint" id="testimonial-photo-hint">
              {t("testimonial.photoHint")}
            </p>
            {fe.testimonialFiles ? (
              <p className="field-error" role="alert">
                {t(fe.testimonialFiles)}
              </p>
            ) : null}
          </div>
          <div>
            <button type="submit" className="button button-primary" disabled={busy}>
              {busy ? t("testimonial.submitting") : t("testimonial.submit")}
            </button>
          </div>
        </Form>
      </section>
    </div>
  );
}
