// Orders staff create for a researcher (issue 11 §2, spec 2 §6 "Admin-created orders"). The order is made the
// way the researcher's own would be: an order form of theirs taken through the wizard's step functions (so the
// catalogue prices it and every step rule applies), then placed by placeOrder with the admin options: no
// invoice when `suppressInvoiceCreation` (which must be chosen: there is no default), and the "order received"
// mail only when `requireCustomerNotification` is ticked. The files may follow later ("upload files later").
// Payment: bank transfer, or free when nothing is due (ADR 030).
import { fail, invalid, ok, type FieldErrors, type Result } from "#common/result";
import { WORD_COUNT_MAX } from "#common/order-form/constants";
import type { AdminOrderForm } from "#common/staff/console";
import type { OrderStatus } from "#common/orders/status";
import { isSiteLang } from "#common/i18n";
import { systemScope, type Scope } from "../scope";
import { getCatalogue } from "../catalogue";
import {
  areasOfStudy,
  createOrderForm,
  manuscriptLanguages,
  pickerCurrencies,
  findDuplicate,
  priceForm,
  saveAdditional,
  saveDetails,
  saveDuplicateChoice,
  saveGetStarted,
  saveServices,
  selectableServices,
  upsellSlugs,
  type OrderFormRow,
} from "../order-form";
import { listCurrencies } from "../kernel/reference";
import { placeOrder } from "../orders/place";
import { recordHistory } from "../orders/life";
import { PAYMENT_METHOD } from "../payments";
import { audit } from "../kernel/audit";

export interface AdminOrderCreated {
  externalId: string;
  invoiceNumber: string | null;
}

const ADMIN_FIELDS: Record<string, string> = {
  wordCount: "wordCount",
  languageId: "languageId",
  serviceSlugs: "serviceSlugs",
  addOnSlugs: "serviceSlugs",
  projectTitle: "projectTitle",
  areaOfStudyId: "areaOfStudyId",
  styleOfEnglish: "styleOfEnglish",
  journalUrl: "projectTitle",
};

/** A step's field errors on the admin form's fields (a step field the form lacks lands on the services). */
function onAdminFields(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [field, key] of Object.entries(errors)) {
    const name = ADMIN_FIELDS[field] ?? (field.startsWith("quantity.") ? "serviceSlugs" : "serviceSlugs");
    out[name] ??= key;
  }
  return out;
}

/**
 * Creates and places an order for the researcher with e-mail `input.email`. Errors: `not-allowed` (not staff),
 * field errors (`staffops:errors.*` and the wizard's `order:errors.*`) on the form's fields.
 */
export async function createAdminOrder(scope: Scope, input: AdminOrderForm): Promise<Result<AdminOrderCreated>> {
  const staff = scope.session;
  if (!staff?.user.isStaff || staff.impersonatorId) return fail("not-allowed");
  const db = scope.app.db;
  const errors: FieldErrors = {};
  const email = input.email.trim().toLowerCase();
  const researcher = email
    ? await db
        .selectFrom("users")
        .select(["id", "email", "language", "localization", "is_staff", "active", "currency_iso"])
        .where((eb) => eb(eb.fn("lower", ["email"]), "=", email))
        .executeTakeFirst()
    : undefined;
  if (!email) errors.email = "staffops:errors.email-required";
  else if (!researcher || researcher.is_staff || !researcher.active) errors.email = "staffops:errors.researcher-not-found";
  if (input.suppressInvoiceCreation !== "yes" && input.suppressInvoiceCreation !== "no")
    errors.suppressInvoiceCreation = "staffops:errors.choose-invoice-option";
  const slugs = [...new Set(typeof input.serviceSlugs === "string" ? [input.serviceSlugs] : (input.serviceSlugs ?? []))];
  if (!slugs.length) errors.serviceSlugs = "staffops:errors.choose-services";
  const currencies = (await listCurrencies(db)).filter((c) => c.selectable);
  const currencyIso = (input.currencyIso ?? "").toUpperCase();
  if (!currencies.some((c) => c.isoCode === currencyIso)) errors.currencyIso = "staffops:errors.choose-currency";
  const words = Number(input.wordCount);
  if (!input.wordCount || !Number.isInteger(words) || words < 1 || words > WORD_COUNT_MAX) errors.wordCount = "staffops:errors.word-count";
  if (Object.keys(errors).length || !researcher) return invalid(errors);

  // The researcher's own scope, with the staff member as the one acting for them (order.impersonator_id, the
  // history's actor, the audit log).
  const env = systemScope(scope.app, {
    userId: researcher.id,
    impersonatorId: staff.user.id,
    lang: isSiteLang(researcher.language) ? researcher.language : "en",
    localization: researcher.localization,
    ip: scope.ip,
  });
  const catalogue = await getCatalogue(scope.app);
  let form: OrderFormRow = await createOrderForm(db, { userId: researcher.id, draftKey: null }, { currencyIso });
  const discard = async (e: FieldErrors): Promise<Result<AdminOrderCreated>> => {
    // A form that could not be placed is not left behind as the researcher's draft.
    await db.deleteFrom("order_forms").where("id", "=", form.id).where("status", "=", "draft").execute();
    return invalid(e);
  };
  const known = await selectableServices(env, form, catalogue);
  const unknown = slugs.filter((s) => !known.has(s));
  if (unknown.length) return discard({ serviceSlugs: "staffops:errors.choose-services" });
  const addOns = new Set(await upsellSlugs(env));
  const steps: [string, () => Promise<Result<OrderFormRow>>][] = [
    [
      "get-started",
      () =>
        saveGetStarted(env, form, {
          customerGoal: "manuscript",
          wordCount: String(words),
          languageId: input.languageId,
          uploadFilesLater: true,
        }),
    ],
    ["services", () => saveServices(env, form, { serviceSlugs: slugs.filter((s) => !addOns.has(s)) }, "manuscript-services")],
    ["additional", () => saveAdditional(env, form, { addOnSlugs: slugs.filter((s) => addOns.has(s)) })],
    [
      "details",
      () =>
        saveDetails(env, form, {
          projectTitle: input.projectTitle,
          areaOfStudyId: input.areaOfStudyId,
          styleOfEnglish: input.styleOfEnglish,
        }),
    ],
  ];
  for (const [name, save] of steps) {
    if (name === "additional" && form.current_step !== "additional-services") continue;
    const r = await save();
    if (!r.ok) return discard(onAdminFields(r.fieldErrors));
    form = r.value;
  }
  if (form.current_step === "duplicate-order" || (await findDuplicate(env, form))) {
    const r = await saveDuplicateChoice(env, form, "new-order");
    if (!r.ok) return discard({ projectTitle: "staffops:errors.not-placed" });
    form = r.value;
  }
  const chosen = new Set((form.selections ?? []).map((s) => s.serviceSlug));
  if (!slugs.every((s) => chosen.has(s))) return discard({ serviceSlugs: "staffops:errors.choose-services" });
  const price = await priceForm(env, form);
  if (!price) return discard({ serviceSlugs: "staffops:errors.choose-services" });
  const placed = await placeOrder(env, form, {
    paymentMethodId: price.total === 0 ? PAYMENT_METHOD.free : PAYMENT_METHOD.bankTransfer,
    // Staff place it; the researcher accepted the terms when they registered.
    acceptTerms: true,
    admin: {
      suppressInvoiceCreation: input.suppressInvoiceCreation === "yes",
      requireCustomerNotification: Boolean(input.requireCustomerNotification),
    },
  });
  if (!placed.ok) return discard({ serviceSlugs: "staffops:errors.not-placed" });
  const order = await db
    .selectFrom("orders")
    .select(["id", "status"])
    .where("external_id", "=", placed.value.externalId)
    .executeTakeFirstOrThrow();
  const note = input.note?.trim();
  if (note)
    await recordHistory(
      db,
      order.id,
      "staff-note",
      order.status as OrderStatus,
      order.status as OrderStatus,
      { userId: staff.user.id },
      { note },
    );
  await audit(
    scope.app,
    staff.user.id,
    "staff.order.create",
    { type: "order", id: placed.value.externalId },
    {
      for: researcher.email,
      suppressInvoiceCreation: input.suppressInvoiceCreation === "yes",
      requireCustomerNotification: Boolean(input.requireCustomerNotification),
      invoice: placed.value.invoiceNumber,
      ip: scope.ip,
    },
  );
  return ok({ externalId: placed.value.externalId, invoiceNumber: placed.value.invoiceNumber });
}

/** The choices of the admin order form: active non-rework services, manuscript languages, areas, currencies. */
export async function adminOrderChoices(scope: Scope) {
  const catalogue = await getCatalogue(scope.app);
  const [languages, areas, currencies] = await Promise.all([manuscriptLanguages(scope), areasOfStudy(scope), pickerCurrencies(scope)]);
  return {
    services: catalogue.services
      .filter((s) => s.active && s.group !== "rework")
      .map((s) => ({ slug: s.slug, nameKey: s.nameKey, group: s.group })),
    languages,
    areas,
    currencies,
  };
}
