import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useRef, useState } from "react";
import { useTranslation } from "#app/lib/translate";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { FileList, UploadButton } from "#app/components/WizardFiles";
import { StepActions, useStepErrors } from "#app/components/WizardStep";
import { JournalSearch } from "#app/components/AreaSearch";
import { AreaCascade } from "#app/components/AreaCascade";
import { loadStep, parseStep, readStepForm, requireDraft, toCurrentStep, wizardScope, stepAction } from "#app/lib/wizard.server";
import { detailsForm, fileActionForm } from "#common/order-form/schemas";
import { conformErrors } from "#common/result";
import {
  areasOfStudy,
  fileOwner,
  formFiles,
  ownerOf,
  saveDetails,
  scientificEditingChosen,
  stepBefore,
  stepContext,
} from "#server/order-form";
import { JOURNAL_NAME_MAX, PROJECT_TITLE_MAX } from "#common/order-form/constants";
import { deleteFile } from "#server/documents/storage";
import { paths } from "#common/paths";

export const meta = titleMeta;
export const handle = { i18n: ["order", "catalogue"] };

const UPLOAD_FIELDS = [
  ["mainFiles", "main"],
  ["figureFiles", "figure"],
  ["tableFiles", "table"],
  ["mainReferenceFiles", "main_reference"],
  // Spec 1 §3 "Details form fields": figure and table reference files go through the same upload pipeline.
  ["figureReferenceFiles", "figure_reference"],
  ["tableReferenceFiles", "table_reference"],
] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { w, form, t, catalogue } = await loadStep(request, context, "details");
  const [tree, files, sctx] = await Promise.all([areasOfStudy(w.scope), formFiles(w.scope, form), stepContext(w.scope, form)]);
  const editing = (form.selections ?? []).some((s) => catalogue.services.find((c) => c.slug === s.serviceSlug)?.type === "editing");
  const steps = ["get-started", form.customer_goal === "multimedia" ? "multimedia-services" : "manuscript-services", "additional-services"];
  if (sctx.bundlesEnabled && form.bundle_interest) steps.push("service-bundles");
  return {
    title: t("steps.details"),
    previous: steps[steps.length - 1],
    // Three levels of areas of study for the cascading selects beside the search (spec 1 §6).
    areaTree: tree,
    editing,
    // Spec 1 §4: no journal details for scientific editing.
    journalShown: !scientificEditingChosen(form),
    // The duplicate check on leaving the title looks at the signed-in user's orders (GET /api/order/duplicate).
    signedIn: w.scope.userId !== null,
    noServices: !(form.selections ?? []).length,
    values: {
      projectTitle: form.project_title ?? "",
      areaOfStudyId: form.area_of_study_id ?? "",
      styleOfEnglish: form.style_of_english ?? "",
      journalName: form.journal?.name ?? "",
      journalUrl: form.journal?.url ?? "",
    },
    files: files.map((f) => ({ id: f.id, name: f.originalName, kind: f.kind })),
  };
}

async function handleStep({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  const { fields, uploadErrors } = await readStepForm(w, request, form, context.ip);
  // The posted values fill the form again when it is shown with errors.
  const values = Object.fromEntries(fields);
  const files = parseStep(fields, fileActionForm);
  if (files.removeFile) {
    await deleteFile(context.app, files.removeFile, fileOwner(ownerOf(w.scope)));
    return Response.json({ fieldErrors: {}, uploadErrors: [], values });
  }
  // The cascading area selects without JavaScript: "Choose" comes back with the next level, nothing saved yet.
  if (files.intent === "area" && !uploadErrors.length) return Response.json({ fieldErrors: {}, uploadErrors: [], values });
  if (uploadErrors.length || files.intent === "upload")
    return Response.json({ fieldErrors: {}, uploadErrors, values }, { status: uploadErrors.length ? 400 : 200 });
  // Back saves what is filled in (nothing is required on the way back), then goes to the step before (spec 1 §4).
  if (files.intent === "back") {
    await saveDetails(w.scope, form, parseStep(fields, detailsForm), { moveOn: false });
    return redirect(paths.submit(w.lang, await stepBefore(w.scope, form, "details")), { status: 303 });
  }
  const r = await saveDetails(w.scope, form, parseStep(fields, detailsForm));
  if (!r.ok) return Response.json({ fieldErrors: conformErrors(r.fieldErrors), uploadErrors: [], values }, { status: 400 });
  return toCurrentStep(w, r.value);
}

export default function Details() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation("order");
  const lang = useLang();
  const { errors, err, invalid, summary } = useStepErrors(actionData?.fieldErrors);
  const duplicateCheck = useDuplicateCheck(data.signedIn);
  const v = {
    ...data.values,
    ...((actionData?.values ?? {}) as Partial<typeof data.values> & { areaGrandparentId?: string; areaParentId?: string }),
  };
  if (data.noServices) {
    return (
      <section className="alert alert-danger" role="alert">
        <p>{t("errors.no-services")}</p>
        <Link to={paths.submit(lang, "manuscript-services")}>{t("goBack")}</Link>
      </section>
    );
  }
  return (
    <section className="stack">
      <h1>{t("steps.details")}</h1>
      <Form method="post" encType="multipart/form-data" className="stack" replace>
        <button type="submit" name="intent" value="next" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
        {summary(
          {
            projectTitle: t("details.projectTitle"),
            areaOfStudyId: t("details.areaOfStudy"),
            styleOfEnglish: t("details.styleOfEnglish"),
            journalName: t("details.journalName"),
            journalUrl: t("details.journalUrl"),
            mainFiles: t("details.files"),
          },
          { styleOfEnglish: "styleOfEnglish-american", mainFiles: "files" },
        )}
        <div className={`field${errors.projectTitle ? " field-invalid" : ""}`}>
          <label htmlFor="projectTitle">{t("details.projectTitle")}</label>
          <input
            id="projectTitle"
            name="projectTitle"
            maxLength={PROJECT_TITLE_MAX}
            defaultValue={v.projectTitle}
            required
            onBlur={(e) => duplicateCheck.check(e.currentTarget.value)}
            {...invalid("projectTitle")}
          />
          {err("projectTitle")}
          <DuplicateNotice state={duplicateCheck.state} />
        </div>
        <AreaCascade
          tree={data.areaTree}
          values={v}
          error={err("areaOfStudyId")}
          invalid={invalid("areaOfStudyId") as Record<string, unknown>}
        />
        {data.editing ? (
          <fieldset className={errors.styleOfEnglish ? "field-invalid" : ""}>
            <legend>{t("details.styleOfEnglish")}</legend>
            {["american", "british"].map((s) => (
              <label key={s} className="checkbox">
                <input
                  type="radio"
                  id={`styleOfEnglish-${s}`}
                  name="styleOfEnglish"
                  value={s}
                  defaultChecked={v.styleOfEnglish === s}
                  {...invalid("styleOfEnglish")}
                />
                <span>{t(`details.style.${s}`)}</span>
              </label>
            ))}
            {err("styleOfEnglish")}
          </fieldset>
        ) : null}
        {data.journalShown ? <JournalSearch nameId="journalName" urlId="journalUrl" /> : null}
        {data.journalShown ? (
          <div className="field-row">
            <div className={`field${errors.journalName ? " field-invalid" : ""}`}>
              <label htmlFor="journalName">{t("details.journalName")}</label>
              <input
                id="journalName"
                name="journalName"
                maxLength={JOURNAL_NAME_MAX}
                defaultValue={v.journalName}
                {...invalid("journalName")}
              />
              {err("journalName")}
            </div>
            <div className={`field${errors.journalUrl ? " field-invalid" : ""}`}>
              <label htmlFor="journalUrl">{t("details.journalUrl")}</label>
              <input id="journalUrl" name="journalUrl" type="url" maxLength={255} defaultValue={v.journalUrl} {...invalid("journalUrl")} />
              {err("journalUrl")}
            </div>
          </div>
        ) : null}
        <fieldset id="files">
          <legend>{t("details.files")}</legend>
          <FileList files={data.files} showKind />
          <p className="field-hint" id="files-hint">
            {t("getStarted.filesHint")}
          </p>
          <div className="field-grid">
            {UPLOAD_FIELDS.map(([field, kind]) => (
              <div key={field} className="field file-field">
                <label htmlFor={field}>{t(`fileKinds.${kind}`)}</label>
                <input id={field} type="file" name={field} multiple {...invalid(field, "files-hint")} />
              </div>
            ))}
          </div>
          <UploadButton errors={actionData?.uploadErrors ?? []} />
          {err("mainFiles")}
        </fieldset>
        <StepActions back={data.previous} disabled={navigation.state === "submitting"} />
      </Form>
    </section>
  );
}

type DuplicateState =
  { status: "idle" } | { status: "checking" } | { status: "found"; order: { externalId: string; title: string; hoursAgo: number } };

/**
 * Spec 1 §4 "Details form": leaving the title runs the duplicate check (with JavaScript; without it the
 * submit finds the duplicate and shows the duplicate screen). While checking an alert says so; a failure
 * clears the notice silently.
 */
function useDuplicateCheck(signedIn: boolean) {
  const [state, setState] = useState<DuplicateState>({ status: "idle" });
  const last = useRef<string | null>(null);
  const check = (value: string) => {
    const title = value.trim();
    if (!signedIn || title === last.current) return;
    last.current = title;
    if (!title) return setState({ status: "idle" });
    // The "checking" alert shows only if the answer takes a moment: a quick "no earlier order" then moves
    // nothing on the page under the visitor's pointer.
    const slow = setTimeout(() => last.current === title && setState({ status: "checking" }), 400);
    fetch(paths.api.orderDuplicate(title), { headers: { accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .finally(() => clearTimeout(slow))
      .then((body: { order: { externalId: string; title: string; hoursAgo: number } | null }) => {
        // A later blur may have started another check: only the latest title's answer counts.
        if (last.current !== title) return;
        setState(body.order ? { status: "found", order: body.order } : { status: "idle" });
      })
      .catch(() => {
        if (last.current === title) setState({ status: "idle" });
      });
  };
  return { state, check };
}

function DuplicateNotice({ state }: { state: DuplicateState }) {
  const { t } = useTranslation("order");
  if (state.status === "idle") return null;
  return (
    <p className="alert alert-warning duplicate-check" role="status">
      {state.status === "checking"
        ? t("details.duplicateChecking")
        : t("duplicate.body", { hours: state.order.hoursAgo, externalId: state.order.externalId, title: state.order.title })}
    </p>
  );
}

// A save racing the form's placing goes to the placed order, not a 500 (stepAction).
export const action = stepAction(handleStep);
