// E-mail as a spam cannon and quote PDFs as CPU for free (issue 10 §4, §5), over HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, Client, RELAXED_RATE_LIMITS, type TestPortal } from "../helpers/portal";
import { deliveredMail } from "../helpers/mail";
import { sendJson as send, uploadDocx } from "../helpers/api";
import { MAIL_LIMIT_DEFAULTS, listOutbox } from "../../server/mail";

let portal: TestPortal;
const PDF_LIMIT = 3;
beforeAll(async () => {
  portal = await startRelaxedPortal({ CONFIG_RATE_LIMITS: JSON.stringify({ ...RELAXED_RATE_LIMITS, quotePdfsPer10Minutes: PDF_LIMIT }) });
});
afterAll(async () => portal.stop());

async function quoteOf(c: Client): Promise<string> {
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
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await over.json()).error).toBe("too-many-requests");
  });
});

describe("e-mail verification", () => {
  it("registration sends only the verification mail; quotes are not e-mailed until the link's button is pressed", async () => {
    const c = new Client(portal.url);
    const email = `unconfirmed.${Date.now()}@example.org`;
    const r = await send(c, "POST", "/api/auth/register", {
      email,
      password: "api-password-1",
      firstName: "Visit spam.example",
      lastName: "User",
      countryCode: { value: "+1", isoCode: "US" },
      phoneNumber: "2025550199",
      country: "US",
      currency: "USD",
      language: "en",
      agreeToTOS: true,
    });
    expect(r.status).toBe(201);
    const outbox = await listOutbox(portal.ctx, { to: email });
    expect(outbox.map((m) => m.template)).toEqual(["email-verification"]);
    expect(outbox[0].text_body).not.toContain("spam.example");

    const estimateId = await quoteOf(c);
    const refused = await send(c, "POST", `/api/price-quote/${estimateId}/email`);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe("email-not-verified");
    const page = await c.post("/en/researcher/submit/price-quote-completed", { intent: "email", estimateId });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("Please confirm your e-mail address first");
    expect(await listOutbox(portal.ctx, { to: email })).toHaveLength(1);

    const link = new URL(/http:\/\/\S+\/en\/verify-email\/\S+/.exec(deliveredMail(portal.ctx, email)[0].text)![0]);
    // Opening the link (a mail scanner does) changes nothing.
    const opened = await new Client(portal.url).get(link.pathname);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain("Confirm my e-mail address");
    expect((await send(c, "POST", `/api/price-quote/${estimateId}/email`)).status).toBe(403);
    // A forged link is refused; the genuine one's button confirms the address.
    const forged = await new Client(portal.url).post(
      link.pathname.replace(/.$/, (ch) => (ch === "A" ? "B" : "A")),
      {},
    );
    expect(forged.status).toBe(400);
    const confirmed = await new Client(portal.url).post(link.pathname, {});
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("your e-mail address is confirmed");
    expect((await send(c, "POST", `/api/price-quote/${estimateId}/email`)).status).toBe(200);
  });
});
