// The staff review forms' action (issue 25 item 4), shared by the list and the single testimonial page: approve or
// reject by intent, then a 303 to where `back` says (with the new status for the notice).
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { dispatchIntent, onIntent, readFormData } from "#app/lib/forms.server";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { testimonialReviewSchema } from "#common/testimonials/schemas";
import { reviewTestimonial } from "#server/testimonials";

export async function review(
  request: Request,
  context: ActionFunctionArgs["context"],
  back: (lang: Parameters<typeof paths.staffTestimonials>[0], status: string) => string,
) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  return dispatchIntent(
    await readFormData(request),
    {
      approve: onIntent(testimonialReviewSchema, async (input) => {
        const r = await reviewTestimonial(scope, input.id, "approve");
        if (!r.ok) return Response.json({ error: "referrals:staff.errors.not-found" }, { status: errorStatus(r.error) });
        return redirect(back(scope.lang, r.value.status), 303);
      }),
      reject: onIntent(testimonialReviewSchema, async (input) => {
        const r = await reviewTestimonial(scope, input.id, "reject");
        if (!r.ok) return Response.json({ error: "referrals:staff.errors.not-found" }, { status: errorStatus(r.error) });
        return redirect(back(scope.lang, r.value.status), 303);
      }),
    },
    () => Response.json({ error: "referrals:staff.errors.bad-form" }, { status: 400 }),
  );
}
