// The details step: project title, area of study, style of English and the target journal.
import { invalid, ok } from "#common/result";
import { serialIdOf } from "#common/integers";
import { checkField, journalUrlField, projectTitleField } from "#common/order-form/schemas";
import { JOURNAL_NAME_MAX } from "#common/order-form/constants";
import { getCatalogue, SCIENTIFIC_EDITING_SLUG } from "../../catalogue";
import type { Scope } from "../../scope";
import { formFiles } from "../files";
import { advanceFrom } from "../progress";
import { type OrderFormRow, saveOrderForm } from "../store";
import type { FieldErrors, SaveResult } from "../types";

// ---- details --------------------------------------------------------------------

const JOURNAL_NAME_TOO_LONG = "order:errors.journal-name-too-long";

/** The details step as the page's form or the API's body parses it; the values are checked here. */
export interface DetailsInput {
  projectTitle?: unknown;
  areaOfStudyId?: unknown;
  styleOfEnglish?: unknown;
  journalName?: unknown;
  journalUrl?: unknown;
}

/**
 * The details step. `moveOn: false` is Back (spec 1 §4): every field that passes its check is kept, the
 * others are left as they were, nothing is required and the furthest step does not move on.
 */
export async function saveDetails(
  scope: Scope,
  form: OrderFormRow,
  input: DetailsInput,
  { moveOn = true }: { moveOn?: boolean } = {},
): Promise<SaveResult> {
  const errors: FieldErrors = {};
  const titleCheck = checkField(projectTitleField, input.projectTitle);
  const title = titleCheck.ok ? titleCheck.value : "";
  if (!titleCheck.ok) errors.projectTitle = titleCheck.error;
  // Bounded to the column (ADR 044): a value no area id can be is not looked up at all.
  const areaId = serialIdOf(input.areaOfStudyId);
  const area =
    areaId !== null ? await scope.app.db.selectFrom("areas_of_study").select("id").where("id", "=", areaId).executeTakeFirst() : undefined;
  if (!area) errors.areaOfStudyId = "order:errors.area-of-study-error";
  const catalogue = await getCatalogue(scope.app);
  const editing = (form.selections ?? []).some((s) => catalogue.services.find((c) => c.slug === s.serviceSlug)?.type === "editing");
  const style = input.styleOfEnglish === "british" || input.styleOfEnglish === "american" ? input.styleOfEnglish : null;
  if (editing && !style) errors.styleOfEnglish = "order:errors.style-of-english-required";
  // Spec 1 §4: the journal details are hidden for scientific editing, so none is kept for it.
  const journalShown = !scientificEditingChosen(form);
  const journalName = journalShown ? String(input.journalName ?? "").trim() : "";
  const urlCheck = checkField(journalUrlField, journalShown ? input.journalUrl : "");
  const journalUrl = urlCheck.ok ? urlCheck.value : "";
  if (!urlCheck.ok) errors.journalUrl = urlCheck.error;
  if (journalName.length > JOURNAL_NAME_MAX) errors.journalName = JOURNAL_NAME_TOO_LONG;
  // "Upload files later" (get-started) is honoured here: the files are needed before payment, and the
  // payment step asks for them (ADR 020); without that box ticked they are needed now.
  if (!form.upload_files_later) {
    const files = await formFiles(scope, form);
    if (!files.some((f) => f.kind === "main" || f.kind === "figure")) errors.mainFiles = "order:errors.no-files";
  }
  if (!moveOn) {
    const journalOk = !errors.journalUrl && !errors.journalName && journalName !== "";
    return ok(
      await saveOrderForm(scope.app.db, form, {
        ...(errors.projectTitle ? {} : { project_title: title }),
        ...(errors.areaOfStudyId ? {} : { area_of_study_id: areaId }),
        ...(editing && style ? { style_of_english: style } : {}),
        ...(journalOk ? { journal: JSON.stringify({ name: journalName, ...(journalUrl ? { url: journalUrl } : {}) }) } : {}),
      }),
    );
  }
  if (Object.keys(errors).length) return invalid(errors);
  return ok(
    await advanceFrom(scope, form, "details", {
      project_title: title,
      area_of_study_id: areaId,
      style_of_english: editing ? style : null,
      journal: journalName ? JSON.stringify({ name: journalName, ...(journalUrl ? { url: journalUrl } : {}) }) : null,
    }),
  );
}

/** Scientific editing is chosen: its journal details are not asked for (spec 1 §4 "Service selection"). */
export function scientificEditingChosen(form: Pick<OrderFormRow, "selections">): boolean {
  return (form.selections ?? []).some((s) => s.serviceSlug === SCIENTIFIC_EDITING_SLUG);
}

export async function saveJournal(scope: Scope, form: OrderFormRow, input: { name?: unknown; url?: unknown }): Promise<SaveResult> {
  const name = String(input.name ?? "").trim();
  const urlCheck = checkField(journalUrlField, input.url);
  const url = urlCheck.ok ? urlCheck.value : "";
  const errors: FieldErrors = {};
  if (!name) errors.name = "order:errors.journal-name-required";
  // Refused beyond the pages' limit, not cut: a name cut short would be stored as if the researcher had typed it.
  else if (name.length > JOURNAL_NAME_MAX) errors.name = JOURNAL_NAME_TOO_LONG;
  if (!urlCheck.ok) errors.url = urlCheck.error;
  if (Object.keys(errors).length) return invalid(errors);
  return ok(await saveOrderForm(scope.app.db, form, { journal: JSON.stringify({ name, ...(url ? { url } : {}) }) }));
}
