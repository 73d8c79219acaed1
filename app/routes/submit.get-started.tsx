import { paths } from "#common/paths";
import { Form, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useEffect, useState } from "react";
import { useTranslation } from "#app/lib/translate";
import { FileList, UploadButton } from "#app/components/WizardFiles";
import { StepActions, useStepErrors } from "#app/components/WizardStep";
import { loadStep, parseStep, readStepForm, requireDraft, toCurrentStep, wizardScope, stepAction } from "#app/lib/wizard.server";
import { basicDetailsBody, fileActionForm, reworkBasicDetailsBody } from "#common/order-form/schemas";
import { conformErrors } from "#common/result";
import {
  CUSTOMER_GOALS,
  fileOwner,
  formFiles,
  manuscriptDetails,
  manuscriptLanguages,
  ownerOf,
  REWORK_INSTRUCTIONS_MAX,
  reworkView,
  saveGetStarted,
  saveReworkBasicDetails,
} from "#server/order-form";
import { deleteFile } from "#server/documents/storage";

export const handle = { i18n: ["order", "catalogue"] };

/** Document-details polling: 5 tries, 1 second apart (spec 1 §4). */
const POLL_TRIES = 5;

/** Saves detected values as PUT …/manuscript-details (both must be there; otherwise the visitor fills them in). */
async function saveDetected(formId: string, d: { wordCount?: number | null; manuscriptLanguageId?: number | null }): Promise<void> {
  if (!d.wordCount || !d.manuscriptLanguageId) return;
  await fetch(paths.api.orderFormManuscriptDetails(formId), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ wordCount: d.wordCount, languageId: d.manuscriptLanguageId }),
  }).catch(() => undefined);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { w, form, t } = await loadStep(request, context, (f) => (f.rework ? "rework-get-started" : "get-started"));
  const [files, details, snapshot, languages] = await Promise.all([
    formFiles(w.scope, form),
    manuscriptDetails(w.scope, form),
    context.app.config.snapshot(),
    manuscriptLanguages(w.scope),
  ]);
  const mainFiles = files.filter((f) => f.kind === "main");
  const analysing =
    mainFiles.length > 0 && !details.documentDetailsReceived && !details.analysisFailed && snapshot.flags.order_form_language_detection;
  const rework = await reworkView(w.scope, form);
  return {
    title: t(rework ? "rework.title" : "getStarted.title"),
    formId: form.id,
    // The rework start screen (rework-get-started): which order is re-edited, and what to look at.
    rework: rework ? { ...rework.order, instructions: form.rework_instructions ?? "" } : null,
    instructionsMax: REWORK_INSTRUCTIONS_MAX,
    goals: CUSTOMER_GOALS.map((g) => ({ ...g })),
    values: {
      customerGoal: form.customer_goal,
      uploadFilesLater: form.upload_files_later,
      // The detected values are offered until the visitor saves their own.
      wordCount: form.word_count ?? (details.documentDetailsReceived ? details.wordCount : null),
      languageId: form.language_id ?? (details.documentDetailsReceived ? details.manuscriptLanguageId : null) ?? 1,
    },
    detected: details,
    analysing,
    // Detected values that arrived before this page was shown and that the form does not hold yet: saved
    // on arrival with JavaScript (spec 1 §4); a GET writes nothing, so without it they wait in the fields.
    unsavedDetection:
      details.documentDetailsReceived && details.wordCount !== null && details.manuscriptLanguageId !== null && form.word_count === null,
    pollCount: Number(new URL(request.url).searchParams.get("poll") ?? 0) || 0,
    files: files.map((f) => ({ id: f.id, name: f.originalName, kind: f.kind, sizeBytes: f.sizeBytes })),
    languages: languages.map((l) => ({ id: l.id, name: l.name })),
    uploadUi: snapshot.flags.upload_files_ui,
  };
}

async function handleStep({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  const { fields, uploadErrors, uploaded } = await readStepForm(w, request, form, context.ip);
  const files = parseStep(fields, fileActionForm);
  if (files.removeFile) {
    await deleteFile(context.app, files.removeFile, fileOwner(ownerOf(w.scope)));
    return Response.json({ fieldErrors: {}, uploadErrors: [] });
  }
  if (uploadErrors.length || files.intent === "upload") {
    return Response.json({ fieldErrors: {}, uploadErrors, uploaded }, { status: uploadErrors.length ? 400 : 200 });
  }
  // The same schemas and domain functions as PUT /api/order-form/{id}/(rework-)basic-details.
  const r = form.rework
    ? await saveReworkBasicDetails(w.scope, form, parseStep(fields, reworkBasicDetailsBody))
    : await saveGetStarted(w.scope, form, parseStep(fields, basicDetailsBody));
  if (!r.ok) return Response.json({ fieldErrors: conformErrors(r.fieldErrors), uploadErrors: [] }, { status: 400 });
  return toCurrentStep(w, r.value);
}

export default function GetStarted() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const { t } = useTranslation("order");
  const { errors, err, invalid } = useStepErrors(actionData?.fieldErrors);
  const busy = navigation.state === "submitting";
  // With the upload UI flag and JavaScript, Next waits for files (or "later") and a word count (spec 1 §5).
  const [hydrated, setHydrated] = useState(false);
  const [picked, setPicked] = useState(0);
  const [later, setLater] = useState(data.values.uploadFilesLater);
  const [words, setWords] = useState(String(data.values.wordCount ?? ""));
  useEffect(() => setHydrated(true), []);
  const nextBlocked = hydrated && data.uploadUi && ((data.files.length === 0 && picked === 0 && !later) || words.trim() === "");

  // With JavaScript: poll the analysis 5 times, a second apart, instead of refreshing the page; when both
  // the word count and the language arrive they are saved at once (spec 1 §4 "Manuscript details polling").
  useEffect(() => {
    if (!data.analysing) return;
    let tries = 0;
    const timer = setInterval(async () => {
      tries += 1;
      const r = await fetch(paths.api.orderFormDocumentDetails(data.formId))
        .then((x) => x.json())
        .catch(() => null);
      if (r?.documentDetailsReceived || r?.analysisFailed || tries >= POLL_TRIES) {
        clearInterval(timer);
        if (r?.documentDetailsReceived) await saveDetected(data.formId, r);
        revalidator.revalidate();
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [data.analysing, data.formId, revalidator]);
  // The analysis finished before the page was shown: its values are saved on arrival all the same.
  useEffect(() => {
    if (data.unsavedDetection) void saveDetected(data.formId, data.detected).then(() => revalidator.revalidate());
    // Once per detection shown (not on every revalidation): the revalidator is left out of the dependencies.
  }, [data.unsavedDetection, data.formId]);

  // One file input, placed in the drop zone (flag upload_files_ui) or in a labelled box.
  const fileInput = (
    <input
      id="files"
      type="file"
      name="mainFiles"
      multiple
      onChange={(e) => setPicked(e.target.files?.length ?? 0)}
      {...invalid("files", "files-hint")}
    />
  );
  return (
    <section className="stack">
      {data.analysing && data.pollCount < POLL_TRIES ? (
        // Without JavaScript the page refreshes itself while the manuscript is analysed. Inside <noscript>
        // so that with JavaScript (which polls instead) no refresh is ever scheduled.
        <noscript>
          <meta httpEquiv="refresh" content={`1;url=?poll=${data.pollCount + 1}`} />
        </noscript>
      ) : null}
      <h1>{t(data.rework ? "rework.title" : "getStarted.title")}</h1>
      {data.rework ? <p className="lead">{t("rework.intro", { externalId: data.rework.externalId, title: data.rework.title })}</p> : null}
      {err("rework")}
      <Form method="post" encType="multipart/form-data" className="stack" replace>
        {/* Enter submits "next", not the remove or upload buttons that come first. */}
        <button type="submit" name="intent" value="next" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
        {data.rework ? null : (
          <fieldset>
            <legend>{t("getStarted.goal")}</legend>
            {data.goals.map((g) => (
              <label key={g.name} className="checkbox">
                <input
                  type="radio"
                  name="customerGoal"
                  value={g.name}
                  defaultChecked={data.values.customerGoal === g.name}
                  {...invalid("customerGoal")}
                />
                <span>{t(`goals.${g.name}`)}</span>
              </label>
            ))}
            {err("customerGoal")}
          </fieldset>
        )}

        <fieldset>
          <legend>{t("getStarted.files")}</legend>
          <FileList files={data.files} />
          {data.uploadUi ? (
            // The alternative upload UI (flag upload_files_ui): a drop zone; dropping files on it picks them.
            <label htmlFor="files" className="drop-zone">
              <span>{t("getStarted.dropFiles")}</span>
              {fileInput}
              <span className="field-hint" id="files-hint">
                {t("getStarted.filesHint")}
              </span>
            </label>
          ) : (
            <div className="field file-field">
              <label htmlFor="files">{t("getStarted.chooseFiles")}</label>
              <p className="field-hint" id="files-hint">
                {t("getStarted.filesHint")}
              </p>
              {fileInput}
            </div>
          )}
          <UploadButton errors={actionData?.uploadErrors ?? []} />
          {err("files")}
          <label className="checkbox">
            <input
              type="checkbox"
              name="uploadFilesLater"
              defaultChecked={data.values.uploadFilesLater}
              onChange={(e) => setLater(e.target.checked)}
            />
            <span>{t("getStarted.uploadLater")}</span>
          </label>
        </fieldset>

        {data.analysing ? (
          <p className="alert alert-info" role="status">
            <span className="spinner" aria-hidden="true" /> {t("getStarted.analysing")}
          </p>
        ) : data.detected.documentDetailsReceived ? (
          <p className="alert alert-success" role="status">
            {t("getStarted.detected", { words: data.detected.wordCount })}
          </p>
        ) : data.detected.analysisError ? (
          // The analysis gave up (a document past the limits of ADR 019, or an unreadable one): say why, and
          // that the word count and language can be entered by hand.
          <p className="alert alert-warning" role="alert">
            {t(`errors.${data.detected.analysisError}`)}
          </p>
        ) : null}

        <div className="field-row">
          <div className={`field${errors.wordCount ? " field-invalid" : ""}`}>
            <label htmlFor="wordCount">{t("getStarted.wordCount")}</label>
            <input
              id="wordCount"
              name="wordCount"
              type="number"
              min={1}
              max={999999}
              inputMode="numeric"
              defaultValue={data.values.wordCount ?? ""}
              key={`wc-${data.values.wordCount}`}
              onChange={(e) => setWords(e.target.value)}
              {...invalid("wordCount")}
            />
            {err("wordCount")}
          </div>
          <div className={`field${errors.languageId ? " field-invalid" : ""}`}>
            <label htmlFor="languageId">{t("getStarted.language")}</label>
            <select
              id="languageId"
              name="languageId"
              defaultValue={String(data.values.languageId)}
              key={`lang-${data.values.languageId}`}
              {...invalid("languageId")}
            >
              {data.languages.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
            {err("languageId")}
          </div>
        </div>
        {data.rework ? (
          <div className={`field${errors.instructions ? " field-invalid" : ""}`}>
            <label htmlFor="instructions">{t("rework.instructions")}</label>
            <textarea
              id="instructions"
              name="instructions"
              rows={5}
              maxLength={data.instructionsMax}
              defaultValue={data.rework.instructions}
              {...invalid("instructions", "instructions-hint")}
            />
            <p className="field-hint" id="instructions-hint">
              {t("rework.instructionsHint", { max: data.instructionsMax })}
            </p>
            {err("instructions")}
          </div>
        ) : null}
        <StepActions disabled={busy || nextBlocked}>
          {busy ? <span className="spinner" aria-hidden="true" /> : null} {t("next")}
        </StepActions>
      </Form>
    </section>
  );
}

// A save racing the form's placing goes to the placed order, not a 500 (stepAction).
export const action = stepAction(handleStep);
