// E-mail as a spam cannon and quote PDFs as CPU for free (issue 10 §4, §5), over HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, RELAXED_RATE_LIMITS, type TestPortal } from "../helpers/portal";
import { sendJson as send, uploadDocx } from "../helpers/api";
import { MAIL_LIMIT_DEFAULTS, listOutbox } from "../../server/mail";

let portal: TestPortal;
const PDF_LIMIT = 3;
beforeAll(async () => {
  portal = await startRelaxedPortal({ CONFIG_RATE_LIMITS: JSON.stringify({ ...RELAXED_RATE_LIMITS, quotePdfsPer10Minutes: PDF_LIMIT }) });
});
afterAll(async () => portal.stop());

async function quoteOf(c: Awaited<ReturnType<TestPortal["researcher"]>>["client"]): Promise<string> {
  const id: string = (await (await c.get("/api/order-form/new")).json()).orderForm.identity;
  await uploadDocx(c, id);
  await send(c, "PUT", `/api/order-form/${id}/basic-details`, { customerGoal: "manuscript", wordCount: 2000, language: 1 });
  await send(c, "PUT", `/api/order-form/${id}/selected-service`, { serviceIdentities: ["standard-editing"] });
  return (await (await send(c, "PUT", `/api/order-form/${id}/generate-price-quote`)).json()).estimateId;
}

describe("quote e-mails", () => {
  it("stop at the per-recipient limit with 429, and greet without any text the user typed", async () => {
    const spam = "Claim your prize at http://spam.example";
    const { client: c, email } = await portal.researcher({ firstName: spam });
    const estimateId = await quoteOf(c);
    const answers = await Promise.all(
      Array.from({ length: MAIL_LIMIT_DEFAULTS.mailPerRecipientPerHour + 5 }, () =>
        send(c, "POST", `/api/price-quote/${estimateId}/email`),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAIL_LIMIT_DEFAULTS.mailPerRecipientPerHour);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const refused = await answers.find((r) => r.status === 429)!.json();
    expect(refused.error).toBe("too-many-requests");
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    const mails = await listOutbox(portal.ctx, { to: email });
    expect(mails).toHaveLength(MAIL_LIMIT_DEFAULTS.mailPerRecipientPerHour);
    expect(mails[0].text_body).toMatch(/^Hello,\n/);
    expect(mails[0].text_body).not.toContain("spam.example");

    // The page without JavaScript says so too.
    const page = await c.post("/en/researcher/submit/price-quote-completed", { intent: "email", estimateId });
    expect(page.status).toBe(429);
    expect(await page.text()).toContain("You have asked for this e-mail too often.");
  });
});

describe("quote PDFs", () => {
  it("are limited per user (429 once the allowance is used)", async () => {
    const { client: c } = await portal.researcher();
    const estimateId = await quoteOf(c);
    for (let i = 0; i < PDF_LIMIT; i++) expect((await c.get(`/api/price-quote/${estimateId}/pdf`)).status).toBe(200);
    const over = await c.get(`/api/price-quote/${estimateId}/pdf`);
    expect(over.status).toBe(429);
    expect((await over.json()).error).toBe("too-many-requests");
  });
});
