import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { errorStatus } from "#common/result";
import { referralFlyerPdf } from "#server/referrals";

// /{lang}/referral-rewards/flyer.pdf (issue 25 item 3): the signed-in user's printable flyer, drawn in the PDF pool
// (QR code of the link, the link and the offer in the page's language). A resource route: no component.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const r = await referralFlyerPdf(scope);
  if (!r.ok)
    throw new Response(r.error, { status: errorStatus(r.error), headers: r.error === "service-unavailable" ? { "Retry-After": "5" } : {} });
  return new Response(new Uint8Array(r.value.pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(r.value.pdf.length),
      "Content-Disposition": `attachment; filename="${r.value.fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
