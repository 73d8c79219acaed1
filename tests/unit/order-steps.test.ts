import { describe, expect, it } from "vitest";
import { advance, canOpen, currentStepOf, stepsOf, stepsView } from "../../server/order-form/steps/flow";

const base = { rework: false, customer_goal: "manuscript", bundle_interest: false, current_step: "get-started" };
const ctx = { bundlesEnabled: true, duplicatePending: false };

describe("order form steps", () => {
  it("follow the goal, rework and bundle interest", () => {
    expect(stepsOf(base, ctx)).toEqual(["get-started", "manuscript-services", "additional-services", "details", "payment-details"]);
    expect(stepsOf({ ...base, customer_goal: "multimedia" }, ctx)[1]).toBe("multimedia-services");
    expect(stepsOf({ ...base, rework: true }, ctx)[0]).toBe("rework-get-started");
    expect(stepsOf({ ...base, bundle_interest: true }, ctx)).toContain("service-bundles");
    expect(stepsOf({ ...base, bundle_interest: true }, { ...ctx, bundlesEnabled: false })).not.toContain("service-bundles");
    expect(stepsOf(base, { ...ctx, duplicatePending: true })).toEqual([
      "get-started",
      "manuscript-services",
      "additional-services",
      "details",
      "duplicate-order",
      "payment-details",
    ]);
  });

  it("open only up to the current step and advance one at a time", () => {
    const form = { ...base, current_step: "manuscript-services" };
    expect(canOpen("get-started", form, ctx)).toBe(true);
    expect(canOpen("manuscript-services", form, ctx)).toBe(true);
    expect(canOpen("details", form, ctx)).toBe(false);
    expect(advance(form, "manuscript-services", ctx)).toBe("additional-services");
    // Saving an earlier step does not move the visitor back.
    expect(advance({ ...base, current_step: "details" }, "get-started", ctx)).toBe("details");
  });

  it("fall back when the stored step no longer exists", () => {
    expect(currentStepOf({ ...base, current_step: "service-bundles" }, ctx)).toBe("additional-services");
    // A goal switched from multimedia to manuscript: the visitor lands on the counterpart step to fill in.
    expect(currentStepOf({ ...base, current_step: "multimedia-services" }, ctx)).toBe("manuscript-services");
  });

  it("describe the step bar with links only up to the current step and a progress figure", () => {
    const v = stepsView({ ...base, current_step: "additional-services" }, ctx, "en", (k) => k, "manuscript-services");
    // The step on screen is the current one of the bar; the form's furthest step stays a link ("reached").
    expect(v.list.map((s) => [s.name, s.state])).toEqual([
      ["get-started", "done"],
      ["manuscript-services", "current"],
      ["additional-services", "reached"],
      ["details", "todo"],
      ["payment-details", "todo"],
    ]);
    expect(stepsView({ ...base, current_step: "additional-services" }, ctx, "en", (k) => k).list[2].state).toBe("current");
    expect(v.current.url).toBe("/en/researcher/submit/additional-services");
    expect(v.previous?.name).toBe("get-started");
    expect(v.next?.name).toBe("additional-services");
    expect(v.progress).toBe(50);
  });
});
