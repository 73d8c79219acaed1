// Migration 0036 on a database that already held prepayments (issue 21 §1, ADR 058): retainer invoices, their
// payments, the balance movements of a paid one (its deposit and a spend on an order invoice) and a fapiao move into
// `invoices` (kind 'prepayment') and `invoice_payments`, and nothing the researcher sees changes: the same numbers,
// amounts, statuses, issuer and rate, the same prepaid balance, the fapiao still on its prepayment; the order
// invoices are as they were, and the next prepayment is numbered after the last one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, type Kysely } from "kysely";
import { createTestContext, type TestContext } from "../helpers/context";
import { createInvoice, createResearcher, scopeFor } from "../helpers/factories";
import * as invoiceKinds from "../../db/migrations/0036_invoice_kinds";
import { listInvoices } from "../../server/billing/invoices/list";
import { issuePrepaymentInvoice, userBalances } from "../../server/billing";
import { loadPrepayData, retainerInvoicePdf } from "../../server/prepay";
import { listFapiaos } from "../../server/fapiao";
import { pdfText } from "../helpers/invoices";

let t: TestContext;
// The migration is written against an untyped database, as kysely's migrator runs it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let db: Kysely<any>;
beforeAll(async () => {
  t = await createTestContext();
  db = t.ctx.db as never;
});
afterAll(async () => t.close());

const nextRetainer = async (prefix: string) =>
  `${prefix}${(await sql<{ n: string }>`select nextval('retainer_invoice_number_seq')::text as n`.execute(db)).rows[0].n}`;

describe("0036_invoice_kinds", () => {
  it("moves retainer invoices, their payments, movements and fapiao into invoices with the same numbers", async () => {
    const user = await createResearcher(t.ctx);
    await db.updateTable("users").set({ localization: "CN" }).where("id", "=", user.id).execute();
    const scope = { ...scopeFor(t.ctx, user), localization: "CN" };
    const { invoice } = await createInvoice(t.ctx, user);
    const ordersBefore = await listInvoices(scope, { page: 1 });

    // The schema as it was before 0036, holding what the prepay flow wrote then.
    await invoiceKinds.down(db);
    const paid = await nextRetainer("PCN");
    const unpaid = await nextRetainer("PCN");
    const voided = await nextRetainer("PUS");
    const entity = {
      identity: "CN",
      name: "Beijing Issuer Co., Ltd.",
      address: ["Beijing"],
      email: "",
      phone: "",
      taxId: "91110000MA00000000",
    };
    const common = { user_id: user.id, lang: "cn", currency_iso: "USD", usd_total: 50000, exchange_rate: "1" };
    await db
      .insertInto("retainer_invoices")
      .values([
        {
          ...common,
          number: paid,
          localization: "CN",
          amount: 50000,
          balance: 0,
          status: "paid",
          method_id: 9,
          purchase_order: "PO-9",
          created_at: new Date("2026-03-01T08:00:00Z"),
          paid_at: new Date("2026-03-03T09:00:00Z"),
          expires_at: new Date("2027-03-03T09:00:00Z"),
          legal_entity: JSON.stringify(entity),
        },
        {
          ...common,
          number: unpaid,
          localization: "CN",
          amount: 30000,
          balance: 30000,
          status: "unpaid",
          method_id: 9,
          legal_entity: JSON.stringify(entity),
        },
        { ...common, number: voided, localization: "US", amount: 20000, balance: 20000, status: "void", method_id: 3 },
      ])
      .execute();
    await db
      .insertInto("retainer_invoice_payments")
      .values({
        retainer_invoice_number: paid,
        amount: 50000,
        currency_iso: "USD",
        payment_method_id: 9,
        reference: "BANK-REF-1",
        received_on: "2026-03-03",
        created_at: new Date("2026-03-03T09:00:00Z"),
      })
      .execute();
    await db
      .insertInto("balance_movements")
      .values([
        { user_id: user.id, retainer_invoice_number: paid, amount: 50000, kind: "deposit" },
        {
          user_id: user.id,
          retainer_invoice_number: paid,
          amount: -2000,
          kind: "spend",
          invoice_number: invoice.number,
          invoice_amount: 2000,
        },
      ])
      .execute();
    await db
      .insertInto("fapiaos")
      .values({ user_id: user.id, retainer_invoice_number: paid, origin: "stored", type: "general", title: "Peking Lab", status: "issued" })
      .execute();
    const movementsBefore = await db.selectFrom("balance_movements").selectAll().where("user_id", "=", user.id).orderBy("id").execute();

    await invoiceKinds.up(db);

    const rows = await db
      .selectFrom("invoices")
      .selectAll()
      .where("user_id", "=", user.id)
      .where("kind", "=", "prepayment")
      .orderBy("number")
      .execute();
    const shape = (r: Record<string, unknown>) => [r.number, r.order_id, Number(r.amount), Number(r.balance), r.status, r.localization];
    expect(rows.map(shape)).toEqual(
      [
        [paid, null, 50000, 0, "paid", "CN"],
        [unpaid, null, 30000, 30000, "unpaid", "CN"],
        [voided, null, 20000, 20000, "void", "US"],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    const moved = rows.find((r) => r.number === paid)!;
    expect([
      moved.method_id,
      moved.purchase_order,
      moved.lang,
      new Date(moved.paid_at).toISOString(),
      new Date(moved.expires_at).toISOString(),
    ]).toEqual([9, "PO-9", "cn", "2026-03-03T09:00:00.000Z", "2027-03-03T09:00:00.000Z"]);
    const ledger = await db.selectFrom("invoice_payments").selectAll().where("invoice_number", "=", paid).execute();
    expect(
      ledger.map((p) => [
        p.kind,
        Number(p.amount),
        p.reference,
        String(p.received_on instanceof Date ? p.received_on.toISOString().slice(0, 10) : p.received_on).slice(0, 10),
      ]),
    ).toEqual([["payment", 50000, "BANK-REF-1", "2026-03-03"]]);
    // The movements are the same rows, naming the same number, now an invoice's.
    expect(await db.selectFrom("balance_movements").selectAll().where("user_id", "=", user.id).orderBy("id").execute()).toEqual(
      movementsBefore,
    );
    const left = await sql<{
      n: string;
    }>`select table_name as n from information_schema.tables where table_name like 'retainer_invoice%'`.execute(db);
    expect(left.rows).toEqual([]);

    // What the researcher sees: the prepay page, the balance, the fapiao, the PDF, and the order invoices as before.
    expect(await listInvoices(scope, { page: 1 })).toEqual(ordersBefore);
    const balances = await userBalances(t.ctx.db, user.id);
    expect(balances.prepayments.map((p) => [p.number, p.available])).toEqual([[paid, 48000]]);
    const page = await loadPrepayData(scope);
    expect(page?.prepayments.map((p) => [p.retainerInvoiceNumber, p.status, p.totalAmount, p.availablePrepaymentAmount])).toEqual([
      [unpaid, "unpaid", 30000, 0],
      [paid, "paid", 50000, 48000],
    ]);
    const fapiaos = await listFapiaos(scope, { context: "Paddle" });
    expect(fapiaos.ok && fapiaos.value.map((f) => [f.retainerInvoiceNumber, f.status, f.paidAt])).toEqual([
      [paid, "issued", "2026-03-03T09:00:00.000Z"],
    ]);
    const pdf = await retainerInvoicePdf(scope, paid);
    const text = pdfText(pdf.ok ? pdf.value : Buffer.alloc(0));
    expect(await text).toContain(paid);
    expect(await text).toContain("BeijingIssuerCo.,Ltd.");
    expect(await text).toContain("BANK-REF-1");

    // The prepayment numbering goes on from where it was.
    const next = await t.ctx.db.transaction().execute((trx) =>
      issuePrepaymentInvoice(trx, {
        userId: user.id,
        localization: "CN",
        lang: "en",
        currencyIso: "USD",
        amount: 10000,
        methodId: 9,
        billing: null,
        purchaseOrder: null,
        fapespProcessNumber: null,
        legalEntity: entity,
      }),
    );
    expect(Number(next.slice(3))).toBe(Number(voided.slice(3)) + 1);
    // A prepayment bills no order; an order invoice must name one.
    await expect(sql`update invoices set order_id = null where number = ${invoice.number}`.execute(db)).rejects.toThrow();
    // Two migrations, PDFs and pages: slow on a loaded machine.
  }, 120_000);
});
