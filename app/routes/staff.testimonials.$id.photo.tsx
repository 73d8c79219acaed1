import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { errorStatus } from "#common/result";
import { testimonialPhoto } from "#server/testimonials";

// /{lang}/staff/testimonials/{id}/photo (issue 25 item 4): a testimonial's re-encoded photo, for staff only.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const r = await testimonialPhoto(scope, params.id ?? "");
  if (!r.ok) throw new Response("Not Found", { status: errorStatus(r.error) });
  return new Response(new Uint8Array(r.value.data), {
    headers: {
      "Content-Type": r.value.type,
      "Content-Length": String(r.value.data.length),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": "inline",
    },
  });
}
