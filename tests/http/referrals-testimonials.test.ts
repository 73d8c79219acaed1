// Referrals and testimonials over HTTP (issue 25 items 3 and 4, ADR 076): the register page carries the referral
// code through both stages without JavaScript, and the API takes `referralCode`; 'My Referrals' (link, share links,
// inline QR SVG, no third-party origin), its flyer PDF, GET /api/referral-rewards/load and /total-credits (own data,
// visitor 401, POST 405); the testimonial page (POST → 303 → /researcher with the notice; the empty text refused in
// English and Chinese), POST /api/testimonials/create (good, bad, visitor, cross-site); the staff pages (approve
// POST → 303, a researcher refused, the photo route staff-only).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { startRelaxedPortal, Client, type TestPortal, type SignedInUser } from "../helpers/portal";
import { uniqueEmail } from "../helpers/factories";

let portal: TestPortal;
let referrer: SignedInUser;
beforeAll(async () => {
  portal = await startRelaxedPortal({ WORKERS: "external" });
  referrer = await portal.researcher({ firstName: "Rita", lastName: "Referrer" });
});
afterAll(async () => portal.stop());

async function codeOf(id: number) {
  return (await portal.ctx.db.selectFrom("users").select("referral_code").where("id", "=", id).executeTakeFirstOrThrow()).referral_code;
}
const png = () =>
  sharp({ create: { width: 20, height: 20, channels: 3, background: "#3366aa" } })
    .png()
    .toBuffer();

function testimonialForm(text: string | null, file?: { bytes: Buffer; name: string }) {
  const form = new FormData();
  if (text !== null) form.set("testimonial", text);
  if (file) form.set("testimonialFiles", new Blob([new Uint8Array(file.bytes)]), file.name);
  return form;
}

describe("registration through the referral link", () => {
  it("carries the code through both stages of the page without JavaScript", async () => {
    const code = await codeOf(referrer.id);
    const path = `/en/register?referralCode=${code}`;
    const client = new Client(portal.url);
    const page = await client.get(path);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`name="referralCode" value="${code}"`);
    const email = uniqueEmail("colleague");
    const stage1 = await client.post(path, { intent: "check-email", email, referralCode: code });
    expect(stage1.status).toBe(200);
    expect(await stage1.text()).toContain(`name="referralCode" value="${code}"`);
    const done = await client.post(path, {
      intent: "register",
      email,
      password: "Colleague#Pass-2026",
      firstName: "Carl",
      lastName: "Colleague",
      countryCode: "US",
      phoneNumber: "2025550123",
      country: "US",
      currency: "USD",
      language: "en",
      agreeToTOS: "on",
      referralCode: code,
    });
    expect(done.status).toBe(303);
    const user = await portal.ctx.db
      .selectFrom("users")
      .select(["id", "referred_by_user_id"])
      .where("email", "=", email)
      .executeTakeFirstOrThrow();
    expect(user.referred_by_user_id).toBe(referrer.id);
    // The colleague's dashboard shows the welcome code.
    const dash = await client.get("/en/researcher");
    const html = await dash.text();
    expect(html).toContain("welcome discount");
    expect(html).toMatch(/WELCOME-[A-Z0-9]{8}/);
  });

  it("takes referralCode in POST /api/auth/register; an unknown code registers without a referral", async () => {
    const code = await codeOf(referrer.id);
    const body = (email: string, referralCode: string) =>
      JSON.stringify({
        email,
        password: "Colleague#Pass-2026",
        firstName: "Api",
        lastName: "Colleague",
        countryCode: "US",
        phoneNumber: "2025550123",
        country: "US",
        currency: "USD",
        agreeToTOS: true,
        referralCode,
      });
    const a = uniqueEmail("api");
    const r = await new Client(portal.url).request("/api/auth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: body(a, code),
    });
    expect(r.status).toBe(201);
    const b = uniqueEmail("api");
    const r2 = await new Client(portal.url).request("/api/auth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: body(b, "NOPE"),
    });
    expect(r2.status).toBe(201);
    const rows = await portal.ctx.db.selectFrom("users").select(["email", "referred_by_user_id"]).where("email", "in", [a, b]).execute();
    expect(Object.fromEntries(rows.map((x) => [x.email, x.referred_by_user_id]))).toEqual({ [a]: referrer.id, [b]: null });
  });
});

describe("My Referrals", () => {
  it("shows the link, share links, the inline QR code and the flyer link; no third-party origin loads", async () => {
    const r = await referrer.client.get("/en/referral-rewards");
    expect(r.status).toBe(200);
    const html = await r.text();
    const code = await codeOf(referrer.id);
    expect(html).toContain(`referralCode=${code}`);
    expect(html).toContain("<svg");
    expect(html).toContain('href="/en/referral-rewards/flyer.pdf"');
    expect(html).toMatch(/href="mailto:\?subject=/);
    expect(html).toContain('href="https://wa.me/?text=');
    expect(html).toContain("<details");
    // No script, style, image or font from elsewhere.
    expect(html).not.toMatch(/<(script|img|link|iframe)[^>]+(src|href)="https?:\/\//);
    expect(html).toContain("Total referral earnings");
  });

  it("sends a visitor to sign in; /referral-rewards/other is not found", async () => {
    const r = await new Client(portal.url).get("/en/referral-rewards");
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toContain("/en/login");
    expect((await referrer.client.get("/en/referral-rewards/other")).status).toBe(404);
  });

  it("serves the flyer PDF to its owner only", async () => {
    const r = await referrer.client.get("/cn/referral-rewards/flyer.pdf");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await r.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    expect((await new Client(portal.url).get("/en/referral-rewards/flyer.pdf")).status).toBe(302);
  });

  it("GET /api/referral-rewards/load and /total-credits answer the caller's own; visitor 401; POST 405", async () => {
    const load = await referrer.client.get("/api/referral-rewards/load");
    expect(load.status).toBe(200);
    const body = (await load.json()) as { numberOfReferralsSent: number; referralCode: string; referrals: { colleague: string }[] };
    expect(body.referralCode).toBe(await codeOf(referrer.id));
    expect(body.numberOfReferralsSent).toBeGreaterThanOrEqual(2);
    expect(body.referrals.some((x) => x.colleague === "Carl C.")).toBe(true);
    const total = await referrer.client.get("/api/referral-rewards/total-credits");
    expect(await total.json()).toEqual({ totalEarnedCredits: 0, currency: { isoCode: "USD", sign: "$", numDecimals: 2 } });
    // Another researcher sees their own (none).
    const other = await portal.researcher();
    const theirs = (await (await other.client.get("/api/referral-rewards/load")).json()) as { numberOfReferralsSent: number };
    expect(theirs.numberOfReferralsSent).toBe(0);
    expect((await new Client(portal.url).get("/api/referral-rewards/load")).status).toBe(401);
    expect((await new Client(portal.url).get("/api/referral-rewards/total-credits")).status).toBe(401);
    expect((await referrer.client.post("/api/referral-rewards/load", {})).status).toBe(405);
  });
});

describe("testimonials", () => {
  it("page: the empty text is refused (English, Chinese), a photo + text is 303 → /researcher with the notice", async () => {
    const user = await portal.researcher();
    expect((await user.client.get("/en/testimonials/submit")).status).toBe(200);
    const empty = await user.client.request("/en/testimonials/submit", { method: "POST", body: testimonialForm("") });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Please type in a testimonial before clicking Submit");
    const cn = await user.client.request("/cn/testimonials/submit", { method: "POST", body: testimonialForm("") });
    expect(cn.status).toBe(400);
    expect(await cn.text()).toContain("请先输入评价内容，再点击提交");
    const notImage = await user.client.request("/en/testimonials/submit", {
      method: "POST",
      body: testimonialForm("Kept text", { bytes: Buffer.from("plain text"), name: "x.png" }),
    });
    expect(notImage.status).toBe(400);
    const again = await notImage.text();
    expect(again).toContain("Please choose a JPEG, PNG or WebP image.");
    expect(again).toContain("Kept text");
    const ok = await user.client.request("/en/testimonials/submit", {
      method: "POST",
      body: testimonialForm("Lovely work", { bytes: await png(), name: "me.png" }),
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/en/researcher?testimonial=received");
    const dash = await user.client.get(ok.headers.get("location")!);
    expect(await dash.text()).toContain("Your testimonial has been received. Thank you for helping us serve you better.");
  });

  it("API: good, empty, not an image, visitor, cross-site", async () => {
    const user = await portal.researcher();
    const post = (client: Client, form: FormData, headers: Record<string, string> = {}) =>
      client.request("/api/testimonials/create", { method: "POST", body: form, headers });
    const good = await post(user.client, testimonialForm("API testimonial", { bytes: await png(), name: "p.jpg" }));
    expect(good.status).toBe(201);
    expect(await good.json()).toMatchObject({ photo: true, submittedTestimonial: true });
    const empty = await post(user.client, testimonialForm(""));
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: "testimonial-required", fieldErrors: { testimonial: "testimonial-required" } });
    const bad = await post(user.client, testimonialForm("x", { bytes: Buffer.from("GIF89a nope"), name: "a.png" }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).fieldErrors).toEqual({ testimonialFiles: "photo-type" });
    expect((await post(new Client(portal.url), testimonialForm("x"))).status).toBe(401);
    expect((await post(user.client, testimonialForm("x"), { origin: "https://evil.example" })).status).toBe(403);
    const big = await user.client.request("/api/testimonials/create", {
      method: "POST",
      body: testimonialForm("x", { bytes: Buffer.alloc(6 * 1024 * 1024, 1), name: "big.png" }),
    });
    expect([400, 413]).toContain(big.status);
  });

  it("staff list, view, photo and approve (POST → 303); a researcher and a visitor may not", async () => {
    const user = await portal.researcher({ firstName: "Tess" });
    const created = await user.client.request("/api/testimonials/create", {
      method: "POST",
      body: testimonialForm("For staff", { bytes: await png(), name: "s.png" }),
    });
    const { id } = (await created.json()) as { id: string };
    const staff = await portal.staff();
    const list = await staff.client.get("/en/staff/testimonials");
    expect(list.status).toBe(200);
    expect(await list.text()).toContain("For staff");
    expect((await staff.client.get(`/en/staff/testimonials/${id}`)).status).toBe(200);
    const photo = await staff.client.get(`/en/staff/testimonials/${id}/photo`);
    expect(photo.status).toBe(200);
    expect(photo.headers.get("content-type")).toBe("image/png");
    const approved = await staff.client.post(`/en/staff/testimonials/${id}`, { intent: "approve", id });
    expect(approved.status).toBe(303);
    expect(approved.headers.get("location")).toBe(`/en/staff/testimonials/${id}?reviewed=approved`);
    const row = await portal.ctx.db.selectFrom("testimonials").select("status").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.status).toBe("approved");
    const bad = await staff.client.post("/en/staff/testimonials", { intent: "publish", id });
    expect(bad.status).toBe(400);
    // A researcher and a visitor.
    for (const path of ["/en/staff/testimonials", `/en/staff/testimonials/${id}`, `/en/staff/testimonials/${id}/photo`]) {
      expect([302, 403, 404], path).toContain((await user.client.get(path)).status);
      expect((await new Client(portal.url).get(path)).status, path).toBe(302);
    }
    const refused = await user.client.post(`/en/staff/testimonials/${id}`, { intent: "reject", id });
    expect([302, 403, 404]).toContain(refused.status);
    const cross = await staff.client.request(`/en/staff/testimonials/${id}`, {
      method: "POST",
      body: new URLSearchParams({ intent: "reject", id }),
      headers: { "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
    });
    expect(cross.status).toBe(403);
    expect((await portal.ctx.db.selectFrom("testimonials").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status).toBe(
      "approved",
    );
  });
});
