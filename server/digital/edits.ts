// Digital edits (spec 3 §2–§5, issue 24).
import { fail, type Result } from "#common/result";
import type { Scope } from "../scope";
import type { MultipartBody } from "../kernel/multipart";
import type { DigitalEditLoad, DigitalEditView, Pagination } from "./types";

export async function loadDigitalEdit(scope: Scope): Promise<Result<DigitalEditLoad>> {
  void scope;
  return fail("not-implemented");
}
export async function searchDigitalEdits(
  scope: Scope,
  q: { page?: number; identities?: string[] },
): Promise<Result<{ results: DigitalEditView[]; pagination: Pagination }>> {
  void scope, q;
  return fail("not-implemented");
}
export async function getDigitalEdit(scope: Scope, identity: string): Promise<Result<DigitalEditView>> {
  void scope, identity;
  return fail("not-implemented");
}
export async function createDigitalEdit(scope: Scope, body: MultipartBody): Promise<Result<{ digitalEdits: DigitalEditView[] }>> {
  void scope, body;
  return fail("not-implemented");
}
export async function archiveDigitalEdit(scope: Scope, identity: string): Promise<Result<{ fileName: string }>> {
  void scope, identity;
  return fail("not-implemented");
}
export async function digitalEditFile(
  scope: Scope,
  identity: string,
  version: "tracked" | "clean",
): Promise<Result<{ path: string; fileName: string; size: number }>> {
  void scope, identity, version;
  return fail("not-implemented");
}
export async function startOrderFromDigitalEdit(scope: Scope, identity: string): Promise<Result<{ orderFormId: string; url: string }>> {
  void scope, identity;
  return fail("not-implemented");
}
