import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { parseFields } from "#app/lib/forms.server";
import { duplicateChoiceForm, type DuplicateChoice } from "#common/order-form/schemas";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { titleMeta } from "#app/lib/meta";
import { readStepForm, requireDraft, toCurrentStep, wizardScope, stepAction } from "#app/lib/wizard.server";
import { getFixedT } from "#app/i18n.server";
import { findDuplicate, saveDuplicateChoice } from "#server/order-form";
import { paths } from "#common/paths";

export const meta = titleMeta;
export const handle = { i18n: ["order"] };

// The duplicate warning (spec 1 §4 "Duplicate screen").
export async function loader({ request, context }: LoaderFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  const duplicate = await findDuplicate(w.scope, form);
  if (!duplicate || form.duplicate_choice) throw redirect(paths.submit(w.lang, "resume"));
  const t = await getFixedT(request, "order");
  return { title: t("duplicate.title"), duplicate };
}

async function handleStep({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  const { fields } = await readStepForm(w, request, form, context.ip);
  const submission = parseFields<{ choice: DuplicateChoice }>(fields, duplicateChoiceForm);
  if (submission.status !== "success") return Response.json({ error: "order:errors.make-selection" }, { status: 400 });
  const r = await saveDuplicateChoice(w.scope, form, submission.value.choice);
  if (!r.ok) return Response.json({ error: "order:errors.make-selection" }, { status: 400 });
  if (submission.value.choice === "question") {
    const dup = await findDuplicate(w.scope, form);
    return redirect(paths.supportSubmission(w.lang, dup?.externalId ?? ""), { status: 303 });
  }
  return toCurrentStep(w, r.value);
}

export default function DuplicateOrder() {
  const { duplicate } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("order");
  return (
    <section className="stack">
      <h1>{t("duplicate.title")}</h1>
      <p>{t("duplicate.body", { externalId: duplicate.externalId, title: duplicate.title, hours: duplicate.hoursAgo })}</p>
      <Form method="post" className="stack">
        <label className="checkbox">
          <input type="radio" name="choice" value="new-order" />
          <span>{t("duplicate.newOrder")}</span>
        </label>
        <label className="checkbox">
          <input type="radio" name="choice" value="question" />
          <span>{t("duplicate.question")}</span>
        </label>
        {actionData?.error ? (
          <p className="field-error" role="alert">
            {t(actionData.error)}
          </p>
        ) : null}
        <button type="submit" className="button button-primary">
          {t("next")}
        </button>
      </Form>
    </section>
  );
}

// A save racing the form's placing goes to the placed order, not a 500 (stepAction).
export const action = stepAction(handleStep);
