// The staff's fapiao desk (issue 13 §4, /staff/fapiaos): the requested fapiaos, one marked issued with its number
// and the PDF the tax system produced (streamed through the multipart reader into the document storage, owned by
// the researcher; only a real PDF, size-limited), and a cancellation at any time (the staff permission of spec 2 §5).
import { fail, invalid, ok, type Result } from "#common/result";
import { fapiaoNumberError } from "#common/fapiao/schemas";
import type { FapiaoStatus } from "../../db/types-prepay";
import type { Scope } from "../scope";
import { checkUploadRateLimit, deleteFile, saveUpload, UploadError, type StoredFile } from "../documents/storage";
import { MultipartError, type MultipartBody } from "../kernel/multipart";
import { cancelWindowDays, fapiaoQuery, toView, type FapiaoView } from "./records";

/** An issued fapiao's PDF: at most this size (the tax system's are well under 1 MB). */
export const FAPIAO_PDF_MAX_BYTES = 10 * 1024 * 1024;

/** A staff member acting as themselves (not viewing the portal as a researcher). */
const staffId = (scope: Scope): number | null =>
  scope.session?.user.isStaff && !scope.session.impersonatorId ? scope.session.user.id : null;

export interface StaffFapiaoRow extends FapiaoView {
  researcher: { id: number; email: string; name: string };
}

async function staffRows(scope: Scope, filter: { id?: number; status?: FapiaoStatus }): Promise<StaffFapiaoRow[]> {
  let q = fapiaoQuery(scope.app.db).innerJoin("users as u", "u.id", "f.user_id").select(["u.email", "u.first_name", "u.last_name"]);
  if (filter.id !== undefined) q = q.where("f.id", "=", filter.id);
  if (filter.status) q = q.where("f.status", "=", filter.status);
  const rows = await q.orderBy("f.created_at", "desc").orderBy("f.id", "desc").limit(200).execute();
  const windowDays = await cancelWindowDays(scope.app);
  return rows.map((r) => ({
    ...toView(r, windowDays),
    researcher: { id: r.user_id, email: r.email, name: `${r.first_name ?? ""} ${r.last_name ?? ""}`.trim() },
  }));
}

/** Every researcher's fapiaos, newest first, optionally of one status. Errors: `not-allowed`. */
export async function staffListFapiaos(scope: Scope, filter: { status?: FapiaoStatus }): Promise<Result<StaffFapiaoRow[]>> {
  if (!staffId(scope)) return fail("not-allowed");
  return ok(await staffRows(scope, filter));
}

/** One fapiao for the staff. Errors: `not-allowed`, `not-found`. */
export async function staffFapiao(scope: Scope, id: number): Promise<Result<StaffFapiaoRow>> {
  if (!staffId(scope)) return fail("not-allowed");
  if (!Number.isSafeInteger(id) || id <= 0) return fail("not-found");
  const [row] = await staffRows(scope, { id });
  return row ? ok(row) : fail("not-found");
}

/**
 * Marks a requested fapiao issued from the staff's multipart form: `fapiaoNumber` and the PDF in `pdf`. The file is
 * stored (owned by the researcher) while the body streams; refused input keeps nothing. Errors: `not-allowed`,
 * `not-found`, `upload-rate-limited`, `fapiao-already-issued`, field errors on fapiaoNumber and pdf.
 */
export async function staffIssueFapiao(scope: Scope, id: number, body: MultipartBody): Promise<Result<StaffFapiaoRow>> {
  const actor = staffId(scope);
  if (!actor) return fail("not-allowed");
  const current = await staffFapiao(scope, id);
  if (!current.ok) return current;
  if (!body.isMultipart) return invalid({ pdf: "fapiao:errors.pdf-required" });
  const limit = await checkUploadRateLimit(scope.app, { userId: actor, ip: scope.ip });
  if (!limit.allowed) return fail("upload-rate-limited");
  const owner = { ownerUserId: current.value.researcher.id };
  const fields: Record<string, string> = {};
  let stored: Promise<StoredFile | string> | null = null;
  try {
    await body.read({
      maxBody: FAPIAO_PDF_MAX_BYTES + 64 * 1024,
      limits: { fileSize: FAPIAO_PDF_MAX_BYTES + 1, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 50 },
      onField(name, value) {
        fields[name] = value;
      },
      onFile({ field, filename, stream }) {
        if (field !== "pdf" || stored || !/\.pdf$/i.test(filename)) {
          stream.resume();
          if (field === "pdf" && !stored) stored = Promise.resolve("pdf-invalid");
          return;
        }
        // Checked by content as every upload is (server/documents/filetype.ts): a renamed text file is refused.
        stored = saveUpload(scope.app, stream, {
          kind: "deliverable",
          originalName: filename,
          ownerUserId: owner.ownerUserId,
          analyse: false,
          limits: { maxFileBytes: FAPIAO_PDF_MAX_BYTES },
        }).catch((e: unknown) => {
          stream.resume();
          if (e instanceof UploadError) return e.code === "file-too-large" ? "pdf-too-large" : "pdf-invalid";
          throw e;
        });
        return stored;
      },
    });
  } catch (e) {
    const file = stored ? await (stored as Promise<StoredFile | string>).catch(() => null) : null;
    if (file && typeof file !== "string") await deleteFile(scope.app, file.id, owner);
    if (e instanceof MultipartError)
      return invalid({ pdf: e.code === "payload-too-large" ? "fapiao:errors.pdf-too-large" : "fapiao:errors.pdf-required" });
    throw e;
  }
  const file = stored ? await (stored as Promise<StoredFile | string>) : "pdf-required";
  const errors: Record<string, string> = {};
  const fapiaoNumber = (fields.fapiaoNumber ?? "").trim().toUpperCase();
  const numberError = fapiaoNumberError(fapiaoNumber);
  if (numberError) errors.fapiaoNumber = numberError;
  if (typeof file === "string") errors.pdf = `fapiao:errors.${file}`;
  else if (file.contentType !== "application/pdf") errors.pdf = "fapiao:errors.pdf-invalid";
  if (Object.keys(errors).length) {
    if (typeof file !== "string") await deleteFile(scope.app, file.id, owner);
    return invalid(errors);
  }
  const pdf = file as StoredFile;
  const updated = await scope.app.db
    .updateTable("fapiaos")
    .set({ status: "issued", fapiao_number: fapiaoNumber, file_path: pdf.id, issued_at: new Date(), issued_by: actor })
    .where("id", "=", id)
    .where("status", "=", "requested")
    .returning("id")
    .executeTakeFirst();
  if (!updated) {
    // Issued (or cancelled) meanwhile by someone else: this upload is not kept.
    await deleteFile(scope.app, pdf.id, owner);
    return fail("fapiao-already-issued");
  }
  return staffFapiao(scope, id);
}

/** Cancels a fapiao at any time (staff). Errors: `not-allowed`, `not-found`, `fapiao-not-cancellable` (already cancelled). */
export async function staffCancelFapiao(scope: Scope, id: number): Promise<Result<StaffFapiaoRow>> {
  const actor = staffId(scope);
  if (!actor) return fail("not-allowed");
  const current = await staffFapiao(scope, id);
  if (!current.ok) return current;
  const r = await scope.app.db
    .updateTable("fapiaos")
    .set({ status: "cancelled", cancelled_at: new Date(), cancelled_by: actor })
    .where("id", "=", id)
    .where("status", "<>", "cancelled")
    .returning("id")
    .executeTakeFirst();
  if (!r) return fail("fapiao-not-cancellable");
  return staffFapiao(scope, id);
}
