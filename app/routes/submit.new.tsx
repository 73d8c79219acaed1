import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { wizardScope } from "#app/lib/wizard.server";
import { cookies } from "#server/http/cookies";
import { applyPromoCode, currentStep, hasProgress, openDraft, startRework } from "#server/order-form";
import { paths } from "#common/paths";

// /researcher/submit/new and /resume: go to the order's current step, creating the order form when
// there is none. Continuing a previous submission shows a warning with a link to start over.
// Creating a draft on GET is the one write here: an empty form, invisible until used, like a cart.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const w = await wizardScope(request, context, { createDraftKey: true });
  // ?rework=<externalId>: the re-edit of one of the user's orders (spec 2 re-edit page → rework-get-started).
  const reworkRef = new URL(request.url).searchParams.get("rework");
  if (reworkRef) {
    const back = paths.submit(w.lang, "new", { rework: reworkRef });
    if (!w.scope.userId) throw redirect(paths.login(w.lang, { redirect: back }));
    const rework = await startRework(w.scope, reworkRef);
    // Spec 2: an order that is not found on re-edit sends the visitor home.
    if (!rework) throw redirect(paths.home(w.lang));
    return redirect(paths.submit(w.lang, await currentStep(w.scope, rework)), { headers: { "Cache-Control": "no-store" } });
  }
  const { form, created } = await openDraft(w.scope);
  const continuing = !created && hasProgress(form);
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (w.newDraftKey) headers.append("Set-Cookie", cookies.draft.serialize(w.newDraftKey, w.scope.secure));
  // Marketing links: ?rs= a revenue-share partner code (remembered for the greeting), ?promo= a promo code to apply.
  const params = new URL(request.url).searchParams;
  const rs = params.get("rs");
  if (rs && /^[a-z0-9-]{2,40}$/i.test(rs)) headers.append("Set-Cookie", cookies.revenueShare.serialize(rs.toLowerCase(), w.scope.secure));
  const promo = params.get("promo");
  if (promo && !form.promo_code) await applyPromoCode(w.scope, form, promo).catch(() => null);
  const step = await currentStep(w.scope, form);
  return redirect(paths.submit(w.lang, step, { continue: continuing ? 1 : undefined }), { headers });
}
