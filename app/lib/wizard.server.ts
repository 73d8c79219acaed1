// Shared plumbing of the order-form routes: who owns the draft, which form, the step guard.
import { redirect, type AppLoadContext } from "@remix-run/node";
import { getCurrentSession, readCookie, requireLang } from "./session.server";
import type { SiteLang } from "#common/i18n";
import { localizationForHost } from "#server/config";
import { currentDraft, DRAFT_COOKIE, newDraftKey, type OrderFormRow, type Owner } from "#server/order-form/store";
import { currentStep, type WizardEnv } from "#server/order-form/service";
import { canOpen, type StepName } from "#server/order-form/steps";
import { stepContext, fileOwner } from "#server/order-form/service";
import { checkUploadRateLimit, parseUploadRequest, UploadError } from "#server/documents/storage";
import { getCatalogue } from "#server/catalogue";
import { getFixedT } from "#app/i18n.server";

export const DRAFT_MAX_AGE = 60 * 60 * 24 * 30;

export function draftCookie(key: string, secure: boolean): string {
  return `${DRAFT_COOKIE}=${key}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${DRAFT_MAX_AGE}${secure ? "; Secure" : ""}`;
}

export interface WizardRequest {
  env: WizardEnv;
  lang: SiteLang;
  /** Set when a new draft key was made for this anonymous visitor (the response must set the cookie). */
  newDraftKey: string | null;
}

// Loaders of one request share its load context (Remix gives each loader its own copy of the Request):
// the layout and the step compute the draft, its price and its steps once between them.
const memos = new WeakMap<object, Map<string, Promise<unknown>>>();

function requestMemo(scope: object) {
  return <T>(key: string, compute: () => Promise<T>): Promise<T> => {
    let map = memos.get(scope);
    if (!map) memos.set(scope, (map = new Map()));
    let hit = map.get(key) as Promise<T> | undefined;
    if (!hit) {
      hit = compute();
      map.set(key, hit);
    }
    return hit;
  };
}

export async function wizardEnv(
  request: Request,
  context: AppLoadContext,
  options: { createDraftKey?: boolean } = {},
): Promise<WizardRequest> {
  const lang = requireLang(request);
  const session = await getCurrentSession(request, context);
  let draftKey = readCookie(request, DRAFT_COOKIE) ?? null;
  let created: string | null = null;
  if (!session && !draftKey && options.createDraftKey) {
    draftKey = created = newDraftKey();
  }
  const owner: Owner = { userId: session?.user.id ?? null, draftKey };
  const { localizations } = await context.app.config.snapshot();
  const localization = session?.user.localization ?? localizationForHost(localizations, request.headers.get("host")).identity;
  return {
    lang,
    newDraftKey: created,
    env: {
      ctx: context.app,
      owner,
      lang,
      localization,
      impersonating: Boolean(session?.impersonatorId),
      memo: request.method === "GET" || request.method === "HEAD" ? requestMemo(context) : undefined,
    },
  };
}

/** The visitor's order form in progress (once per request). */
export function loadDraft(w: WizardRequest): Promise<OrderFormRow | null> {
  const load = () => currentDraft(w.env.ctx.db, w.env.owner);
  return w.env.memo ? w.env.memo("draft", load) : load();
}

/** The visitor's order form, or a redirect to /researcher/submit/new when there is none. */
export async function requireDraft(w: WizardRequest): Promise<OrderFormRow> {
  const form = await loadDraft(w);
  if (!form) throw redirect(`/${w.lang}/researcher/submit/new`);
  return form;
}

/** Each step's loader sends the visitor to the current step when this one is not open yet. */
export async function guardStep(w: WizardRequest, form: OrderFormRow, step: StepName): Promise<void> {
  if (!canOpen(step, form, await stepContext(w.env, form))) {
    throw redirect(`/${w.lang}/researcher/submit/${await currentStep(w.env, form)}`);
  }
}

/** The preamble of every step's loader: the visitor's draft (or /new), the step guard, the order namespace and the catalogue. */
export async function loadStep(request: Request, context: AppLoadContext, step: StepName | ((form: OrderFormRow) => StepName)) {
  const w = await wizardEnv(request, context);
  const form = await requireDraft(w);
  await guardStep(w, form, typeof step === "function" ? step(form) : step);
  const [t, catalogue] = await Promise.all([getFixedT(request, "order"), getCatalogue(context.app)]);
  return { w, form, t, catalogue };
}

export async function toCurrentStep(w: WizardRequest, form: OrderFormRow, status = 303): Promise<Response> {
  return redirect(`/${w.lang}/researcher/submit/${await currentStep(w.env, form)}`, { status });
}

/**
 * Reads a step's form: multipart (files streamed to disk and attached to the order form) or urlencoded.
 * Returns the text fields and the translation keys of refused files.
 */
export async function readStepForm(
  w: WizardRequest,
  request: Request,
  form: OrderFormRow,
  ip: string,
): Promise<{ fields: Record<string, string>; uploadErrors: string[]; uploaded: number }> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType)) {
    const data = await request.formData();
    const fields: Record<string, string> = {};
    for (const [k, v] of data.entries()) if (typeof v === "string") fields[k] = k in fields && k.endsWith("[]") ? `${fields[k]},${v}` : v;
    // Multi-valued fields (checkbox groups) are joined with commas under their name.
    for (const k of new Set([...data.keys()])) {
      const all = data.getAll(k).filter((v): v is string => typeof v === "string");
      if (all.length > 1) fields[k] = all.join(",");
    }
    return { fields, uploadErrors: [], uploaded: 0 };
  }
  const limit = await checkUploadRateLimit(w.env.ctx, { userId: w.env.owner.userId, ip });
  if (!limit.allowed) return { fields: {}, uploadErrors: ["order:errors.upload-rate-limited"], uploaded: 0 };
  try {
    const result = await parseUploadRequest(w.env.ctx, request, { ...fileOwner(w.env.owner), orderFormId: form.id });
    return {
      fields: result.fields,
      uploadErrors: [...new Set(result.rejected.map((r) => `order:errors.${r.code}`))],
      uploaded: result.files.length,
    };
  } catch (error) {
    if (error instanceof UploadError) return { fields: {}, uploadErrors: [`order:errors.${error.code}`], uploaded: 0 };
    throw error;
  }
}
