// Where an order form stands in the wizard: the step context (bundles on, a duplicate pending), the
// current step, the step bar, and saving a step's fields while moving on to the next step.
import type { Scope } from "../scope";
import { findDuplicate } from "./steps/duplicate";
import { advance, currentStepOf, type StepContext, type StepName, stepsView, type StepsView } from "./steps/flow";
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

export async function currentStep(scope: Scope, form: OrderFormRow): Promise<StepName> {
  return currentStepOf(form, await stepContext(scope, form));
}
