import { Form, Link, useLoaderData } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { wizardScope, stepAction } from "#app/lib/wizard.server";
import { useLang } from "#app/lib/use-lang";
import { currentDraftOf, resetDraftsOf } from "#server/order-form";
import { paths } from "#common/paths";

// /researcher/submit/reset: clears the order form (a POST; the GET asks for confirmation).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const w = await wizardScope(request, context);
  return { hasDraft: Boolean(await currentDraftOf(w.scope)) };
}

async function handleStep({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  await resetDraftsOf(w.scope);
  return redirect(paths.submit(w.lang, "new"), { status: 303 });
}

export default function Reset() {
  const { hasDraft } = useLoaderData<typeof loader>();
  const { t } = useTranslation("order");
  const lang = useLang();
  return (
    <section className="stack">
      <h1>{t("reset.title")}</h1>
      <p>{t(hasDraft ? "reset.body" : "reset.nothing")}</p>
      <Form method="post">
        <button type="submit" className="button button-primary">
          {t("reset.confirm")}
        </button>
      </Form>
      <p>
        <Link to={paths.submit(lang, "resume")}>{t("reset.cancel")}</Link>
      </p>
    </section>
  );
}

// A save racing the form's placing goes to the placed order, not a 500 (stepAction).
export const action = stepAction(handleStep);
