// One payment form, one answer (issue 21 §6, ADR 060): each kind of bad input gets the same translation key from
// the pay page (without JavaScript: a 400 with the message on the page) and from POST /api/payoff/payment (a 400
// `{ error, fieldErrors }`), because both parse with the one schema built from the page's facts. Before it, a
// 'yes' to a fapiao the page does not ask, a partial prepayment of "-5" without a prepayment, and a `useCredits`
// of the wrong type were dropped unseen and the payment went on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode } from "#common/result";
import { fixedT } from "#server/i18n";
import { signIn, startRelaxedPortal, type Client, type TestPortal } from "../helpers/portal";
import { createInvoice, createResearcher } from "../helpers/factories";

let portal: TestPortal;
beforeAll(async () => {
  portal = await startRelaxedPortal();
});
afterAll(async () => portal.stop());

const keyOf = (html: string) => /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
const escaped = (text: string) => text.replace(/'/g, "&#x27;").replace(/"/g, "&quot;");

interface Case {
  name: string;
  /** What the page posts instead of the valid PayPal form's fields (undefined: the field left out). */
  page: Record<string, string | undefined>;
  /** What the API body sends instead of the valid body's values. */
  api: Record<string, unknown>;
  /** The translation key both answer with, and the field it is beside (null: the whole form). */
  key: string;
  field: string | null;
}

const CASES: Case[] = [
  {
    name: "an unknown method",
    page: { paymentMethodId: "999" },
    api: { paymentMethodId: 999 },
    key: "payment:errors.payment-method-required",
    field: null,
  },
  // The pay page offers card and PayPal: bank transfer is the wizard's.
  {
    name: "a method the page does not offer",
    page: { paymentMethodId: "9" },
    api: { paymentMethodId: 9 },
    key: "payment:errors.payment-method-required",
    field: null,
  },
  {
    name: "missing terms",
    page: { acceptTerms: undefined },
    api: { acceptedTermsAndConditions: undefined },
    key: "payment:errors.payment-accept-terms-and-conditions-failure",
    field: "acceptTerms",
  },
  {
    name: "a fapiao asked where it does not apply",
    page: { requireFapiao: "on" },
    api: { requireFapiao: true },
    key: "fapiao:errors.fapiao-not-offered",
    field: "requireFapiao",
  },
  ...["-5", "NaN", "1e3", "9999999999999"].map((amount) => ({
    name: `a partial prepayment of ${amount}`,
    page: { prepayOption: "partialPayment", prepayAmount: amount },
    api: { prepaymentOption: "partialPayment", amount },
    key: "payment:errors.prepay-amount-invalid",
    field: "prepayAmount",
  })),
  {
    name: "a negative number as the amount",
    page: { prepayOption: "partialPayment", prepayAmount: "-0.01" },
    api: { prepaymentOption: "partialPayment", amount: -0.01 },
    key: "payment:errors.prepay-amount-invalid",
    field: "prepayAmount",
  },
  {
    name: "an unknown prepayment option",
    page: { prepayOption: "everything" },
    api: { prepaymentOption: "everything" },
    key: "payment:errors.option-required",
    field: "prepayOption",
  },
  {
    name: "'use my credits' that is no yes or no",
    page: { useCredits: "banana" },
    api: { useCredits: "banana" },
    key: "payment:errors.value-invalid",
    field: "useCredits",
  },
];

describe("the pay page and POST /api/payoff/payment refuse the same inputs the same way", () => {
  let c: Client;
  let ownerId: number;
  let number: string;
  let path: string;
  let pageBase: Record<string, string>;
  let apiBase: Record<string, unknown>;
  beforeAll(async () => {
    const owner = await createResearcher(portal.ctx);
    ownerId = owner.id;
    c = await signIn(portal, owner);
    number = (await createInvoice(portal.ctx, owner)).invoice.number;
    path = `/en/researcher/invoices/pay/${number}`;
    const us = await portal.ctx.db.selectFrom("countries").select("id").where("iso2", "=", "US").executeTakeFirstOrThrow();
    const address = { address1: "1 Main St", city: "Durham", state: "NC", zip: "27701" };
    pageBase = {
      paymentMethodId: "6",
      acceptTerms: "on",
      ...Object.fromEntries(Object.entries(address).map(([k, v]) => [`address.${k}`, v])),
      "address.countryId": String(us.id),
    };
    apiBase = {
      paymentMethodId: 6,
      acceptedTermsAndConditions: true,
      billingAddress: { ...address, country: { value: us.id } },
      additionalData: { payoffReceiptCodes: [number] },
    };
  });

  it.each(CASES)("$name", async ({ page, api, key, field }) => {
    const html = await (await c.get(path)).text();
    const fields = { ...pageBase, idempotencyKey: keyOf(html)!, ...page };
    const posted = Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));
    const r = await c.post(path, posted);
    expect(r.status).toBe(400);
    const text = fixedT("en", "payment")(key, { context: "invoices" });
    expect(text).not.toContain("errors.");
    expect(await r.text()).toContain(escaped(text));

    const body = Object.fromEntries(Object.entries({ ...apiBase, ...api }).filter((e) => e[1] !== undefined));
    const a = await c.request("/api/payoff/payment", {
      method: "POST",
      headers: { "content-type": "application/json", "Idempotency-Key": `parity-${Math.random().toString(36).slice(2, 12)}` },
      body: JSON.stringify(body),
    });
    expect(a.status).toBe(400);
    const json = (await a.json()) as { error: string; fieldErrors?: Record<string, string> };
    expect(json.error).toBe(errorCode(key));
    if (field) expect(json.fieldErrors?.[field]).toBe(errorCode(key));
    // Refused before any charge: no payment row.
    const rows = await portal.ctx.db.selectFrom("payments").select("id").where("user_id", "=", ownerId).execute();
    expect(rows).toEqual([]);
  });

  it("refuses a value of the wrong JSON type naming its field, with the key the page shows beside it", async () => {
    const send = (over: Record<string, unknown>) =>
      c.request("/api/payoff/payment", {
        method: "POST",
        headers: { "content-type": "application/json", "Idempotency-Key": `types-${Math.random().toString(36).slice(2, 12)}` },
        body: JSON.stringify({ ...apiBase, ...over }),
      });
    const wrong: [Record<string, unknown>, string, string][] = [
      [{ useCredits: 5 }, "useCredits", "value-invalid"],
      [{ acceptedTermsAndConditions: { yes: true } }, "acceptedTermsAndConditions", "payment-accept-terms-and-conditions-failure"],
      [{ paymentMethodId: [6] }, "paymentMethodId", "payment-method-required"],
      [{ amount: { value: 5 }, prepaymentOption: "partialPayment" }, "amount", "prepay-amount-invalid"],
      [{ billingAddress: "1 Main St, Durham" }, "billingAddress", "value-invalid"],
      [{ requireFapiao: 1 }, "requireFapiao", "option-required"],
    ];
    for (const [over, field, code] of wrong) {
      const r = await send(over);
      expect([field, r.status]).toEqual([field, 400]);
      const json = (await r.json()) as { error: string; fieldErrors: Record<string, string> };
      expect([field, json.fieldErrors[field]]).toEqual([field, code]);
    }
  });

  it("says a refusal of a field the page shows no widget for in the page's language (cn)", async () => {
    const cnPath = `/cn/researcher/invoices/pay/${number}`;
    for (const [over, key] of [
      [{ requireFapiao: "on" }, "fapiao:errors.fapiao-not-offered"],
      [{ useCredits: "banana" }, "payment:errors.value-invalid"],
    ] as const) {
      const html = await (await c.get(cnPath)).text();
      const r = await c.post(cnPath, { ...pageBase, idempotencyKey: keyOf(html)!, ...over });
      expect(r.status).toBe(400);
      const text = fixedT("cn", "payment")(key);
      expect(text).toMatch(/[\u4e00-\u9fff]/);
      expect(await r.text()).toContain(text);
    }
  });
});
