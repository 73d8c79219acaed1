// Where an order form stands in the wizard: the step context (bundles on, a duplicate pending), the
// current step, the step bar, and saving a step's fields while moving on to the next step.
import type { Scope } from "../scope";
import { findDuplicate } from "./steps/duplicate";
import type { Result } from "#common/result";
import { advance, currentStepOf, type StepContext, type StepName, stepsOf, stepsView, type StepsView } from "./steps/flow";
import { type OrderFormRow, saveOrderForm } from "./store";

export async function stepContext(scope: Scope, form: OrderFormRow): Promise<StepContext> {
  return scope.memo(`sctx:${form.id}:${form.version}`, async () => {
    const snapshot = await scope.app.config.snapshot();
    return {
      // A re-edit is priced against its original order with the re-edit discount: bundles (new services at a bundle price) are not offered on it.
      bundlesEnabled: snapshot.flags.service_bundles && Boolean(snapshot.config.allowsServiceBundles) && !form.rework,
      duplicatePending: form.duplicate_choice === null && (await findDuplicate(scope, form)) !== null,
    };
  });
}

export async function advanceFrom(
  scope: Scope,
  form: OrderFormRow,
  step: StepName,
  patch: Parameters<typeof saveOrderForm>[2],
): Promise<OrderFormRow> {
  const next = { ...form, ...patch } as OrderFormRow;
  const ctx = await stepContext(scope, next);
  return saveOrderForm(scope.app.db, form, { ...patch, current_step: advance(next, step, ctx) });
}

export async function stepsFor(scope: Scope, form: OrderFormRow, t: (k: string) => string, viewing?: StepName): Promise<StepsView> {
  return stepsView(form, await stepContext(scope, form), scope.lang, t, viewing);
}

/** The step before `step` in this form's steps (where Back leads), or the first step. */
export async function stepBefore(scope: Scope, form: OrderFormRow, step: StepName): Promise<StepName> {
  const steps = stepsOf(form, await stepContext(scope, form));
  return steps[Math.max(steps.indexOf(step) - 1, 0)];
}

/**
 * Back saves the step (spec 1 §4 "Moving back also saves the step"): what `save` keeps is stored, but
 * the furthest step does not move on (Back is not Next), and a step that is not complete yet is not an
 * error on the way back: it is left as it was.
 */
export async function saveGoingBack(form: OrderFormRow, save: () => Promise<Result<OrderFormRow>>, scope: Scope): Promise<OrderFormRow> {
  const r = await save();
  if (!r.ok) return form;
  return r.value.current_step === form.current_step ? r.value : saveOrderForm(scope.app.db, r.value, { current_step: form.current_step });
}

export async function currentStep(scope: Scope, form: OrderFormRow): Promise<StepName> {
  return currentStepOf(form, await stepContext(scope, form));
}
