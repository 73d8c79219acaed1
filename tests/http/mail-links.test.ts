// Links in e-mails come from configuration only (issue 10 item 1, ADR 025): PUBLIC_URL, the configured host of
// the recipient's localisation, or in development HOST:PORT; never the request's Host or X-Forwarded-Host.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRelaxedPortal, type TestPortal } from "../helpers/portal";
import { createResearcher } from "../helpers/factories";
import { deliveredMail } from "../helpers/mail";
import { sendJson, uploadDocx } from "../helpers/api";

/** A POST with a JSON body and the headers given (Host included, which fetch would not let us choose). */
function rawPost(portalUrl: string, path: string, body: unknown, headers: Record<string, string>): Promise<number> {
  const url = new URL(portalUrl);
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(data), ...headers },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(data);
  });
}

const linkIn = (text: string) => /https?:\/\/\S+/.exec(text)![0];

describe("with PUBLIC_URL", () => {
  let portal: TestPortal;
  beforeAll(async () => {
    // Behind a proxy on loopback, so X-Forwarded-Host would be believed if anything read it.
    portal = await startRelaxedPortal({ PUBLIC_URL: "https://portal.example", TRUST_PROXY: "loopback" });
  });
  afterAll(() => portal?.stop());

  it("mails a reset link to the configured origin whatever Host or X-Forwarded-Host the request names", async () => {
    const user = await createResearcher(portal.ctx);
    expect(await rawPost(portal.url, "/api/auth/request-password-reset", { email: user.email }, { host: "evil.example" })).toBe(200);
    let link = linkIn(deliveredMail(portal.ctx, user.email)[0].text);
    expect(link).toMatch(/^https:\/\/portal\.example\/en\/login\/reset-password\//);

    const headers = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" };
    expect(await rawPost(portal.url, "/api/auth/request-password-reset", { email: user.email }, headers)).toBe(200);
    link = linkIn(deliveredMail(portal.ctx, user.email)[0].text);
    expect(link).toMatch(/^https:\/\/portal\.example\/en\/login\/reset-password\//);
  });

  it("mails a quote's link to the configured origin", async () => {
    const { client: c, email } = await portal.researcher();
    const id: string = (await (await c.get("/api/order-form/new")).json()).orderForm.identity;
    await uploadDocx(c, id);
    await sendJson(c, "PUT", `/api/order-form/${id}/basic-details`, { customerGoal: "manuscript", wordCount: 2000, language: 1 });
    await sendJson(c, "PUT", `/api/order-form/${id}/selected-service`, { serviceIdentities: ["standard-editing"] });
    const { estimateId } = await (await sendJson(c, "PUT", `/api/order-form/${id}/generate-price-quote`)).json();
    const status = await rawPost(
      portal.url,
      `/api/price-quote/${estimateId}/email`,
      {},
      { host: "evil.example", cookie: c.cookieHeader() },
    );
    expect(status).toBe(200);
    expect(linkIn(deliveredMail(portal.ctx, email)[0].text)).toBe(`https://portal.example/api/price-quote/${estimateId}/pdf`);
  });
});

describe("without PUBLIC_URL (development) and with localisation hosts", () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await startRelaxedPortal({ NODE_ENV: "development", CONFIG_LOCALIZATION_HOSTS: JSON.stringify({ BR: "br.example.com" }) });
  });
  afterAll(() => portal?.stop());

  it("links to the configured HOST:PORT, not to the request's Host", async () => {
    const user = await createResearcher(portal.ctx);
    expect(await rawPost(portal.url, "/api/auth/request-password-reset", { email: user.email }, { host: "evil.example" })).toBe(200);
    expect(linkIn(deliveredMail(portal.ctx, user.email)[0].text)).toMatch(/^http:\/\/127\.0\.0\.1:0\/en\/login\/reset-password\//);
  });

  it("links a user of a localisation with its own site to that site", async () => {
    const user = await createResearcher(portal.ctx, {
      country: "BR",
      countryCode: "BR",
      phoneNumber: "11987654321",
      currency: "BRL",
      language: "br",
    });
    expect(await rawPost(portal.url, "/api/auth/request-password-reset", { email: user.email }, { host: "evil.example" })).toBe(200);
    expect(linkIn(deliveredMail(portal.ctx, user.email)[0].text)).toMatch(/^https:\/\/br\.example\.com\/en\/login\/reset-password\//);
  });
});
