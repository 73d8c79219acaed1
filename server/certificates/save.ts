// The researcher's part of a certificate (spec 2 §2, §8): the title and the authors printed on it. Only the
// order's owner may change them; another user's code is "not found". A certificate without authors cannot be
// viewed, so the first save is what makes it viewable.
import { fail, invalid, ok, type FieldErrors, type Result } from "#common/result";
import { CERTIFICATE_AUTHORS_MAX, CERTIFICATE_TITLE_MAX, type CertificateDetails } from "#common/certificate/schemas";
import type { OrderStatus } from "#common/orders/status";
import { recordHistory } from "../orders/life";
import type { Scope } from "../scope";
import { findCertificateByCode, type CertificateRecord } from "./lookup";
import { normalizeCertificateCode } from "./issue";

/** Collapses runs of spaces and trims; keeps line breaks out of a one-line title. */
const clean = (value: string | undefined | null) => (value ?? "").replace(/\s+/g, " ").trim();

/**
 * Saves the title and authors of the acting user's certificate. Errors: `not-found` (unknown code, another
 * user's certificate, a visitor), field errors `certificate:errors.title-required` / `title-too-long` /
 * `authors-required` / `authors-too-long`. Success is the certificate as saved.
 */
export async function saveCertificateDetails(
  scope: Scope,
  codeInput: string,
  details: CertificateDetails,
): Promise<Result<CertificateRecord>> {
  const code = normalizeCertificateCode(codeInput);
  if (!code || !scope.userId) return fail("not-found");
  const title = clean(details.title);
  const authors = clean(details.authors);
  const errors: FieldErrors = {};
  if (!title) errors.title = "certificate:errors.title-required";
  else if (title.length > CERTIFICATE_TITLE_MAX) errors.title = "certificate:errors.title-too-long";
  if (!authors) errors.authors = "certificate:errors.authors-required";
  else if (authors.length > CERTIFICATE_AUTHORS_MAX) errors.authors = "certificate:errors.authors-too-long";
  if (Object.keys(errors).length) return invalid(errors);

  const userId = scope.userId;
  const saved = await scope.app.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("certificates as c")
      .innerJoin("orders as o", "o.id", "c.order_id")
      .select(["c.order_id", "c.title", "c.authors", "o.status"])
      .where("c.code", "=", code)
      .where("o.user_id", "=", userId)
      .forUpdate("c")
      .executeTakeFirst();
    if (!row) return false;
    if (row.title === title && row.authors === authors) return true;
    await trx.updateTable("certificates").set({ title, authors, updated_at: new Date() }).where("code", "=", code).execute();
    const status = row.status as OrderStatus;
    await recordHistory(
      trx,
      row.order_id,
      "certificate-edited",
      status,
      status,
      { userId, impersonatorId: scope.impersonatorId },
      {
        data: { code },
      },
    );
    return true;
  });
  if (!saved) return fail("not-found");
  const record = await findCertificateByCode(scope.app.db, code);
  return record ? ok(record) : fail("not-found");
}
