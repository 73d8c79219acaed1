// Test data made through the domain functions, as a user or the wizard would make it: registration,
// the order form's steps, placing an order (which issues its invoice). Not by inserting rows, and not
// with the seeded demo accounts, so each test owns its data and a change to a domain rule shows here.
import { recordBankPayment } from "../../server/billing";
import { randomBytes } from "node:crypto";
import type { AppContext } from "#server/context";
import { registerResearcher, type RegistrationInput } from "#server/accounts/registration";
import { markEmailVerified } from "#server/accounts/email-verification";
import { saveUpload } from "#server/documents/storage";
import { createOrderForm, type OrderFormRow } from "#server/order-form/store";
import { saveAdditional, saveDetails, saveGetStarted, saveServices, type SaveResult } from "#server/order-form";
import { placeOrder, type PlacedOrder } from "#server/orders/place";
import { PAYMENT_METHOD } from "#server/payments";
import { systemScope, type Scope } from "#server/scope";
import { transitionOrder } from "#server/orders/life";
import { addDeliverable } from "#server/orders/deliverables";
import { makeDocx } from "./fixtures";

export interface TestUser {
  id: number;
  identity: string;
  email: string;
  password: string;
  /** A session token from the registration (the value of the session cookie). */
  token: string;
}

/** A unique, valid e-mail address (`tag` keeps it readable in failures). */
export function uniqueEmail(tag = "researcher"): string {
  return `${tag}.${randomBytes(5).toString("hex")}@example.org`;
}

/** A distinct client address per call, so per-address rate limits never count factory calls together. */
function factoryIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

export const TEST_PASSWORD = "Factory#Pass-2026";

/** A researcher registered as through the sign-up form (US, USD, English unless overridden). */
export async function createResearcher(ctx: AppContext, overrides: Partial<RegistrationInput> = {}): Promise<TestUser> {
  const input: RegistrationInput = {
    email: uniqueEmail(),
    password: TEST_PASSWORD,
    firstName: "Test",
    lastName: "Researcher",
    countryCode: "US",
    phoneNumber: "2025550123",
    country: "US",
    currency: "USD",
    language: "en",
    optinToMarketing: false,
    institution: "Test University",
    ...overrides,
  };
  const r = await registerResearcher(ctx, input, { ip: factoryIp(), userAgent: "factories" });
  if (!r.ok) throw new Error(`createResearcher: ${JSON.stringify(r)}`);
  // A factory researcher has confirmed the address (ADR 026); a test of the unconfirmed state clears it.
  await markEmailVerified(ctx, r.userId);
  return { id: r.userId, identity: r.identity, email: input.email, password: input.password, token: r.token };
}

/**
 * A staff member: registered like anyone, then given the staff flag. No domain function grants staff
 * (staff accounts are made by hand, as the seed does), so this one column is the only direct write.
 */
export async function createStaff(ctx: AppContext, overrides: Partial<RegistrationInput> = {}): Promise<TestUser> {
  const user = await createResearcher(ctx, { email: uniqueEmail("staff"), firstName: "Test", lastName: "Staff", ...overrides });
  await ctx.db.updateTable("users").set({ is_staff: true }).where("id", "=", user.id).execute();
  return user;
}

// ---- order forms, orders, invoices -----------------------------------------------------------
// Kept together and small: the one place the factories touch the wizard's domain functions.

/** The request scope of `user` acting for themselves (English, US localisation), as the wizard's domain sees it. */
export function scopeFor(ctx: AppContext, user: Pick<TestUser, "id">): Scope {
  return systemScope(ctx, { userId: user.id, lang: "en", localization: "US" });
}

function saved(step: string, r: SaveResult): OrderFormRow {
  if (!r.ok) throw new Error(`${step}: ${JSON.stringify(r.fieldErrors)}`);
  return r.value;
}

export interface OrderFormOptions {
  /** Catalogue slugs of the services chosen; none leaves the form at its first step (with its file). */
  services?: string[];
  wordCount?: number;
  /** Set to go on through the details step to payment. */
  projectTitle?: string;
  currencyIso?: string;
}

/**
 * An order form of `user` with one uploaded .docx, taken through the wizard's steps: get started,
 * services (and the add-ons step), then details when `projectTitle` is given.
 */
export async function createOrderFormFor(
  ctx: AppContext,
  user: Pick<TestUser, "id">,
  options: OrderFormOptions = {},
): Promise<OrderFormRow> {
  const env = scopeFor(ctx, user);
  let form = await createOrderForm(ctx.db, { userId: user.id, draftKey: null }, { currencyIso: options.currencyIso ?? "USD" });
  await saveUpload(ctx, await makeDocx("Soil bacteria under drought: results and discussion. ".repeat(30)), {
    ownerUserId: user.id,
    kind: "main",
    originalName: "manuscript.docx",
    orderFormId: form.id,
  });
  if (!options.services?.length) return form;
  form = saved(
    "get-started",
    await saveGetStarted(env, form, { customerGoal: "manuscript", wordCount: options.wordCount ?? 3000, languageId: 1 }),
  );
  form = saved("services", await saveServices(env, form, { serviceSlugs: options.services }, "manuscript-services"));
  if (form.current_step === "additional-services") form = saved("additional-services", await saveAdditional(env, form, { addOnSlugs: [] }));
  if (options.projectTitle === undefined) return form;
  const area = await ctx.db.selectFrom("areas_of_study").select("id").orderBy("id").executeTakeFirstOrThrow();
  return saved(
    "details",
    await saveDetails(env, form, { projectTitle: options.projectTitle, areaOfStudyId: area.id, styleOfEnglish: "american" }),
  );
}

/** A placed order of `user` (bank transfer, so it carries an unpaid invoice). */
export async function createPlacedOrder(
  ctx: AppContext,
  user: Pick<TestUser, "id">,
  options: OrderFormOptions = {},
): Promise<PlacedOrder & { orderFormId: string }> {
  const form = await createOrderFormFor(ctx, user, {
    services: ["standard-editing"],
    projectTitle: `Test order ${randomBytes(3).toString("hex")}`,
    ...options,
  });
  const r = await placeOrder(scopeFor(ctx, user), form, { paymentMethodId: PAYMENT_METHOD.bankTransfer, acceptTerms: true });
  if (!r.ok) throw new Error(`placeOrder: ${r.error}`);
  return { ...r.value, orderFormId: form.id };
}

/** The invoice issued with a newly placed bank-transfer order of `user`. */
export async function createInvoice(ctx: AppContext, user: Pick<TestUser, "id">, options: OrderFormOptions = {}) {
  const order = await createPlacedOrder(ctx, user, options);
  if (!order.invoiceNumber) throw new Error("createInvoice: the order carries no invoice");
  const invoice = await ctx.db.selectFrom("invoices").selectAll().where("number", "=", order.invoiceNumber).executeTakeFirstOrThrow();
  return { order, invoice };
}

/**
 * A placed order of `user` taken on by staff: started, `files` delivered (one small PDF by default, through
 * addDeliverable: the same content checks as uploads), completed unless `complete` is false; `paid` (default
 * true) settles its invoice as staff do. Its files are then downloadable and a re-edit is offered (issue 11 §4).
 */
export async function createCompletedOrder(
  ctx: AppContext,
  user: Pick<TestUser, "id">,
  {
    paid = true,
    complete = true,
    staff,
    files = [{ name: "edited.pdf", bytes: new Uint8Array(Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")) }],
    ...options
  }: OrderFormOptions & { paid?: boolean; complete?: boolean; staff?: TestUser; files?: { name: string; bytes: Uint8Array }[] } = {},
): Promise<PlacedOrder & { orderFormId: string; orderId: number; staff: TestUser }> {
  const order = await createPlacedOrder(ctx, user, options);
  const by = staff ?? (await createStaff(ctx));
  const actor = { userId: by.id };
  const ref = { externalId: order.externalId };
  const row = await ctx.db.selectFrom("orders").select("id").where("external_id", "=", order.externalId).executeTakeFirstOrThrow();
  const started = await transitionOrder(ctx, actor, ref, "start");
  if (!started.ok) throw new Error(`start: ${started.error}`);
  for (const f of files) {
    const added = await addDeliverable(ctx, actor, row.id, f.bytes, f.name);
    if (!added.ok) throw new Error(`addDeliverable ${f.name}: ${added.error}`);
  }
  if (complete) {
    const done = await transitionOrder(ctx, actor, ref, "complete");
    if (!done.ok) throw new Error(`complete: ${done.error}`);
  }
  if (paid) await payInFull(ctx, actor, row.id);
  return { ...order, orderId: row.id, staff: by };
}

/**
 * Settles an order the way staff do: its invoice's whole balance recorded as a bank transfer (recordBankPayment:
 * the ledger row, the invoice paid, the order paid). An order without an invoice is marked paid.
 */
export async function payInFull(ctx: AppContext, actor: { userId: number }, orderId: number): Promise<void> {
  const invoice = await ctx.db
    .selectFrom("invoices as i")
    .innerJoin("currencies as c", "c.iso_code", "i.currency_iso")
    .select(["i.number", "i.balance", "c.num_decimals"])
    .where("i.order_id", "=", orderId)
    .where("i.status", "=", "unpaid")
    .executeTakeFirst();
  if (!invoice || Number(invoice.balance) === 0) {
    await ctx.db.updateTable("orders").set({ paid: true }).where("id", "=", orderId).execute();
    return;
  }
  const amount = (Number(invoice.balance) / 10 ** invoice.num_decimals).toFixed(invoice.num_decimals);
  const r = await recordBankPayment(ctx, actor, invoice.number, {
    amount,
    reference: `TEST-${orderId}-${randomBytes(3).toString("hex")}`,
    receivedOn: new Date().toISOString().slice(0, 10),
  });
  if (!r.ok) throw new Error(`payInFull: ${r.error}`);
}
