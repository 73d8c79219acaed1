// Shared plumbing of the order-form routes: who owns the draft, which form, the step guard.
import { redirect, type ActionFunctionArgs, type AppLoadContext } from "@remix-run/node";
import type * as z from "zod/mini";
import { conformErrors, type Err } from "#common/result";
import type { SiteLang } from "#common/i18n";
import { paths } from "#common/paths";
import type { Scope } from "#server/scope";
import {
  canOpen,
  currentDraft,
  currentStep,
  fileOwner,
  newDraftKey,
  OrderFormClosedError,
  type OrderFormRow,
  ownerOf,
  stepContext,
  type StepName,
} from "#server/order-form";
import { checkUploadRateLimit, parseUploadRequest, UploadError } from "#server/documents/storage";
import { multipartBody } from "#server/http/multipart";
import { getCatalogue } from "#server/catalogue";
import { placedOrderOfForm } from "#server/orders/place";
import { getFixedT } from "#app/i18n.server";
import { pageScope } from "./scope.server";
import { parseFields, readFormData, refuseUnstorableFields } from "./forms.server";

export interface WizardRequest {
  /** The page's request scope; for a visitor given a new draft key, a scope carrying that key. */
  scope: Scope;
  lang: SiteLang;
  /** Set when a new draft key was made for this anonymous visitor (the response must set the cookie). */
  newDraftKey: string | null;
}

export async function wizardScope(
  request: Request,
  context: AppLoadContext,
  options: { createDraftKey?: boolean } = {},
): Promise<WizardRequest> {
  const scope = await pageScope(request, context);
  const created = !scope.session && !scope.draftKey && options.createDraftKey ? newDraftKey() : null;
  return { lang: scope.lang, newDraftKey: created, scope: created ? { ...scope, draftKey: created } : scope };
}

/** The visitor's order form in progress (once per request). */
export function loadDraft(w: WizardRequest): Promise<OrderFormRow | null> {
  return w.scope.memo("draft", () => currentDraft(w.scope.app.db, ownerOf(w.scope)));
}

/** The visitor's order form, or a redirect to /researcher/submit/new when there is none. */
export async function requireDraft(w: WizardRequest): Promise<OrderFormRow> {
  const form = await loadDraft(w);
  if (!form) throw redirect(paths.submit(w.lang, "new"));
  return form;
}

/** Each step's loader sends the visitor to the current step when this one is not open yet. */
export async function guardStep(w: WizardRequest, form: OrderFormRow, step: StepName): Promise<void> {
  if (!canOpen(step, form, await stepContext(w.scope, form))) {
    throw redirect(paths.submit(w.lang, await currentStep(w.scope, form)));
  }
}

/** The preamble of every step's loader: the visitor's draft (or /new), the step guard, the order namespace and the catalogue. */
export async function loadStep(request: Request, context: AppLoadContext, step: StepName | ((form: OrderFormRow) => StepName)) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  await guardStep(w, form, typeof step === "function" ? step(form) : step);
  const [t, catalogue] = await Promise.all([getFixedT(request, "order"), getCatalogue(context.app)]);
  return { w, form, t, catalogue };
}

export async function toCurrentStep(w: WizardRequest, form: OrderFormRow, status = 303): Promise<Response> {
  return redirect(paths.submit(w.lang, await currentStep(w.scope, form)), { status });
}

/**
 * Reads a step's form once: multipart (files streamed to disk and attached to the order form) or urlencoded.
 * Returns the text fields, to parse with the form's schema (parseFields), and the translation keys of
 * refused files.
 */
export async function readStepForm(
  w: WizardRequest,
  request: Request,
  form: OrderFormRow,
  ip: string,
): Promise<{ fields: URLSearchParams; uploadErrors: string[]; uploaded: number }> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType)) {
    const fields = new URLSearchParams();
    for (const [k, v] of (await readFormData(request)).entries()) if (typeof v === "string") fields.append(k, v);
    return { fields, uploadErrors: [], uploaded: 0 };
  }
  const limit = await checkUploadRateLimit(w.scope.app, { userId: w.scope.userId, ip });
  if (!limit.allowed) return { fields: new URLSearchParams(), uploadErrors: ["order:errors.upload-rate-limited"], uploaded: 0 };
  try {
    const result = await parseUploadRequest(w.scope.app, multipartBody(request), {
      ...fileOwner(ownerOf(w.scope)),
      orderFormId: form.id,
      uploaderIp: ip,
    });
    // The text fields of a streamed multipart form are checked like any posted form (ADR 018).
    refuseUnstorableFields(result.fields);
    return {
      fields: new URLSearchParams(Object.entries(result.fields)),
      uploadErrors: [...new Set(result.rejected.map((r) => `order:errors.${r.code}`))],
      uploaded: result.files.length,
    };
  } catch (error) {
    if (error instanceof UploadError) return { fields: new URLSearchParams(), uploadErrors: [`order:errors.${error.code}`], uploaded: 0 };
    throw error;
  }
}

/** The parsed value of a step's form (its shared schema), or a 400 for a form no page of the wizard posts. */
export function parseStep<S extends z.ZodMiniType>(fields: URLSearchParams, schema: S): z.output<S> {
  const submission = parseFields<z.output<S>>(fields, schema);
  if (submission.status !== "success") throw Response.json({ fieldErrors: submission.error ?? {} }, { status: 400 });
  return submission.value;
}

/** The same for a form whose names conform would nest wrongly: the fields flat, a repeated field's values joined by commas. */
export function parseFlatStep<S extends z.ZodMiniType>(fields: URLSearchParams, schema: S): z.output<S> {
  refuseUnstorableFields(fields);
  const flat: Record<string, string> = {};
  for (const key of new Set(fields.keys())) flat[key] = fields.getAll(key).join(",");
  const parsed = schema.safeParse(flat);
  if (!parsed.success) throw Response.json({ fieldErrors: {} }, { status: 400 });
  return parsed.data;
}

/** A step the domain refused: 400 with every failing field's translation key (the page shows them under its fields). */
export function refused(r: Err): Response {
  return Response.json({ fieldErrors: conformErrors(r.fieldErrors) }, { status: 400 });
}

/**
 * Every step's action goes through this. A save that loses a race with the form's placing (another tab, a
 * double submit) changes nothing (the guarded write of issue 10 §13 throws OrderFormClosedError): the
 * visitor is sent to the order that placing made, or to a new form, instead of a 500.
 */
export function stepAction(action: (args: ActionFunctionArgs) => Promise<Response>) {
  return async (args: ActionFunctionArgs): Promise<Response> => {
    try {
      return await action(args);
    } catch (error) {
      if (!(error instanceof OrderFormClosedError)) throw error;
      const w = await wizardScope(args.request, args.context);
      const externalId = await placedOrderOfForm(w.scope, error.formId);
      return redirect(externalId ? paths.orderThankYou(w.lang, externalId) : paths.submit(w.lang, "new"), { status: 303 });
    }
  };
}
