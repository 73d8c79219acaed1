import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { paths } from "#common/paths";

// /researcher/invoices/unpaid/{type} (spec 2 §2, §8): where a payment of invoices lands. `success` shows
// "payoff processing success", any other type "An error occurred processing your payment", on the unpaid list
// (303). The message travels in the address (?payment=…), as the portal's other one-time notices do.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const outcome = params.type === "success" ? "success" : "error";
  throw redirect(paths.invoices(scope.lang, "unpaid", { payment: outcome }), { status: 303 });
}

export default function InvoicesLanding() {
  return null;
}
