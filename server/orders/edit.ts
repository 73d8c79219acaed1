// Editing a placed order (issue 11 §4, spec 2 §2 "Order details", §4 "Edit mode", §5): its services, deadline,
// style of English, target journal and the answers its services ask for, and the extra notification e-mails.
// Ownership first (another user's order is not found), then the order's state (placed or in progress), then
// the version the form was read at (a stale form is a conflict), then the values. One transaction: the order
// row is locked, its unpaid invoice follows a change of total, a history row "edited" names the change.
// ADR 032 records the pricing decisions (placed lines keep their price; a paid order takes no change of total).
import { fail, invalid, ok, type Err, type FieldErrors, type Result } from "#common/result";
import { emailField } from "#common/auth/schemas";
import type { Scope } from "../scope";
import type { DB } from "../db";
import { businessDeadline, getCatalogue, priceSelection, type Catalogue, type PricedLine, type ServiceSelection } from "../catalogue";
import { allowedExtensions } from "../documents/storage";
import { auditImpersonated } from "../kernel/audit";
import { afterOrderChange, recordHistory } from "./life";
import { EXTERNAL_ID } from "./read";
import { checkAnswers, detailsOf, servicesByRef, type ServiceDetails } from "./service-details";
import type { OrderStatus } from "#common/orders/status";
import { JOURNAL_NAME_MAX } from "#common/order-form/constants";

/** States in which the researcher may still change the order (work not delivered, not cancelled). */
export const EDITABLE_STATUSES: readonly string[] = ["placed", "in-progress"];
/** Groups whose services may be added to a placed order (add-ons; the main service is chosen in the wizard). */
const ADDABLE_GROUPS = new Set(["formatting", "figures", "journalrec"]);
// The journal name's limit is the order form's (the details step and this edit form take the same name).
export { JOURNAL_NAME_MAX } from "#common/order-form/constants";
export const NOTIFICATION_EMAILS_MAX = 5;
export const STYLES_OF_ENGLISH = ["british", "american"] as const;

/** What a line of a placed order holds (server/catalogue's PricedLine, as stored in orders.line_items). */
type StoredLine = Partial<PricedLine> & {
  serviceIdentity: string;
  nameKey: string;
  quantity: number;
  listPrice: number;
  totalPrice: number;
};

export interface ServiceOption {
  serviceIdentity: string;
  serviceSlug: string;
  nameKey: string;
  type: string;
  onOrder: boolean;
  /** An add-on not yet on the order. */
  addOn: boolean;
  canBeRemovedFromOrder: boolean;
  quantity: number;
  /** The line's price (on the order) or what adding it costs, in minor units of the order's currency. */
  price: number;
  /** When this service alone would be delivered (ISO), or null (by quote). */
  deadline: string | null;
  wordCount: { min: number; max: number | null };
}

interface OrderRowForEdit {
  id: number;
  external_id: string;
  status: string;
  version: number;
  paid: boolean;
  created_at: Date;
  deadline: Date | null;
  delivery_tier: string;
  currency_iso: string;
  word_count: number | null;
  language_id: number | null;
  area_of_study_id: number | null;
  total: string;
  subtotal: string;
  line_items: unknown;
  style_of_english: string | null;
  journal: { name: string; url?: string } | null;
  service_answers: unknown;
  rework_of_order_id: number | null;
}

const parse = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;

function ownedOrder(db: DB, userId: number, externalId: string) {
  return db
    .selectFrom("orders")
    .select([
      "id",
      "external_id",
      "status",
      "version",
      "paid",
      "created_at",
      "deadline",
      "delivery_tier",
      "currency_iso",
      "word_count",
      "language_id",
      "area_of_study_id",
      "total",
      "subtotal",
      "line_items",
      "style_of_english",
      "journal",
      "service_answers",
      "rework_of_order_id",
    ])
    .where("user_id", "=", userId)
    .where("external_id", "=", externalId);
}

const linesOf = (order: Pick<OrderRowForEdit, "line_items">) => parse<StoredLine[]>(order.line_items) ?? [];
const slugOf = (catalogue: Catalogue, line: StoredLine) =>
  line.serviceSlug ?? catalogue.services.find((s) => s.identity === line.serviceIdentity)?.slug ?? "";

/** The engine's price of a selection for this order (its currency, word count, language, tier, the user's calendar). */
function priceFor(scope: Scope, catalogue: Catalogue, order: OrderRowForEdit, selections: ServiceSelection[]) {
  try {
    return priceSelection(catalogue, {
      currencyIso: order.currency_iso.trim(),
      wordCount: Math.max(order.word_count ?? 1, 1),
      languageId: order.language_id ?? 1,
      areaOfStudyId: order.area_of_study_id,
      localization: scope.localization,
      deliveryTier: order.delivery_tier === "rush" || order.delivery_tier === "express" ? order.delivery_tier : "standard",
      selections,
      now: new Date(),
      impersonating: scope.impersonatorId !== null,
    });
  } catch {
    return null;
  }
}

/** When one service of the order is due: its business days counted from the order's placing. */
function lineDeadline(scope: Scope, catalogue: Catalogue, order: OrderRowForEdit, days: number | null | undefined): Date | null {
  if (days === null || days === undefined) return null;
  const calendar = catalogue.calendars[scope.localization] ?? catalogue.calendars.US ?? { timeZone: "UTC", holidays: [] };
  return businessDeadline(new Date(order.created_at), days, calendar);
}

/** Spec 2 §4: the deadline of a set of services is the latest of their deadlines (null when one is by quote). */
function latestDeadline(scope: Scope, catalogue: Catalogue, order: OrderRowForEdit, lines: StoredLine[]): Date | null {
  let latest: Date | null = null;
  for (const l of lines) {
    const d = lineDeadline(scope, catalogue, order, l.turnaroundDays);
    if (!d) return null;
    if (!latest || d > latest) latest = d;
  }
  return latest;
}

/** Spec 2 §3 "Service option" canBeRemovedFromOrder: an add-on of an order not yet started, never the last service. */
function removable(order: OrderRowForEdit, line: StoredLine, count: number): boolean {
  return (
    order.status === "placed" && order.rework_of_order_id === null && count > 1 && line.type !== "editing" && line.type !== "translation"
  );
}

function addableServices(catalogue: Catalogue, order: OrderRowForEdit, onOrder: Set<string>) {
  if (order.rework_of_order_id !== null || order.status !== "placed") return [];
  return catalogue.services.filter(
    (s) =>
      s.active &&
      ADDABLE_GROUPS.has(s.group) &&
      !onOrder.has(s.slug) &&
      // Per-figure services need counts the wizard asks for; quote-only ones have no price to add.
      s.price.unit === null &&
      s.turnaround.kind !== "quote",
  );
}

export interface EditView {
  version: number;
  editable: boolean;
  options: ServiceOption[];
  details: ServiceDetails;
  answers: Record<string, string>;
}

/** The services of one of the user's orders and those that may be added (GET /api/order/{id}/services, edit mode). */
export async function orderServiceOptions(scope: Scope, externalId: string): Promise<Result<EditView>> {
  if (!scope.userId || !EXTERNAL_ID.test(externalId)) return fail("not-found");
  const order = (await ownedOrder(scope.app.db, scope.userId, externalId).executeTakeFirst()) as OrderRowForEdit | undefined;
  if (!order) return fail("not-found");
  const [catalogue, allowed] = await Promise.all([getCatalogue(scope.app), allowedExtensions(scope.app)]);
  const lines = linesOf(order);
  const slugs = lines.map((l) => slugOf(catalogue, l));
  const options: ServiceOption[] = lines.map((l, i) => {
    const service = catalogue.services.find((s) => s.slug === slugs[i]);
    return {
      serviceIdentity: l.serviceIdentity,
      serviceSlug: slugs[i],
      nameKey: l.nameKey,
      type: l.type ?? service?.type ?? "other",
      onOrder: true,
      addOn: false,
      canBeRemovedFromOrder: removable(order, l, lines.length),
      quantity: l.quantity,
      price: l.totalPrice,
      deadline: lineDeadline(scope, catalogue, order, l.turnaroundDays)?.toISOString() ?? null,
      wordCount: { min: 1, max: service?.maxWords ?? null },
    };
  });
  const current: ServiceSelection[] = lines.map((l, i) => ({ serviceSlug: slugs[i], quantity: l.quantity }));
  for (const s of addableServices(catalogue, order, new Set(slugs))) {
    const priced = priceFor(scope, catalogue, order, [...current, { serviceSlug: s.slug, quantity: 1 }]);
    const line = priced?.noServiceOption || priced?.quoteOnly ? undefined : priced?.lineItems.find((l) => l.serviceSlug === s.slug);
    if (!line) continue;
    options.push({
      serviceIdentity: s.identity,
      serviceSlug: s.slug,
      nameKey: s.nameKey,
      type: s.type,
      onOrder: false,
      addOn: true,
      canBeRemovedFromOrder: true,
      quantity: 1,
      price: line.totalPrice,
      deadline: lineDeadline(scope, catalogue, order, line.turnaroundDays)?.toISOString() ?? null,
      wordCount: { min: 1, max: s.maxWords },
    });
  }
  return ok({
    version: order.version,
    editable: EDITABLE_STATUSES.includes(order.status),
    options,
    details: detailsOf(servicesByRef(catalogue, slugs), allowed),
    answers: parse<Record<string, string>>(order.service_answers) ?? {},
  });
}

/** The edit form as the page's form or the API's body gives it; every value is checked here. */
export interface OrderEditInput {
  version?: unknown;
  /** Slugs or identities; a comma-joined string or a list. Absent: the services stay as they are. */
  services?: unknown;
  /** The deadline the researcher accepted ('Use this deadline'), ISO. */
  deadline?: unknown;
  styleOfEnglish?: unknown;
  journalName?: unknown;
  journalUrl?: unknown;
  answers?: unknown;
}

export interface SavedOrder {
  externalId: string;
  deadline: string | null;
  total: number;
  version: number;
  changed: string[];
}

const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
function refList(v: unknown): string[] | null {
  if (v === undefined || v === null) return null;
  const list = Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : [];
  return [
    ...new Set(
      list
        .filter((x): x is string => typeof x === "string")
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  ];
}

/** 'deadline-mismatch': the new services are due at another time than the order; the form offers it ('Use this deadline'). */
function deadlineMismatch(suggested: Date | null): Err {
  return {
    ok: false,
    error: "deadline-mismatch",
    fieldErrors: { deadline: "details:errors.deadline-mismatch" },
    details: { suggestedDeadline: suggested?.toISOString() ?? null },
  };
}

/**
 * PUT /api/order/{externalId}/save and the edit form's Save changes. Errors: `not-found`, `order-not-editable`,
 * `conflict` (the form was read at an older version), `deadline-mismatch` (with details.suggestedDeadline),
 * `order-paid` (a paid order's total cannot change yet), field errors (services, styleOfEnglish, journalName,
 * journalUrl, answers by label).
 */
export async function saveOrderDetails(scope: Scope, externalId: string, input: OrderEditInput): Promise<Result<SavedOrder>> {
  const userId = scope.userId;
  if (!userId || !EXTERNAL_ID.test(externalId)) return fail("not-found");
  const [catalogue, allowed] = await Promise.all([getCatalogue(scope.app), allowedExtensions(scope.app)]);
  const result = await scope.app.db.transaction().execute(async (trx): Promise<Result<SavedOrder>> => {
    const order = (await ownedOrder(trx, userId, externalId).forUpdate().executeTakeFirst()) as OrderRowForEdit | undefined;
    if (!order) return fail("not-found");
    if (!EDITABLE_STATUSES.includes(order.status)) return fail("order-not-editable", { status: order.status });
    if (input.version !== undefined && input.version !== null && input.version !== "" && Number(input.version) !== order.version)
      return fail("conflict", { version: order.version });

    const errors: FieldErrors = {};
    const lines = linesOf(order);
    const currentSlugs = lines.map((l) => slugOf(catalogue, l));
    const wanted = refList(input.services);
    let newLines = lines;
    const added: string[] = [];
    const removed: string[] = [];
    if (wanted !== null) {
      const services = servicesByRef(catalogue, wanted);
      const wantedSlugs = services.map((s) => s.slug);
      if (services.length !== wanted.length) errors.services = "details:errors.service-unknown";
      else if (!wantedSlugs.length) errors.services = "details:errors.services-required";
      else {
        const addable = new Set(addableServices(catalogue, order, new Set(currentSlugs)).map((s) => s.slug));
        for (const [i, slug] of currentSlugs.entries()) {
          if (wantedSlugs.includes(slug)) continue;
          if (!removable(order, lines[i], lines.length - removed.length)) errors.services = "details:errors.service-not-removable";
          else removed.push(slug);
        }
        for (const slug of wantedSlugs) {
          if (currentSlugs.includes(slug)) continue;
          if (!addable.has(slug)) errors.services = "details:errors.service-not-addable";
          else added.push(slug);
        }
      }
      if (!errors.services && (added.length || removed.length)) {
        // Placed lines keep the price they were placed at; an added line is priced by the engine with the whole
        // new selection (so a service discount that needs another service applies to it). ADR 032.
        const selections = wantedSlugs.map((slug) => ({ serviceSlug: slug, quantity: lines[currentSlugs.indexOf(slug)]?.quantity ?? 1 }));
        const priced = priceFor(scope, catalogue, order, selections);
        const fresh = (slug: string) => priced?.lineItems.find((l) => l.serviceSlug === slug);
        if (!priced || priced.noServiceOption || priced.quoteOnly || added.some((s) => !fresh(s)))
          errors.services = "details:errors.service-not-addable";
        else
          newLines = wantedSlugs.map((slug) => {
            const kept = lines[currentSlugs.indexOf(slug)];
            return kept ? kept : (fresh(slug)! as StoredLine);
          });
      }
    }
    const newSlugs = newLines.map((l) => slugOf(catalogue, l));
    const services = servicesByRef(catalogue, newSlugs);
    const details = detailsOf(services, allowed);

    // Style of English (spec 2 §5): British or American; required when the order is edited (an editing service).
    let style = order.style_of_english;
    if (input.styleOfEnglish !== undefined) {
      const s = text(input.styleOfEnglish);
      if (s && !(STYLES_OF_ENGLISH as readonly string[]).includes(s)) errors.styleOfEnglish = "details:errors.style-of-english-required";
      else style = s || null;
    }
    if (services.some((s) => s.type === "editing") && !style && !errors.styleOfEnglish)
      errors.styleOfEnglish = "details:errors.style-of-english-required";

    // The journal (spec 2 §5): required when a service requires it; its website http(s), at most 255; a new
    // name with the old website left as it was is 'journal-url-change' (the website belongs to the old journal).
    let journal = order.journal ? parse<{ name: string; url?: string }>(order.journal) : null;
    if (input.journalName !== undefined || input.journalUrl !== undefined) {
      const name = text(input.journalName);
      const url = text(input.journalUrl);
      if (name.length > JOURNAL_NAME_MAX) errors.journalName = "details:errors.journal-name-too-long";
      if (url && (!/^https?:\/\//i.test(url) || url.length > 255)) errors.journalUrl = "details:errors.journal-url-invalid";
      else if (url && !name) errors.journalName = "details:errors.journal-name-required";
      else if (journal?.url && url === journal.url && name && name !== journal.name)
        errors.journalUrl = "details:errors.journal-url-change";
      journal = name ? { name, ...(url ? { url } : {}) } : null;
    }
    if (details.journalDetails.required && !journal?.name && !errors.journalName) errors.journalName = "details:errors.journal-required";

    // The services' questions: hidden follow-ups cleared, required ones answered.
    let answers = parse<Record<string, string>>(order.service_answers) ?? {};
    if (input.answers !== undefined || added.length) {
      const raw = input.answers !== undefined && input.answers !== null && typeof input.answers === "object" ? input.answers : answers;
      const checked = checkAnswers(details, raw as Record<string, unknown>);
      for (const [label, code] of Object.entries(checked.errors)) errors[`answers.${label}`] = code;
      answers = checked.answers;
    }
    if (Object.keys(errors).length) return invalid(errors);

    // The deadline: the latest service deadline once the services change (spec 2 §4), accepted by the researcher.
    const servicesChanged = added.length > 0 || removed.length > 0;
    let deadline = order.deadline ? new Date(order.deadline) : null;
    if (servicesChanged) {
      const suggested = latestDeadline(scope, catalogue, order, newLines);
      const same = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
      if (!same(suggested, deadline)) {
        const accepted = text(input.deadline);
        if (!accepted || Number.isNaN(Date.parse(accepted)) || !same(new Date(accepted), suggested)) return deadlineMismatch(suggested);
        deadline = suggested;
      }
    }

    // Money: the total follows the lines; an unpaid invoice follows the total in the same transaction.
    const oldTotal = Number(order.total);
    const newTotal = servicesChanged ? newLines.reduce((sum, l) => sum + Number(l.totalPrice), 0) : oldTotal;
    const newSubtotal = servicesChanged ? newLines.reduce((sum, l) => sum + Number(l.listPrice), 0) : Number(order.subtotal);
    const delta = newTotal - oldTotal;
    let invoiceChange: Record<string, unknown> | null = null;
    if (delta !== 0) {
      // Paying a difference, or refunding one, comes with the payments issue (ADR 032).
      if (order.paid) return fail("order-paid");
      const invoice = await trx
        .selectFrom("invoices")
        .select(["number", "amount", "balance", "status"])
        .where("order_id", "=", order.id)
        .forUpdate()
        .executeTakeFirst();
      if (invoice) {
        if (invoice.status !== "unpaid") return fail("order-paid");
        const amount = Number(invoice.amount) + delta;
        const balance = Number(invoice.balance) + delta;
        if (balance < 0) return fail("order-paid");
        await trx.updateTable("invoices").set({ amount, balance }).where("number", "=", invoice.number).execute();
        invoiceChange = {
          number: invoice.number,
          amount: { old: Number(invoice.amount), new: amount },
          balance: { old: Number(invoice.balance), new: balance },
        };
      }
    }

    const changed: string[] = [];
    if (servicesChanged) changed.push("services");
    if (style !== order.style_of_english) changed.push("styleOfEnglish");
    const oldJournal = order.journal ? parse<{ name: string; url?: string }>(order.journal) : null;
    if (JSON.stringify(journal) !== JSON.stringify(oldJournal)) changed.push("journal");
    if (JSON.stringify(answers) !== JSON.stringify(parse(order.service_answers) ?? {})) changed.push("answers");
    const updated = await trx
      .updateTable("orders")
      .set((eb) => ({
        style_of_english: style,
        journal: journal ? JSON.stringify(journal) : null,
        service_answers: JSON.stringify(answers),
        updated_at: new Date(),
        version: eb("version", "+", 1),
        ...(servicesChanged ? { line_items: JSON.stringify(newLines), total: newTotal, subtotal: newSubtotal, deadline } : {}),
      }))
      .where("id", "=", order.id)
      .returning(["version"])
      .executeTakeFirstOrThrow();
    const status = order.status as OrderStatus;
    await recordHistory(
      trx,
      order.id,
      "edited",
      status,
      status,
      { userId, impersonatorId: scope.impersonatorId },
      {
        data: {
          changed,
          ...(servicesChanged ? { services: { added, removed }, total: { old: oldTotal, new: newTotal } } : {}),
          ...(servicesChanged
            ? { deadline: { old: order.deadline ? new Date(order.deadline).toISOString() : null, new: deadline?.toISOString() ?? null } }
            : {}),
          ...(invoiceChange ? { invoice: invoiceChange } : {}),
          ...(changed.includes("styleOfEnglish") ? { styleOfEnglish: { old: order.style_of_english, new: style } } : {}),
          ...(changed.includes("journal") ? { journal: { old: oldJournal, new: journal } } : {}),
        },
      },
    );
    return ok({
      externalId: order.external_id,
      deadline: deadline?.toISOString() ?? null,
      total: newTotal,
      version: updated.version,
      changed,
    });
  });
  if (result.ok) {
    await afterOrderChange(scope.app, userId);
    await auditImpersonated(scope, "order.edit", { type: "order", id: externalId }, { changed: result.value.changed });
  }
  return result;
}

/**
 * The extra addresses told about the order (spec 2 §7 POST /api/order/{externalId}/email-notifications): comma-separated,
 * each a valid address, at most five, duplicates dropped; an empty value clears them. Errors: `not-found`,
 * field `notificationEmails` (`notification-email-invalid`, `notification-emails-too-many`).
 */
export async function saveNotificationEmails(
  scope: Scope,
  externalId: string,
  raw: unknown,
): Promise<Result<{ notificationEmails: string[] }>> {
  const userId = scope.userId;
  if (!userId || !EXTERNAL_ID.test(externalId)) return fail("not-found");
  const list = Array.isArray(raw)
    ? raw.map(String)
    : typeof raw === "string"
      ? raw.split(",")
      : raw === undefined || raw === null
        ? []
        : null;
  if (list === null) return invalid({ notificationEmails: "details:errors.notification-email-invalid" });
  const emails: string[] = [];
  for (const item of list.map((e) => e.trim()).filter(Boolean)) {
    const parsed = emailField.safeParse(item);
    if (!parsed.success) return invalid({ notificationEmails: "details:errors.notification-email-invalid" });
    if (!emails.some((e) => e.toLowerCase() === parsed.data.toLowerCase())) emails.push(parsed.data);
  }
  if (emails.length > NOTIFICATION_EMAILS_MAX) return invalid({ notificationEmails: "details:errors.notification-emails-too-many" });
  const updated = await scope.app.db
    .updateTable("orders")
    .set({ notification_emails: JSON.stringify(emails), updated_at: new Date() })
    .where("user_id", "=", userId)
    .where("external_id", "=", externalId)
    .returning("id")
    .executeTakeFirst();
  if (!updated) return fail("not-found");
  await auditImpersonated(scope, "order.notification-emails", { type: "order", id: externalId }, { count: emails.length });
  return ok({ notificationEmails: emails });
}
