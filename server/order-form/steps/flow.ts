// The wizard's steps come from the server (spec 1 §2 "Step bar"): which steps
// this order form has, which one is current, and where back and next lead.
import type { SiteLang } from "#common/i18n";
import { paths } from "#common/paths";
import type { OrderFormRow } from "../store";

export type StepName =
  | "get-started"
  | "rework-get-started"
  | "manuscript-services"
  | "multimedia-services"
  | "additional-services"
  | "service-bundles"
  | "details"
  | "duplicate-order"
  | "payment-details";

/** Every step in the order a form may pass them. */
const STEP_ORDER: StepName[] = [
  "get-started",
  "rework-get-started",
  "manuscript-services",
  "multimedia-services",
  "additional-services",
  "service-bundles",
  "details",
  "duplicate-order",
  "payment-details",
];

/** Steps that appear in the step bar (the duplicate screen is a detour, not a step). */
const BAR_STEPS = new Set<StepName>(STEP_ORDER.filter((s) => s !== "duplicate-order"));

/** Aliases the spec names for the same screens. */
export const STEP_ALIASES: Record<string, StepName> = {
  upload: "get-started",
  select: "manuscript-services",
  // Spec 1 §2 "Deep links": the review of the add-ons is the additional-services step itself.
  "review-additional-services": "additional-services",
};

export interface StepView {
  name: StepName;
  url: string;
  text: string;
  /**
   * current: the step on screen (the form's current step when none is named); done: completed, before
   * the form's current step; reached: the form's current step while an earlier one is on screen (a link,
   * not yet done); todo: not reached yet (plain text, not a link).
   */
  state: "done" | "current" | "reached" | "todo";
}

export interface StepsView {
  list: StepView[];
  current: StepView;
  next: StepView | null;
  previous: StepView | null;
  /** 0 to 100, for the progress bar. */
  progress: number;
}

export interface StepContext {
  bundlesEnabled: boolean;
  /** A potential duplicate order exists and the visitor has not answered the duplicate screen. */
  duplicatePending: boolean;
}

export function stepsOf(form: Pick<OrderFormRow, "rework" | "customer_goal" | "bundle_interest">, ctx: StepContext): StepName[] {
  const steps: StepName[] = [form.rework ? "rework-get-started" : "get-started"];
  steps.push(form.customer_goal === "multimedia" ? "multimedia-services" : "manuscript-services");
  steps.push("additional-services");
  if (ctx.bundlesEnabled && form.bundle_interest) steps.push("service-bundles");
  steps.push("details");
  if (ctx.duplicatePending) steps.push("duplicate-order");
  steps.push("payment-details");
  return steps;
}

/** The step a visitor may open: the stored furthest step, or the nearest one that still exists. */
export function currentStepOf(
  form: Pick<OrderFormRow, "current_step" | "rework" | "customer_goal" | "bundle_interest">,
  ctx: StepContext,
): StepName {
  const steps = stepsOf(form, ctx);
  const stored = form.current_step as StepName;
  if (steps.includes(stored)) return stored;
  // The step disappeared (e.g. bundles turned off): fall back to the one before it in the full order.
  const idx = STEP_ORDER.indexOf(stored);
  for (let i = idx; i >= 0; i--) if (steps.includes(STEP_ORDER[i])) return STEP_ORDER[i];
  return steps[0];
}

export function canOpen(step: StepName, form: Parameters<typeof currentStepOf>[0], ctx: StepContext): boolean {
  const steps = stepsOf(form, ctx);
  return steps.includes(step) && steps.indexOf(step) <= steps.indexOf(currentStepOf(form, ctx));
}

/** After a step is saved: the furthest step becomes the one after it, unless the visitor was already further. */
export function advance(form: Parameters<typeof currentStepOf>[0], saved: StepName, ctx: StepContext): StepName {
  const steps = stepsOf(form, ctx);
  const current = currentStepOf(form, ctx);
  const next = steps[Math.min(steps.indexOf(saved) + 1, steps.length - 1)];
  return steps.indexOf(next) > steps.indexOf(current) ? next : current;
}

export function stepsView(
  form: Parameters<typeof currentStepOf>[0],
  ctx: StepContext,
  lang: SiteLang,
  t: (key: string) => string,
  viewing?: StepName,
): StepsView {
  const steps = stepsOf(form, ctx);
  const current = currentStepOf(form, ctx);
  const here = viewing && steps.includes(viewing) ? viewing : current;
  const view = (name: StepName): StepView => ({
    name,
    url: paths.submit(lang, name),
    text: t(`steps.${name}`),
    state: name === here ? "current" : steps.indexOf(name) < steps.indexOf(current) ? "done" : name === current ? "reached" : "todo",
  });
  const idx = steps.indexOf(here);
  const bar = steps.filter((s) => BAR_STEPS.has(s));
  return {
    list: bar.map(view),
    current: view(current),
    next: idx + 1 < steps.length ? view(steps[idx + 1]) : null,
    previous: idx > 0 ? view(steps[idx - 1]) : null,
    progress: Math.round(
      (Math.max(bar.indexOf(current === "duplicate-order" ? "details" : current), 0) / Math.max(bar.length - 1, 1)) * 100,
    ),
  };
}
