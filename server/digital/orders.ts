// Digital orders: translations (spec 3 §2–§5, issue 24).
import { fail, type Result } from "#common/result";
import type { DigitalOrderType } from "#common/digital/constants";
import type { Scope } from "../scope";
import type { MultipartBody } from "../kernel/multipart";
import type { DigitalOrderCreated, DigitalOrderLoad, DigitalOrderView, Pagination } from "./types";

export async function loadDigitalOrders(scope: Scope): Promise<Result<DigitalOrderLoad>> {
  void scope;
  return fail("not-implemented");
}
export async function searchDigitalOrders(
  scope: Scope,
  q: { page?: number; type?: DigitalOrderType; identities?: string[] },
): Promise<Result<{ results: DigitalOrderView[]; pagination: Pagination }>> {
  void scope, q;
  return fail("not-implemented");
}
export async function getDigitalOrder(scope: Scope, identity: string): Promise<Result<DigitalOrderView>> {
  void scope, identity;
  return fail("not-implemented");
}
export async function createDigitalOrder(scope: Scope, body: MultipartBody): Promise<Result<DigitalOrderCreated>> {
  void scope, body;
  return fail("not-implemented");
}
export async function archiveDigitalOrder(scope: Scope, identity: string): Promise<Result<{ fileName: string }>> {
  void scope, identity;
  return fail("not-implemented");
}
export async function digitalOrderFile(scope: Scope, identity: string): Promise<Result<{ path: string; fileName: string; size: number }>> {
  void scope, identity;
  return fail("not-implemented");
}
