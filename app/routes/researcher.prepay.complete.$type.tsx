import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { paths } from "#common/paths";

// /researcher/prepay/complete/{type} (spec 2 §2 "Prepay"): where a prepayment lands. `success` shows the
// success message, any other type 'An error occurred processing your payment', on /researcher/prepay (303).
// The message travels in the address (?payment=…), as the invoices' landing does.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const outcome = params.type === "success" ? "success" : "error";
  throw redirect(paths.prepay(scope.lang, undefined, { payment: outcome }), { status: 303 });
}

export default function PrepayLanding() {
  return null;
}
