// The researcher's invoices on a real database (issue 12 §4–5, spec 2 §2, §5, §9): the list (filters by day and
// order number, 10 a page, the unpaid rule with pending write-offs, hidden invoices, the owner only) and the
// three documents (invoice, statement of delivery, payment receipt): real PDFs in the invoice's language, with
// the company, exchange rates, grant and purchase order, "test mode" for sandbox payments, the owner's only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createCompletedOrder, createInvoice, createResearcher, scopeFor, type TestUser } from "../helpers/factories";
import { pdfText, pendingBoleto, recordProviderPayment } from "../helpers/invoices";
import { invoiceListSchema } from "../../app/common/invoices/list";
import { listInvoices, loadInvoices } from "../../server/billing/invoices/list";
import { invoicePdf, paymentReceiptPdf, statementOfDelivery } from "../../server/billing/invoices/documents";
import { systemScope } from "../../server/scope";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

async function list(user: Pick<TestUser, "id">, query: Record<string, string> = {}, unpaidOnly = false) {
  const r = await listInvoices(scopeFor(t.ctx, user), { ...invoiceListSchema.parse(query), unpaidOnly });
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

const setCreated = (number: string, at: string) =>
  t.ctx.db
    .updateTable("invoices")
    .set({ created_at: new Date(at) })
    .where("number", "=", number)
    .execute();

describe("the invoice list", () => {
  let ada: TestUser;
  const numbers: string[] = [];
  let orderOfFirst = "";

  beforeAll(async () => {
    ada = await createResearcher(t.ctx);
    for (let i = 0; i < 12; i++) {
      const { order, invoice } = await createInvoice(t.ctx, ada);
      numbers.push(invoice.number);
      if (i === 0) orderOfFirst = order.externalId;
      // One a day from Nov 1st, at noon New York time (the US localisation's clock).
      await setCreated(invoice.number, `2026-11-${String(i + 1).padStart(2, "0")}T17:00:00Z`);
    }
  });

  it("lists newest first, 10 a page, and says how many there are", async () => {
    const p1 = await list(ada);
    expect(p1.invoices.map((i) => i.invoiceNumber)).toEqual([...numbers].reverse().slice(0, 10));
    expect(p1.pagination).toEqual({ page: 1, pageSize: 10, total: 12, pages: 2 });
    const p2 = await list(ada, { page: "2" });
    expect(p2.invoices.map((i) => i.invoiceNumber)).toEqual([numbers[1], numbers[0]]);
    const past = await list(ada, { page: "5" });
    expect(past.invoices).toEqual([]);
    expect(past.pagination.total).toBe(12);
  });

  it("filters by days of the researcher's clock (MM/dd/yyyy) and by order number", async () => {
    const days = await list(ada, { from: "11/03/2026", to: "11/05/2026" });
    expect(days.invoices.map((i) => i.invoiceNumber).sort()).toEqual(numbers.slice(2, 5).sort());
    expect((await list(ada, { from: "11/12/2026" })).invoices.map((i) => i.invoiceNumber)).toEqual([numbers[11]]);
    const byOrder = await list(ada, { orderNumber: orderOfFirst.toLowerCase() });
    expect(byOrder.invoices.map((i) => i.invoiceNumber)).toEqual([numbers[0]]);
    expect(byOrder.invoices[0].orderNumber).toBe(orderOfFirst);
    expect((await list(ada, { orderNumber: numbers[3] })).invoices.map((i) => i.invoiceNumber)).toEqual([numbers[3]]);
    expect((await list(ada, { orderNumber: "NOPE" })).invoices).toEqual([]);
    expect(() => invoiceListSchema.parse({ from: "2026-11-01" })).toThrow();
    expect(invoiceListSchema.safeParse({ from: "11/05/2026", to: "11/01/2026" }).success).toBe(false);
  });

  it("keeps in the unpaid view only invoices with a balance that are not pending a write-off", async () => {
    const bea = await createResearcher(t.ctx);
    const open = await createInvoice(t.ctx, bea);
    const writeoff = await createInvoice(t.ctx, bea);
    const paid = await createCompletedOrder(t.ctx, bea, { paid: true });
    await t.ctx.db.updateTable("invoices").set({ pending_writeoff: true }).where("number", "=", writeoff.invoice.number).execute();
    const all = await list(bea);
    expect(all.invoices).toHaveLength(3);
    const unpaid = await list(bea, {}, true);
    expect(unpaid.invoices.map((i) => i.invoiceNumber)).toEqual([open.invoice.number]);
    const paidRow = all.invoices.find((i) => i.invoiceNumber === paid.invoiceNumber)!;
    expect(paidRow).toMatchObject({ balance: 0, unpaid: false, statementOfDelivery: "ready" });
    expect(paidRow.receipts).toHaveLength(1);
    expect(all.invoices.find((i) => i.invoiceNumber === writeoff.invoice.number)).toMatchObject({ pendingWriteoff: true, unpaid: false });
    expect(all.invoices.find((i) => i.invoiceNumber === open.invoice.number)).toMatchObject({
      unpaid: true,
      statementOfDelivery: "pending",
      boletoPaymentId: null,
      allowsFapiao: false,
    });
  });

  it("shows a pending boleto and the fapiao column where the localisation allows it", async () => {
    const cai = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, cai);
    const boleto = await pendingBoleto(t.ctx, cai.id, [invoice.number]);
    await t.ctx.db.updateTable("invoices").set({ localization: "CN" }).where("number", "=", invoice.number).execute();
    const cn = await t.ctx.db
      .selectFrom("localizations")
      .select("allows_fapiao_processing_after_payment")
      .where("identity", "=", "CN")
      .executeTakeFirstOrThrow();
    const page = await list(cai);
    expect(page.invoices[0].boletoPaymentId).toBe(boleto);
    expect(page.invoices[0].allowsFapiao).toBe(cn.allows_fapiao_processing_after_payment);
    expect(page.fapiaoColumn).toBe(cn.allows_fapiao_processing_after_payment);
  });

  it("shows nothing to a user whose invoices are hidden, and never another user's", async () => {
    const dan = await createResearcher(t.ctx);
    const eve = await createResearcher(t.ctx);
    await createInvoice(t.ctx, dan);
    const evesOwn = await createInvoice(t.ctx, eve);
    expect((await list(dan)).invoices).toHaveLength(1);
    expect((await list(eve)).invoices.map((i) => i.invoiceNumber)).toEqual([evesOwn.invoice.number]);
    await t.ctx.db.updateTable("users").set({ hide_invoices: true }).where("id", "=", dan.id).execute();
    expect((await list(dan)).invoices).toEqual([]);
    expect((await list(dan, {}, true)).pagination.total).toBe(0);
    const load = await loadInvoices(scopeFor(t.ctx, dan), invoiceListSchema.parse({}));
    expect(load.ok && load.value.unpaidInvoices).toEqual([]);
    const anonymous = await listInvoices(systemScope(t.ctx, { userId: null, lang: "en", localization: "US" }), invoiceListSchema.parse({}));
    expect(anonymous.ok).toBe(false);
  });
});

describe("the documents", () => {
  it("renders the invoice with the company, grant, purchase order, billing address and exchange rate; the owner's only", async () => {
    const ana = await createResearcher(t.ctx);
    const { invoice, order } = await createInvoice(t.ctx, ana);
    await t.ctx.db
      .updateTable("invoices")
      .set({
        purchase_order: "PO-77123",
        grant_number: "NIH R01-GM123456",
        fapesp_process_number: "2024/01234-5",
        billing: JSON.stringify({
          name: "Ana Souza",
          organization: "Instituto Alfa",
          address1: "Rua das Flores 12",
          city: "Campinas",
          zip: "13083-970",
        }),
      })
      .where("number", "=", invoice.number)
      .execute();
    await recordProviderPayment(t.ctx, invoice.number, {
      amount: 1000,
      methodId: 3,
      sandbox: false,
      paidAmount: 5123,
      paidCurrency: "BRL",
      exchangeRate: "5.12300000",
    });
    const r = await invoicePdf(scopeFor(t.ctx, ana), invoice.number);
    expect(r.ok).toBe(true);
    const pdf = r.ok ? r.value : Buffer.alloc(0);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = await pdfText(pdf);
    for (const s of [
      "Invoice",
      invoice.number,
      order.externalId,
      "ResearcherServicesLtd",
      "PO-77123",
      "NIHR01-GM123456",
      "2024/01234-5",
      "InstitutoAlfa",
      "R$51,23",
      "5.123",
      "Paymentsreceived",
    ])
      expect(text, s).toContain(s);
    expect(text).not.toContain("TESTMODE");

    const other = await createResearcher(t.ctx);
    expect(await invoicePdf(scopeFor(t.ctx, other), invoice.number)).toMatchObject({ ok: false, error: "not-found" });
    expect((await invoicePdf(scopeFor(t.ctx, ana), "INV0")).ok).toBe(false);
  });

  it("prints the invoice in its language with CJK text; ?localization never changes its issuer (ADR 052)", async () => {
    const li = await createResearcher(t.ctx, { language: "cn" });
    const { invoice } = await createInvoice(t.ctx, li);
    const r = await invoicePdf(scopeFor(t.ctx, li), invoice.number, { localization: "CN" });
    const text = await pdfText(r.ok ? r.value : Buffer.alloc(0));
    expect(text).toContain("发票号");
    // Issued on the US site: the US entity, whatever localisation the reader asks for.
    expect(text).toContain("ResearcherServicesLtd");
    expect(text).not.toContain("瑞思科研服务（北京）有限公司");
    // invoices.lang wins over the user's language.
    await t.ctx.db.updateTable("invoices").set({ lang: "jp" }).where("number", "=", invoice.number).execute();
    const jp = await invoicePdf(scopeFor(t.ctx, li), invoice.number);
    expect(await pdfText(jp.ok ? jp.value : Buffer.alloc(0))).toContain("請求書番号");
  });

  it("has the statement of delivery pending until the order is delivered, then a real one", async () => {
    const bo = await createResearcher(t.ctx);
    const { invoice } = await createInvoice(t.ctx, bo);
    expect(await statementOfDelivery(scopeFor(t.ctx, bo), invoice.number)).toEqual({ ok: true, value: { status: "pending" } });
    const done = await createCompletedOrder(t.ctx, bo, { paid: false });
    const r = await statementOfDelivery(scopeFor(t.ctx, bo), done.invoiceNumber!);
    expect(r.ok && r.value.status).toBe("ready");
    const text = await pdfText(r.ok && r.value.status === "ready" ? r.value.pdf : Buffer.alloc(0));
    expect(text).toContain("Statementofdelivery");
    expect(text).toContain(done.externalId);
    const other = await createResearcher(t.ctx);
    expect((await statementOfDelivery(scopeFor(t.ctx, other), done.invoiceNumber!)).ok).toBe(false);
  });

  it("renders a payment's receipt, labelled test mode for a sandbox payment; the owner's only", async () => {
    const cy = await createResearcher(t.ctx, { language: "br" });
    const { invoice } = await createInvoice(t.ctx, cy);
    const { ledgerId } = await recordProviderPayment(t.ctx, invoice.number, { amount: 2500, methodId: 3, sandbox: true });
    const r = await paymentReceiptPdf(scopeFor(t.ctx, cy), ledgerId);
    const text = await pdfText(r.ok ? r.value : Buffer.alloc(0));
    expect(text).toContain("Recibodepagamento");
    expect(text).toContain("MODODETESTE");
    expect(text).toContain("$25");
    expect(text).toContain("Cartãodecrédito");
    const other = await createResearcher(t.ctx);
    expect(await paymentReceiptPdf(scopeFor(t.ctx, other), ledgerId)).toMatchObject({ ok: false, error: "not-found" });
    expect(await paymentReceiptPdf(scopeFor(t.ctx, cy), "not-a-number")).toMatchObject({ ok: false, error: "not-found" });
    // The invoice shows the sandbox payment as test mode too.
    const inv = await invoicePdf(scopeFor(t.ctx, cy), invoice.number);
    expect(await pdfText(inv.ok ? inv.value : Buffer.alloc(0))).toContain("MODODETESTE");
  });
});
