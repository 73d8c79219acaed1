// The researcher's fapiaos (issue 13 §4, spec 2 §2 "Invoices" and "Prepay", §5): one for a paid invoice or
// prepayment of their own, in a localisation that processes fapiao after payment, one live fapiao per document;
// the list, the cancellation, the issued PDF, organisation-name suggestions; and the order fapiao the payment form
// asked for, stored when the payment is made.
import { fail, invalid, ok, type Result } from "#common/result";
import { US_RETAINER_PATTERN } from "#common/fapiao/rules";
import {
  ORGANIZATION_QUERY_MIN,
  ORGANIZATION_SUGGESTIONS_MAX,
  checkStoredFapiao,
  type OrderFapiaoInput,
  type StoredFapiaoForm,
} from "#common/fapiao/schemas";
import type { AppContext } from "../context";
import type { DB } from "../db";
import type { Scope } from "../scope";
import { openFile, type OpenedFile } from "../documents/storage";
import { afterPaymentLocalizations, fapiaoEnabled } from "./availability";
import { cancelWindowDays, fapiaoQuery, toView, type FapiaoView } from "./records";

/** The paid document a stored fapiao is for: an invoice, or a prepayment (retainer invoice). */
export type FapiaoDocument = { invoiceNumber: string } | { retainerInvoiceNumber: string };

export interface FapiaoTarget {
  kind: "invoice" | "prepayment";
  number: string;
  /** The order the invoice bills (the page's heading names it), or null for a prepayment. */
  orderNumber: string | null;
  paid: boolean;
  /** The live (requested or issued) fapiao of the document, if any. */
  live: FapiaoView | null;
}

const isInvoice = (d: FapiaoDocument): d is { invoiceNumber: string } => "invoiceNumber" in d;

/**
 * The user's document and its live fapiao. Errors: `not-found` (unknown, another user's), `fapiao-not-available`
 * (the feature is off, or the document's localisation does not process fapiao after payment: ask support),
 * `fapiao-us-prepayment` (a prepayment of the US entity carries no Chinese fapiao).
 */
export async function fapiaoTarget(scope: Scope, doc: FapiaoDocument, db: DB = scope.app.db): Promise<Result<FapiaoTarget>> {
  if (!scope.userId) return fail("not-found");
  let found: { number: string; orderNumber: string | null; localization: string; paid: boolean } | undefined;
  if (isInvoice(doc)) {
    const r = await db
      .selectFrom("invoices as i")
      .innerJoin("users as u", "u.id", "i.user_id")
      .innerJoin("orders as o", "o.id", "i.order_id")
      .select(["i.number", "i.status", "o.external_id", "i.localization", "u.localization as user_localization"])
      .where("i.number", "=", doc.invoiceNumber)
      .where("i.kind", "=", "order")
      .where("i.user_id", "=", scope.userId)
      .executeTakeFirst();
    if (r)
      found = {
        number: r.number,
        orderNumber: r.external_id,
        localization: r.localization ?? r.user_localization,
        paid: r.status === "paid",
      };
  } else {
    const r = await db
      .selectFrom("invoices")
      .select(["number", "status", "localization"])
      .where("number", "=", doc.retainerInvoiceNumber)
      .where("kind", "=", "prepayment")
      .where("user_id", "=", scope.userId)
      .executeTakeFirst();
    if (r) found = { number: r.number, orderNumber: null, localization: r.localization ?? "", paid: r.status === "paid" };
  }
  if (!found) return fail("not-found");
  if (!isInvoice(doc) && US_RETAINER_PATTERN.test(found.number)) return fail("fapiao-us-prepayment");
  const [enabled, after] = await Promise.all([fapiaoEnabled(scope.app), afterPaymentLocalizations(scope.app)]);
  if (!enabled || !after.has(found.localization)) return fail("fapiao-not-available");
  const windowDays = await cancelWindowDays(scope.app);
  const live = await fapiaoQuery(db)
    .where(isInvoice(doc) ? "f.invoice_number" : "f.retainer_invoice_number", "=", found.number)
    .where("f.status", "<>", "cancelled")
    .executeTakeFirst();
  return ok({
    kind: isInvoice(doc) ? "invoice" : "prepayment",
    number: found.number,
    orderNumber: found.orderNumber,
    paid: found.paid,
    live: live ? toView(live, windowDays) : null,
  });
}

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === "23505";

/**
 * Requests a fapiao for a paid document of the user (the fapiao pages, POST /api/fapiao). Errors: fapiaoTarget's,
 * `invoice-not-paid`, `fapiao-already-requested` (one live fapiao per document), field errors of the form.
 */
export async function createStoredFapiao(scope: Scope, doc: FapiaoDocument, form: StoredFapiaoForm): Promise<Result<FapiaoView>> {
  const userId = scope.userId;
  if (!userId) return fail("not-found");
  const checked = checkStoredFapiao(form);
  try {
    return await scope.app.db.transaction().execute(async (trx): Promise<Result<FapiaoView>> => {
      // The document's row is the lock: two requests for one invoice queue here and the second sees the first.
      if (isInvoice(doc))
        await trx.selectFrom("invoices").select("number").where("number", "=", doc.invoiceNumber).forUpdate().executeTakeFirst();
      else await trx.selectFrom("invoices").select("number").where("number", "=", doc.retainerInvoiceNumber).forUpdate().executeTakeFirst();
      const target = await fapiaoTarget(scope, doc, trx);
      if (!target.ok) return target;
      if (!target.value.paid) return fail("invoice-not-paid");
      if (target.value.live) return fail("fapiao-already-requested");
      if (!checked.value) return invalid(checked.errors);
      const input = checked.value;
      const row = await trx
        .insertInto("fapiaos")
        .values({
          user_id: userId,
          invoice_number: target.value.kind === "invoice" ? target.value.number : null,
          retainer_invoice_number: target.value.kind === "prepayment" ? target.value.number : null,
          origin: "stored",
          type: input.type,
          delivery_timeline: input.deliveryTimeline,
          title: input.title,
          taxpayer_number: input.taxpayerNumber,
          special_instructions: input.specialInstructions,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const view = await fapiaoQuery(trx).where("f.id", "=", row.id).executeTakeFirstOrThrow();
      return ok(toView(view, await cancelWindowDays(scope.app)));
    });
  } catch (e) {
    if (isUniqueViolation(e)) return fail("fapiao-already-requested");
    throw e;
  }
}

/**
 * The user's fapiaos, newest first. `context: "Paddle"` keeps those of purchases paid online outside an order's
 * invoice (the "Paddle" checkout of digital products and prepayments): today the prepayments' fapiaos.
 */
export async function listFapiaos(scope: Scope, options: { context?: "Paddle" } = {}): Promise<Result<FapiaoView[]>> {
  if (!scope.userId) return fail("not-found");
  let q = fapiaoQuery(scope.app.db).where("f.user_id", "=", scope.userId);
  if (options.context === "Paddle") q = q.where("f.retainer_invoice_number", "is not", null);
  const rows = await q.orderBy("f.created_at", "desc").orderBy("f.id", "desc").limit(200).execute();
  const windowDays = await cancelWindowDays(scope.app);
  return ok(rows.map((r) => toView(r, windowDays)));
}

/** The user's own fapiao (another user's is not found). */
export async function ownFapiao(scope: Scope, id: number): Promise<Result<FapiaoView>> {
  if (!scope.userId || !Number.isSafeInteger(id) || id <= 0) return fail("not-found");
  const row = await fapiaoQuery(scope.app.db).where("f.id", "=", id).where("f.user_id", "=", scope.userId).executeTakeFirst();
  return row ? ok(toView(row, await cancelWindowDays(scope.app))) : fail("not-found");
}

/**
 * Cancels the user's issued fapiao while its payment is under the window's age (spec 2 §5). Errors: `not-found`,
 * `fapiao-not-cancellable` (still requested, already cancelled, or the payment is older than the window).
 */
export async function cancelFapiao(scope: Scope, id: number): Promise<Result<FapiaoView>> {
  const userId = scope.userId;
  if (!userId || !Number.isSafeInteger(id) || id <= 0) return fail("not-found");
  const windowDays = await cancelWindowDays(scope.app);
  return scope.app.db.transaction().execute(async (trx): Promise<Result<FapiaoView>> => {
    const locked = await trx
      .selectFrom("fapiaos")
      .select("id")
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .forUpdate()
      .executeTakeFirst();
    if (!locked) return fail("not-found");
    const row = await fapiaoQuery(trx).where("f.id", "=", id).executeTakeFirstOrThrow();
    if (!toView(row, windowDays).cancellable) return fail("fapiao-not-cancellable");
    await trx
      .updateTable("fapiaos")
      .set({ status: "cancelled", cancelled_at: new Date(), cancelled_by: scope.impersonatorId ?? userId })
      .where("id", "=", id)
      .execute();
    return ok(toView(await fapiaoQuery(trx).where("f.id", "=", id).executeTakeFirstOrThrow(), windowDays));
  });
}

/**
 * The issued fapiao's PDF, for its owner or a staff member acting as themselves (anyone else, or no PDF uploaded:
 * not found). A cancelled fapiao's PDF is no longer offered to the researcher.
 */
export async function fapiaoPdf(scope: Scope, id: number): Promise<Result<OpenedFile>> {
  if (!Number.isSafeInteger(id) || id <= 0) return fail("not-found");
  const staff = Boolean(scope.session?.user.isStaff && !scope.session.impersonatorId);
  const row = await scope.app.db.selectFrom("fapiaos").select(["file_path", "user_id", "status"]).where("id", "=", id).executeTakeFirst();
  if (!row || (!staff && row.user_id !== scope.userId)) return fail("not-found");
  if (!row.file_path || (!staff && row.status === "cancelled")) return fail("not-found");
  const file = await openFile(scope.app, row.file_path, { ownerUserId: row.user_id });
  return file ? ok(file) : fail("not-found");
}

export interface OrganizationSuggestion {
  name: string;
  /** Only on the user's own earlier fapiaos: another user's taxpayer number is never shown. */
  taxpayerNumber: string | null;
}

/**
 * Organisation names fapiao were made out to that contain `name` (from 2 characters, at most 10): the user's own
 * first, with the taxpayer number they used; then names other researchers used, without theirs. From our own
 * fapiaos table; no third-party registry is asked.
 */
export async function organizationSuggestions(scope: Scope, name: string): Promise<Result<OrganizationSuggestion[]>> {
  if (!scope.userId) return fail("not-found");
  const needle = name.trim().toLowerCase();
  if ([...needle].length < ORGANIZATION_QUERY_MIN) return ok([]);
  const like = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const own = await scope.app.db
    .selectFrom("fapiaos")
    .select(["title", "taxpayer_number"])
    .where("user_id", "=", scope.userId)
    .where((eb) => eb(eb.fn("lower", ["title"]), "like", like))
    .orderBy("created_at", "desc")
    .limit(50)
    .execute();
  const out: OrganizationSuggestion[] = [];
  const seen = new Set<string>();
  for (const r of own)
    if (!seen.has(r.title) && out.length < ORGANIZATION_SUGGESTIONS_MAX) {
      seen.add(r.title);
      out.push({ name: r.title, taxpayerNumber: r.taxpayer_number });
    }
  if (out.length < ORGANIZATION_SUGGESTIONS_MAX) {
    const others = await scope.app.db
      .selectFrom("fapiaos")
      .select("title")
      .distinct()
      .where("user_id", "<>", scope.userId)
      .where((eb) => eb(eb.fn("lower", ["title"]), "like", like))
      .orderBy("title")
      .limit(ORGANIZATION_SUGGESTIONS_MAX * 2)
      .execute();
    for (const r of others)
      if (!seen.has(r.title) && out.length < ORGANIZATION_SUGGESTIONS_MAX) {
        seen.add(r.title);
        out.push({ name: r.title, taxpayerNumber: null });
      }
  }
  return ok(out);
}

/**
 * Stores the order fapiao the payment form asked for, once the payment or the order was made (server/payments/
 * service.ts): a requested fapiao of origin 'order' for the invoice. A second call for the same invoice (a replay)
 * keeps the first.
 */
export async function requestOrderFapiao(app: AppContext, userId: number, invoiceNumber: string, input: OrderFapiaoInput): Promise<void> {
  await app.db
    .insertInto("fapiaos")
    .values({
      user_id: userId,
      invoice_number: invoiceNumber,
      origin: "order",
      type: input.type,
      service_type: input.serviceType,
      title: input.organizationName,
      taxpayer_number: input.taxpayerNumber,
      contact_email: input.contactEmail,
      contact_phone: input.contactPhone,
      shipping_address: input.shippingAddress,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The payment service's one call: stores the submission's order fapiao, if it asked for one, for the invoice. */
export async function storeOrderFapiao(
  app: AppContext,
  userId: number,
  invoiceNumber: string | null | undefined,
  submission: { fapiao?: OrderFapiaoInput | null },
): Promise<void> {
  if (submission.fapiao && invoiceNumber) await requestOrderFapiao(app, userId, invoiceNumber, submission.fapiao);
}

/** The live fapiao of each of these invoices of the user (the invoice list's fapiao column). */
export async function fapiaosOfInvoices(scope: Scope, invoiceNumbers: string[]): Promise<Map<string, FapiaoView>> {
  if (!scope.userId || invoiceNumbers.length === 0) return new Map();
  const rows = await fapiaoQuery(scope.app.db)
    .where("f.user_id", "=", scope.userId)
    .where("f.invoice_number", "in", invoiceNumbers)
    .where("f.status", "<>", "cancelled")
    .execute();
  const windowDays = await cancelWindowDays(scope.app);
  return new Map(rows.map((r) => [r.invoice_number!, toView(r, windowDays)]));
}

/** What an order panel offers of an invoice's fapiao (spec 2 §2 "Order panel": links to invoices and fapiao). */
export interface PanelFapiao {
  /** The live fapiao: its status, and its PDF once staff uploaded it. */
  live: { id: number; status: FapiaoView["status"]; hasPdf: boolean } | null;
  /** No live fapiao yet, the invoice is paid and its localisation processes fapiao after payment: a request link. */
  requestable: boolean;
}

/**
 * The fapiao part of the dashboard's order panels, for these invoices of the acting user (another user's give
 * nothing): the live fapiao wherever it was asked for, or the request where the invoice list would offer it.
 */
export async function panelFapiaos(scope: Scope, invoiceNumbers: string[]): Promise<Map<string, PanelFapiao>> {
  if (!scope.userId || invoiceNumbers.length === 0) return new Map();
  const [rows, live, enabled, after] = await Promise.all([
    scope.app.db
      .selectFrom("invoices as i")
      .innerJoin("users as u", "u.id", "i.user_id")
      .select(["i.number", "i.status", "i.localization", "u.localization as user_localization"])
      .where("i.user_id", "=", scope.userId)
      .where("i.kind", "=", "order")
      .where("i.number", "in", invoiceNumbers)
      .execute(),
    fapiaosOfInvoices(scope, invoiceNumbers),
    fapiaoEnabled(scope.app),
    afterPaymentLocalizations(scope.app),
  ]);
  const out = new Map<string, PanelFapiao>();
  for (const r of rows) {
    const f = live.get(r.number);
    const requestable = !f && enabled && r.status === "paid" && after.has(r.localization ?? r.user_localization);
    if (f || requestable) out.set(r.number, { live: f ? { id: f.id, status: f.status, hasPdf: f.hasPdf } : null, requestable });
  }
  return out;
}
