// Finding a certificate: by its verification code (anyone holding the code, rate limited per client address
// against enumeration), or by the order it belongs to (the owner). Issue 11 §6, spec 2 §2 "Certificates".
import { fail, ok, type Result } from "#common/result";
import type { CertifiedFile } from "../../db/types-orders";
import type { AppContext } from "../context";
import type { DB } from "../db";
import { rateLimit } from "../kernel/rate-limit";
import type { Scope } from "../scope";
import { flagContextOf, orderBaseQuery, toOrderView } from "../orders/read";
import { localizationTimeZone } from "../config";
import { normalizeCertificateCode } from "./issue";

export interface CertificateView {
  code: string;
  /** The order's number ("manuscript" in the verification table). */
  externalId: string;
  title: string;
  authors: string;
  /** Catalogue name keys of the services certified (translated by the reader). */
  services: string[];
  /** The delivered files as certified: name, size and SHA-256. */
  files: CertifiedFile[];
  /** The language the certificate is printed in (the researcher's). */
  lang: string;
  issuedAt: string;
  updatedAt: string;
  /** A certificate without authors cannot be viewed (spec 2 §8). */
  viewable: boolean;
}

/** A certificate with the server-only facts of its order (never sent to a client as such). */
export interface CertificateRecord extends CertificateView {
  orderId: number;
  ownerUserId: number;
  /** The owner's localisation: its time zone dates the certificate, on the PDF and the verify page alike. */
  ownerLocalization: string;
}

const parse = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;

function certificateQuery(db: DB) {
  return db
    .selectFrom("certificates as c")
    .innerJoin("orders as o", "o.id", "c.order_id")
    .innerJoin("users as u", "u.id", "o.user_id")
    .select([
      "u.localization as owner_localization",
      "c.order_id",
      "c.code",
      "c.title",
      "c.authors",
      "c.services",
      "c.files",
      "c.lang",
      "c.issued_at",
      "c.updated_at",
      "o.external_id",
      "o.user_id",
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof certificateQuery>["executeTakeFirstOrThrow"]>>;

function toRecord(r: Row): CertificateRecord {
  return {
    orderId: r.order_id,
    ownerUserId: r.user_id,
    ownerLocalization: r.owner_localization,
    code: r.code,
    externalId: r.external_id,
    title: r.title,
    authors: r.authors,
    services: parse<string[]>(r.services) ?? [],
    files: parse<CertifiedFile[]>(r.files) ?? [],
    lang: r.lang,
    issuedAt: new Date(r.issued_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    viewable: r.authors.trim() !== "",
  };
}

/** The public face of a record (no internal ids). */
export function publicCertificate(record: CertificateRecord): CertificateView {
  const { orderId: _orderId, ownerUserId: _owner, ownerLocalization: _localization, ...view } = record;
  return view;
}

/**
 * The time zone a certificate is dated in: its owner's localisation's (Asia/Shanghai for China). The PDF and the
 * verify page both use it, so the printed date is the page's date (issue 22 item 2).
 */
export async function certificateTimeZone(app: AppContext, record: Pick<CertificateRecord, "ownerLocalization">): Promise<string> {
  return localizationTimeZone((await app.config.snapshot()).localizations, record.ownerLocalization);
}

/** The certificate of a code as typed (normalised first: junk never reaches the database), or null. */
export async function findCertificateByCode(db: DB, input: string | null | undefined): Promise<CertificateRecord | null> {
  const code = normalizeCertificateCode(input);
  if (!code) return null;
  const row = await certificateQuery(db).where("c.code", "=", code).executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** The certificate of one of the acting user's orders (another user's order, or none issued yet: null). */
export async function certificateForOrder(scope: Scope, externalId: string): Promise<CertificateRecord | null> {
  if (!scope.userId) return null;
  const row = await certificateQuery(scope.app.db)
    .where("o.external_id", "=", externalId)
    .where("o.user_id", "=", scope.userId)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

/**
 * Lookups by code per client address per 10 minutes (issue 11 §6: against enumeration of codes). Configurable
 * as `rateLimits.certificateLookupsPer10Minutes`; a configured object that does not name it keeps the default.
 */
export const CERTIFICATE_LIMIT_DEFAULTS = { certificateLookupsPer10Minutes: 30 } as const;

async function lookupLimit(app: AppContext, ip: string): Promise<Result<undefined>> {
  const configured = ((await app.config.snapshot()).config.rateLimits as Record<string, unknown>).certificateLookupsPer10Minutes;
  const limit =
    typeof configured === "number" && Number.isFinite(configured) && configured > 0
      ? configured
      : CERTIFICATE_LIMIT_DEFAULTS.certificateLookupsPer10Minutes;
  const r = await rateLimit(app.cache, `certificate-lookup:ip:${ip}`, limit, 600);
  return r.allowed ? ok() : fail("too-many-requests", { retryAfterSeconds: r.retryAfterSeconds });
}

/**
 * A certificate looked up by its code by anyone (the verification page, the public API). Every lookup counts
 * against the client address, found or not, so that the answer over the limit (429) says nothing about the
 * code; only the signed-in owner reading their own certificate (the PDF embedded on their order) is not counted.
 * Errors: `too-many-requests` (details.retryAfterSeconds), `certificate-verification-error` (unknown code).
 */
export async function lookupCertificate(
  scope: Scope,
  input: string | null | undefined,
  options: { counted?: boolean } = {},
): Promise<Result<CertificateRecord>> {
  const record = await findCertificateByCode(scope.app.db, input);
  const owner = record !== null && scope.userId !== null && record.ownerUserId === scope.userId;
  if (!owner && !options.counted) {
    const limited = await lookupLimit(scope.app, scope.ip);
    if (!limited.ok) return limited;
  }
  return record ? ok(record) : fail("certificate-verification-error");
}

/**
 * Counts one lookup by code against the client address before anything else is done: for the file check, whose
 * code may only be known once its body is read, the limit must hold before the body is (issue 20 §1). The lookup
 * that follows passes `counted` so it is not counted twice.
 */
export async function countCertificateLookup(scope: Scope): Promise<Result<undefined>> {
  return lookupLimit(scope.app, scope.ip);
}

/**
 * Whether the files of a certificate's order may be downloaded now (the order's downloadAvailable flag, derived
 * in server/orders/life.ts): a certificate code opens the files only when their owner could download them.
 */
export async function certificateDownloadAvailable(scope: Scope, record: CertificateRecord): Promise<boolean> {
  const row = await orderBaseQuery(scope.app.db).where("o.id", "=", record.orderId).executeTakeFirst();
  if (!row) return false;
  // The certificate's reader is not the researcher: the flags are those of the order as its owner sees it.
  return toOrderView(row, await flagContextOf({ app: scope.app, impersonatorId: null })).flags.downloadAvailable;
}

/** The acting user's own certificate by its code (another user's, or a visitor: null). Not rate limited. */
export async function ownCertificate(scope: Scope, code: string | null | undefined): Promise<CertificateRecord | null> {
  if (!scope.userId) return null;
  const record = await findCertificateByCode(scope.app.db, code);
  return record && record.ownerUserId === scope.userId ? record : null;
}
