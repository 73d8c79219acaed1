// Fapiao rows as the researcher and the staff see them, and the cancellation rule (spec 2 §5: an issued fapiao may
// be cancelled while its payment is under fapiaoCancelWindowDays old; staff at any time).
import { sql } from "kysely";
import type { FapiaoStatus } from "../../db/types-prepay";
import type { FapiaoType } from "#common/fapiao/schemas";
import type { AppContext } from "../context";
import type { DB } from "../db";

export interface FapiaoView {
  id: number;
  origin: "order" | "stored";
  invoiceNumber: string | null;
  retainerInvoiceNumber: string | null;
  type: FapiaoType;
  serviceType: string | null;
  deliveryTimeline: string | null;
  title: string;
  taxpayerNumber: string | null;
  specialInstructions: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
  shippingAddress: string | null;
  status: FapiaoStatus;
  /** The number printed on the issued fapiao. */
  fapiaoNumber: string | null;
  /** Staff uploaded the issued fapiao's PDF: GET /api/fapiao/{id}/pdf. */
  hasPdf: boolean;
  createdAt: string;
  issuedAt: string | null;
  cancelledAt: string | null;
  /** When the money for its document arrived (the cancellation window starts there), or null while unpaid. */
  paidAt: string | null;
  /** The researcher may cancel it now. */
  cancellable: boolean;
}

const DAY_MS = 24 * 3600 * 1000;

export async function cancelWindowDays(app: AppContext): Promise<number> {
  return Number((await app.config.snapshot()).config.fapiaoCancelWindowDays ?? 365);
}

/** Issued, and its payment under the window's age: the researcher's own cancellation is offered. */
export function researcherMayCancel(f: { status: FapiaoStatus; paidAt: string | null }, windowDays: number, now = Date.now()): boolean {
  if (f.status !== "issued" || !f.paidAt) return false;
  return now - Date.parse(f.paidAt) < windowDays * DAY_MS;
}

/** Fapiao rows with their document's payment date; filter with `where`. */
export function fapiaoQuery(db: DB) {
  return db
    .selectFrom("fapiaos as f")
    .selectAll("f")
    .select((eb) => [
      eb
        .selectFrom("invoice_payments as p")
        .select(sql<Date>`max(p.created_at)`.as("paid"))
        .whereRef("p.invoice_number", "=", "f.invoice_number")
        .where("p.kind", "=", "payment")
        .as("invoice_paid_at"),
      eb
        .selectFrom("invoices as r")
        .select("r.paid_at")
        .whereRef("r.number", "=", "f.retainer_invoice_number")
        .where("r.kind", "=", "prepayment")
        .as("retainer_paid_at"),
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof fapiaoQuery>["executeTakeFirstOrThrow"]>>;

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export function toView(r: Row, windowDays: number): FapiaoView {
  const paidAt = iso(r.invoice_paid_at ?? r.retainer_paid_at);
  return {
    id: r.id,
    origin: r.origin,
    invoiceNumber: r.invoice_number,
    retainerInvoiceNumber: r.retainer_invoice_number,
    type: r.type,
    serviceType: r.service_type,
    deliveryTimeline: r.delivery_timeline,
    title: r.title,
    taxpayerNumber: r.taxpayer_number,
    specialInstructions: r.special_instructions,
    contactEmail: r.contact_email,
    contactPhone: r.contact_phone,
    shippingAddress: r.shipping_address,
    status: r.status,
    fapiaoNumber: r.fapiao_number,
    hasPdf: Boolean(r.file_path),
    createdAt: new Date(r.created_at).toISOString(),
    issuedAt: iso(r.issued_at),
    cancelledAt: iso(r.cancelled_at),
    paidAt,
    cancellable: researcherMayCancel({ status: r.status, paidAt }, windowDays),
  };
}
