// Who may use digital editing and translation (spec 3 §2, issue 24), and the Chinese trial (spec 3 §2 "Chinese
// trial"): settings allowsDigitalEditing / allowsDigitalTranslations, flag chinese_to_english_digital_translation.
import { fail, type Result } from "#common/result";
import type { Scope } from "../scope";

export interface DigitalAccess {
  editing: boolean;
  translations: boolean;
  chineseTranslation: boolean;
}

export async function digitalAccess(scope: Scope): Promise<DigitalAccess> {
  void scope;
  return { editing: false, translations: false, chineseTranslation: false };
}

export async function chineseTrialEligibility(scope: Scope): Promise<Result<{ eligible: boolean }>> {
  void scope;
  return fail("not-implemented");
}

export async function grantChineseTrial(scope: Scope): Promise<Result<{ granted: true }>> {
  void scope;
  return fail("not-implemented");
}
