import { Form, Link, useLoaderData } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { wizardScope, stepAction } from "#app/lib/wizard.server";
import { readFormData } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { cookies } from "#server/http/cookies";
import { currentStep, hasProgress, openDraft, reworkableOrder, startRework } from "#server/order-form";
import { paths } from "#common/paths";

export const meta = titleMeta;
export const handle = { i18n: ["order"] };

// /researcher/submit/new and /resume: go to the order's current step, creating the order form when
// there is none. Continuing a previous submission shows a warning with a link to start over.
// Creating a draft on GET is the one write here: an empty form, invisible until used, like a cart.
// Links that would change a draft (?promo= applies a code, ?rework= opens the re-edit of an order) only
// show a confirmation whose button posts (issue 10 §10): any site can link here, and a GET changes nothing.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const w = await wizardScope(request, context, { createDraftKey: true });
  const params = new URL(request.url).searchParams;
  const t = await getFixedT(request, "order");
  // ?rework=<externalId>: the re-edit of one of the user's orders (spec 2 re-edit page → rework-get-started).
  const reworkRef = params.get("rework");
  if (reworkRef) {
    const back = paths.submit(w.lang, "new", { rework: reworkRef });
    if (!w.scope.userId) throw redirect(paths.login(w.lang, { redirect: back }));
    // Spec 2: an order that is not found on re-edit sends the visitor home.
    const order = await reworkableOrder(w.scope, reworkRef);
    if (!order) throw redirect(paths.home(w.lang));
    const title = t("newConfirm.reworkTitle", { externalId: order.externalId });
    return Response.json(
      { title, confirm: "rework" as const, externalId: order.externalId, orderTitle: order.title, code: null, next: null },
      { headers: { "Cache-Control": "no-store" } },
    );
  }
  const { form, created } = await openDraft(w.scope);
  const continuing = !created && hasProgress(form);
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (w.newDraftKey) headers.append("Set-Cookie", cookies.draft.serialize(w.newDraftKey, w.scope.secure));
  // Marketing links: ?rs= a revenue-share partner code (remembered for the greeting), ?promo= a promo code to apply.
  const rs = params.get("rs");
  if (rs && /^[a-z0-9-]{2,40}$/i.test(rs)) headers.append("Set-Cookie", cookies.revenueShare.serialize(rs.toLowerCase(), w.scope.secure));
  const next = paths.submit(w.lang, await currentStep(w.scope, form), { continue: continuing ? 1 : undefined });
  const promo = params.get("promo")?.trim().slice(0, 40);
  if (promo && !form.promo_code) {
    const title = t("newConfirm.promoTitle", { code: promo });
    return Response.json({ title, confirm: "promo" as const, code: promo, next, externalId: null, orderTitle: null }, { headers });
  }
  return redirect(next, { headers });
}

/** The confirmed re-edit: opens (or resumes) the rework form of the order. */
async function handleStep({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const ref = (await readFormData(request)).get("rework");
  if (typeof ref !== "string" || !ref) return redirect(paths.submit(w.lang, "new"), { status: 303 });
  if (!w.scope.userId) return redirect(paths.login(w.lang, { redirect: paths.submit(w.lang, "new", { rework: ref }) }), { status: 303 });
  const rework = await startRework(w.scope, ref);
  if (!rework) return redirect(paths.home(w.lang), { status: 303 });
  return redirect(paths.submit(w.lang, await currentStep(w.scope, rework)), { status: 303 });
}

interface Confirmation {
  title: string;
  confirm: "promo" | "rework";
  code: string | null;
  next: string | null;
  externalId: string | null;
  orderTitle: string | null;
}

export default function ConfirmLink() {
  const data = useLoaderData<typeof loader>() as Confirmation;
  const { t } = useTranslation("order");
  const lang = useLang();
  if (data.confirm === "rework") {
    return (
      <section className="stack">
        <h1>{data.title}</h1>
        <p>{t("newConfirm.reworkBody", { externalId: data.externalId, title: data.orderTitle })}</p>
        <Form method="post" className="wizard-actions">
          <input type="hidden" name="rework" value={data.externalId ?? ""} />
          <Link to={paths.orderDetails(lang, data.externalId ?? "")}>{t("newConfirm.backToOrder")}</Link>
          <button type="submit" className="button button-primary">
            {t("newConfirm.startRework")}
          </button>
        </Form>
      </section>
    );
  }
  return (
    <section className="stack">
      <h1>{data.title}</h1>
      <p>{t("newConfirm.promoBody", { code: data.code })}</p>
      {/* The order panel's own promo form: it applies the code and says how that went on the next step. */}
      <Form method="post" action={paths.submit(lang, "promo")} className="wizard-actions">
        <input type="hidden" name="intent" value="apply" />
        <input type="hidden" name="code" value={data.code ?? ""} />
        <input type="hidden" name="redirect" value={data.next ?? ""} />
        <Link to={data.next ?? paths.submit(lang, "resume")}>{t("newConfirm.skipPromo")}</Link>
        <button type="submit" className="button button-primary">
          {t("newConfirm.applyPromo")}
        </button>
      </Form>
    </section>
  );
}

// A save racing the form's placing goes to the placed order, not a 500 (stepAction).
export const action = stepAction(handleStep);
