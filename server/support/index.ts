// Support requests (issue 11 §4, spec 2 §2 "Support"): a researcher (or a visitor) writes to support, about
// an order or not; a proof of payment carries a file. Staff read them in the console and close them.
// Ownership: a request about an order must be about one of the writer's own orders (anyone else's: not found).
import { fail, invalid, ok, type FieldErrors, type Result } from "#common/result";
import { emailField } from "#common/auth/schemas";
import { isSupportType, SUPPORT_MESSAGE_MAX, SUPPORT_NAME_MAX, SUPPORT_SUBJECT_MAX, type SupportType } from "#common/support/schemas";
import type { AppContext } from "../context";
import type { Scope } from "../scope";
import { deleteFile, openFile, type OpenedFile } from "../documents/storage";
import { rateLimit } from "../kernel/rate-limit";
import { audit, auditImpersonated } from "../kernel/audit";
import { EXTERNAL_ID } from "../orders/read";

/** Requests one writer (user, or address when anonymous) may send per hour. */
export const SUPPORT_REQUESTS_PER_HOUR = 5;

export interface SupportInput {
  type: unknown;
  /** The order the request is about (its external id), if any. */
  orderRef?: string | null;
  email?: unknown;
  name?: unknown;
  subject?: unknown;
  message?: unknown;
}

const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/** The order of the signed-in writer with this external id (null: not theirs, or no such order). */
export async function supportOrder(scope: Scope, externalId: string): Promise<{ id: number; externalId: string; title: string } | null> {
  if (!scope.userId || !EXTERNAL_ID.test(externalId)) return null;
  const row = await scope.app.db
    .selectFrom("orders")
    .select(["id", "external_id", "title"])
    .where("user_id", "=", scope.userId)
    .where("external_id", "=", externalId)
    .executeTakeFirst();
  return row ? { id: row.id, externalId: row.external_id, title: row.title } : null;
}

/**
 * Creates a support request. `fileId` is a file the writer uploaded for it (kind "support", streamed through the
 * store's checks by the caller); it is removed again when the request is refused. Errors: `not-found` (the
 * order is not the writer's), `too-many-requests` (details.retryAfterSeconds), field errors email, message,
 * subject, name, file.
 */
export async function createSupportRequest(
  scope: Scope,
  input: SupportInput,
  fileId: string | null = null,
): Promise<Result<{ id: string }>> {
  const result = await create(scope, input, fileId);
  if (!result.ok && fileId) await deleteFile(scope.app, fileId, { ownerUserId: scope.userId });
  return result;
}

async function create(scope: Scope, input: SupportInput, fileId: string | null): Promise<Result<{ id: string }>> {
  if (!isSupportType(input.type)) return fail("not-found");
  const type: SupportType = input.type;
  let order: { id: number } | null = null;
  if (input.orderRef) {
    order = await supportOrder(scope, input.orderRef);
    if (!order) return fail("not-found");
  } else if (type !== "general") return fail("not-found");

  const errors: FieldErrors = {};
  const message = text(input.message);
  if (!message) errors.message = "support:errors.message-required";
  else if (message.length > SUPPORT_MESSAGE_MAX) errors.message = "support:errors.message-too-long";
  const subject = text(input.subject);
  if (subject.length > SUPPORT_SUBJECT_MAX) errors.subject = "support:errors.subject-too-long";
  const name = text(input.name);
  if (name.length > SUPPORT_NAME_MAX) errors.name = "support:errors.name-too-long";
  // A signed-in writer is answered at the address they give (prefilled with their own); a visitor must give one.
  const given = text(input.email);
  let email =
    scope.session?.user.email ??
    (scope.userId
      ? ((await scope.app.db.selectFrom("users").select("email").where("id", "=", scope.userId).executeTakeFirst())?.email ?? "")
      : "");
  if (given) {
    const parsed = emailField.safeParse(given);
    if (parsed.success) email = parsed.data;
    else errors.email = "support:errors.email-invalid";
  } else if (!email) errors.email = "support:errors.email-required";
  if (type === "proof-of-payment" && !fileId) errors.file = "support:errors.file-required";
  if (Object.keys(errors).length) return invalid(errors);

  const who = scope.userId ? `user:${scope.userId}` : `ip:${scope.ip}`;
  const limit = await rateLimit(scope.app.cache, `support:${who}`, SUPPORT_REQUESTS_PER_HOUR, 3600);
  if (!limit.allowed) return fail("too-many-requests", { retryAfterSeconds: limit.retryAfterSeconds });

  if (fileId) {
    // Only a file of the writer's own, uploaded for support.
    const file = await scope.app.db
      .selectFrom("files")
      .select("id")
      .where("id", "=", fileId)
      .where("kind", "=", "support")
      .where("owner_user_id", "=", scope.userId ?? -1)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (!file) return invalid({ file: "support:errors.file-required" });
  }
  const row = await scope.app.db
    .insertInto("support_requests")
    .values({
      user_id: scope.userId,
      order_id: order?.id ?? null,
      type,
      email,
      name: name || null,
      subject: subject || null,
      message,
      file_id: fileId,
      lang: scope.lang,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await auditImpersonated(scope, "support.create", { type: "support-request", id: String(row.id) }, { type });
  return ok({ id: String(row.id) });
}

export interface SupportRequestView {
  id: string;
  type: SupportType;
  status: "open" | "closed";
  email: string;
  name: string | null;
  subject: string | null;
  message: string;
  lang: string;
  createdAt: string;
  closedAt: string | null;
  closedBy: string | null;
  user: { id: number; email: string } | null;
  order: { externalId: string; title: string } | null;
  file: { id: string; name: string; sizeBytes: number } | null;
}

/** Support requests for the console, newest first (the caller has checked the reader is staff). */
export async function listSupportRequests(
  app: AppContext,
  filter: { status?: "open" | "closed" | "all"; id?: string } = {},
): Promise<SupportRequestView[]> {
  let q = app.db
    .selectFrom("support_requests as s")
    .leftJoin("users as u", "u.id", "s.user_id")
    .leftJoin("orders as o", "o.id", "s.order_id")
    .leftJoin("files as f", "f.id", "s.file_id")
    .leftJoin("users as c", "c.id", "s.closed_by")
    .select([
      "s.id",
      "s.type",
      "s.status",
      "s.email",
      "s.name",
      "s.subject",
      "s.message",
      "s.lang",
      "s.created_at",
      "s.closed_at",
      "c.email as closed_by_email",
      "u.id as user_id",
      "u.email as user_email",
      "o.external_id",
      "o.title as order_title",
      "f.id as file_id",
      "f.original_name",
      "f.size_bytes",
    ])
    .orderBy("s.id", "desc")
    .limit(200);
  if (filter.id !== undefined) {
    if (!/^\d{1,18}$/.test(filter.id)) return [];
    q = q.where("s.id", "=", filter.id);
  }
  if (filter.status && filter.status !== "all") q = q.where("s.status", "=", filter.status);
  const rows = await q.execute();
  return rows.map((r) => ({
    id: String(r.id),
    type: r.type,
    status: r.status,
    email: r.email,
    name: r.name,
    subject: r.subject,
    message: r.message,
    lang: r.lang,
    createdAt: new Date(r.created_at).toISOString(),
    closedAt: r.closed_at ? new Date(r.closed_at).toISOString() : null,
    closedBy: r.closed_by_email,
    user: r.user_id !== null && r.user_email ? { id: r.user_id, email: r.user_email } : null,
    order: r.external_id ? { externalId: r.external_id, title: r.order_title ?? "" } : null,
    file: r.file_id ? { id: r.file_id, name: r.original_name ?? "", sizeBytes: Number(r.size_bytes ?? 0) } : null,
  }));
}

/** Closes an open request (staff); audited. Errors: `not-found`. */
export async function closeSupportRequest(app: AppContext, actor: { userId: number }, id: string): Promise<Result> {
  if (!/^\d{1,18}$/.test(id)) return fail("not-found");
  const row = await app.db
    .updateTable("support_requests")
    .set({ status: "closed", closed_at: new Date(), closed_by: actor.userId })
    .where("id", "=", id)
    .where("status", "=", "open")
    .returning("id")
    .executeTakeFirst();
  if (!row) return fail("not-found");
  await audit(app, actor.userId, "support.close", { type: "support-request", id });
  return ok();
}

/** The file of a request for staff to read (a download, never inline); audited. */
export async function openSupportFile(app: AppContext, actor: { userId: number }, id: string): Promise<OpenedFile | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const row = await app.db.selectFrom("support_requests").select(["file_id", "user_id"]).where("id", "=", id).executeTakeFirst();
  if (!row?.file_id) return null;
  const file = await openFile(app, row.file_id, { ownerUserId: row.user_id });
  if (file) await audit(app, actor.userId, "support.file", { type: "support-request", id });
  return file;
}

/**
 * The console's page: the requests with `status`, and request `id` when one is opened (null when it does not
 * exist). The reading is audited, like the outbox's (ADR 018): who read which request, or which list.
 */
export async function readSupportRequests(
  app: AppContext,
  actor: { userId: number },
  { status, id }: { status: "open" | "closed" | "all"; id?: string },
): Promise<{ requests: SupportRequestView[]; selected: SupportRequestView | null }> {
  const [requests, opened] = await Promise.all([
    listSupportRequests(app, { status }),
    id === undefined ? Promise.resolve([]) : listSupportRequests(app, { id, status: "all" }),
  ]);
  const selected = opened[0] ?? null;
  await audit(
    app,
    actor.userId,
    selected ? "support.read" : "support.list",
    selected ? { type: "support-request", id: selected.id } : null,
    {
      status,
    },
  );
  return { requests, selected };
}
