import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher } from "../helpers/factories";
import { readSession } from "../../server/accounts/session";
import {
  bindingHash,
  cancelWechatSession,
  confirmWechatSession,
  pollWechatSignIn,
  scanWechatSession,
  startWechatSignIn,
  wechatAvailable,
  wechatConfirmCode,
  wechatProvider,
  WECHAT_QR_TTL_SECONDS,
} from "../../server/auth/wechat";

let t: TestContext;
let userId: number;
const BASE = "http://portal.test";

beforeAll(async () => {
  // The sandbox runs only when configured (ADR 024).
  t = await createTestContext({ WECHAT_MODE: "sandbox" });
  userId = (await createResearcher(t.ctx, { firstName: "Ada", lastName: "Lovelace" })).id;
});
afterAll(async () => t.close());

async function start(ip = "10.0.0.1", extra: { redirect?: string } = {}) {
  const r = await startWechatSignIn(t.ctx, { lang: "cn", ip, userAgent: "UnitTest/1.0", baseUrl: BASE, ...extra });
  if (!r.ok) throw new Error("start refused");
  return r;
}

/** The code shown beside the QR image, which the phone types. */
const code = (loginCode: string) => wechatConfirmCode(t.ctx, loginCode);
const sandbox = () => wechatProvider(t.ctx)!;

const poll = (loginCode: string, secret: string | undefined, ip = "10.0.0.1") =>
  pollWechatSignIn(t.ctx, { loginCode, secret, ip, userAgent: "UnitTest/1.0" });

describe("sandbox WeChat adapter", () => {
  it("creates a QR session with a random code, a ticket, a local QR target and a data: image", async () => {
    const r = await start("10.0.0.1", { redirect: "/cn/researcher/invoices" });
    expect(Buffer.from(r.loginCode, "base64url").length).toBeGreaterThanOrEqual(16);
    expect(r.ticket).toMatch(/^sandbox_/);
    expect(r.url).toBe(`${BASE}/cn/login/wechat/confirm/${r.loginCode}`);
    expect(r.qrCodeUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(r.qrCodeUrl.split(",")[1], "base64").toString()).toContain("<svg");
    expect(r.sandbox).toBe(true);
    const row = await t.ctx.db
      .selectFrom("wechat_login_sessions")
      .selectAll()
      .where("login_code", "=", r.loginCode)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("pending");
    expect(row.provider).toBe("sandbox");
    expect(row.lang).toBe("cn");
    expect(row.redirect).toBe("/cn/researcher/invoices");
    // Only the hash of the browser's secret is stored.
    expect(row.binding_hash).toBe(bindingHash(r.secret));
    expect(JSON.stringify(row)).not.toContain(r.secret);
    const ttl = (new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()) / 1000;
    expect(ttl).toBe(WECHAT_QR_TTL_SECONDS);
    // Two sessions never share a code.
    expect((await start()).loginCode).not.toBe(r.loginCode);
  });

  it("reports pending, then scanned, while waiting", async () => {
    const r = await start();
    expect(await poll(r.loginCode, r.secret)).toMatchObject({ kind: "waiting", status: "pending" });
    expect(await scanWechatSession(t.ctx, r.loginCode, code(r.loginCode))).toEqual({ ok: true });
    expect(await poll(r.loginCode, r.secret)).toMatchObject({ kind: "waiting", status: "scanned" });
  });

  it("signs the creating browser in once the phone confirms, and only once", async () => {
    const r = await start("10.0.0.1", { redirect: "/cn/researcher/invoices" });
    expect(await confirmWechatSession(t.ctx, r.loginCode, userId, code(r.loginCode))).toEqual({ ok: true });
    expect((await sandbox().status(r.loginCode))?.status).toBe("confirmed");
    const first = await poll(r.loginCode, r.secret);
    expect(first.kind).toBe("signed-in");
    if (first.kind !== "signed-in") return;
    expect(first.user).toMatchObject({ id: userId, firstName: "Ada", lastName: "Lovelace" });
    expect(first.redirect).toBe("/cn/researcher/invoices");
    expect(first.lang).toBe("cn");
    expect((await readSession(t.ctx.db, first.token))?.user.id).toBe(userId);
    // Consumed: the second poll gets nothing.
    expect(await poll(r.loginCode, r.secret)).toEqual({ kind: "error", error: "used" });
    expect((await sandbox().status(r.loginCode))?.status).toBe("consumed");
    // A confirmed-and-used session cannot be confirmed again.
    expect(await confirmWechatSession(t.ctx, r.loginCode, userId, code(r.loginCode))).toEqual({ ok: false, error: "already-handled" });
  });

  it("is consumed by exactly one of two simultaneous polls", async () => {
    const r = await start();
    await confirmWechatSession(t.ctx, r.loginCode, userId, code(r.loginCode));
    const results = await Promise.all([poll(r.loginCode, r.secret), poll(r.loginCode, r.secret), poll(r.loginCode, r.secret)]);
    expect(results.filter((x) => x.kind === "signed-in")).toHaveLength(1);
  });

  it("requires the binding secret: the login code alone signs nobody in", async () => {
    const r = await start();
    const other = await start();
    await confirmWechatSession(t.ctx, r.loginCode, userId, code(r.loginCode));
    expect(await poll(r.loginCode, undefined)).toEqual({ kind: "error", error: "unknown" });
    expect(await poll(r.loginCode, "not-the-secret")).toEqual({ kind: "error", error: "unknown" });
    // Another session's secret does not fit either.
    expect(await poll(r.loginCode, other.secret)).toEqual({ kind: "error", error: "unknown" });
    // The session is still there for its own browser.
    expect((await sandbox().status(r.loginCode))?.status).toBe("confirmed");
    expect((await poll(r.loginCode, r.secret)).kind).toBe("signed-in");
  });

  it("answers unknown for codes that do not exist or are malformed", async () => {
    expect(await poll("A".repeat(43), "whatever")).toEqual({ kind: "error", error: "unknown" });
    expect(await poll("../../etc", "whatever")).toEqual({ kind: "error", error: "unknown" });
    expect(await confirmWechatSession(t.ctx, "B".repeat(43), userId, code("B".repeat(43)))).toEqual({ ok: false, error: "unknown" });
  });

  it("expires: neither polling nor confirming works after the expiry", async () => {
    const r = await start();
    await t.ctx.db
      .updateTable("wechat_login_sessions")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("login_code", "=", r.loginCode)
      .execute();
    expect(await poll(r.loginCode, r.secret)).toEqual({ kind: "error", error: "expired" });
    expect(
      (await t.ctx.db.selectFrom("wechat_login_sessions").select("status").where("login_code", "=", r.loginCode).executeTakeFirstOrThrow())
        .status,
    ).toBe("expired");
    expect(await confirmWechatSession(t.ctx, r.loginCode, userId, code(r.loginCode))).toEqual({ ok: false, error: "expired" });
    // A confirmed session that was not picked up in time expires too.
    const c = await start();
    await confirmWechatSession(t.ctx, c.loginCode, userId, code(c.loginCode));
    await t.ctx.db
      .updateTable("wechat_login_sessions")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("login_code", "=", c.loginCode)
      .execute();
    expect(await poll(c.loginCode, c.secret)).toEqual({ kind: "error", error: "expired" });
  });

  it("can be cancelled on the phone", async () => {
    const r = await start();
    expect(await cancelWechatSession(t.ctx, r.loginCode, code(r.loginCode))).toEqual({ ok: true });
    expect(await poll(r.loginCode, r.secret)).toEqual({ kind: "error", error: "cancelled" });
    expect(await confirmWechatSession(t.ctx, r.loginCode, userId, code(r.loginCode))).toEqual({ ok: false, error: "already-handled" });
  });

  it("acts on the phone's side only with the code shown beside the QR image", async () => {
    const r = await start();
    expect(r.confirmCode).toBe(code(r.loginCode));
    expect(r.confirmCode).toMatch(/^[A-HJKMNP-Z2-9]{6}$/);
    // Another session has another code (a 6-character code from 31 characters: 887 million of them).
    expect(code((await start()).loginCode)).not.toBe(r.confirmCode);
    const wrong = r.confirmCode === "AAAAAA" ? "BBBBBB" : "AAAAAA";
    expect(await scanWechatSession(t.ctx, r.loginCode, wrong)).toEqual({ ok: false, error: "wrong-code" });
    expect(await confirmWechatSession(t.ctx, r.loginCode, userId, undefined)).toEqual({ ok: false, error: "wrong-code" });
    expect(await cancelWechatSession(t.ctx, r.loginCode, "")).toEqual({ ok: false, error: "wrong-code" });
    expect((await sandbox().status(r.loginCode))?.status).toBe("pending");
    // Typed in lower case with a space: the same code.
    const typed = `${r.confirmCode.slice(0, 3).toLowerCase()} ${r.confirmCode.slice(3)}`;
    expect(await scanWechatSession(t.ctx, r.loginCode, typed)).toEqual({ ok: true });
    expect((await sandbox().status(r.loginCode))?.status).toBe("scanned");
  });

  it("ends the QR session at the fifth wrong code", async () => {
    const r = await start();
    const wrong = r.confirmCode === "AAAAAA" ? "BBBBBB" : "AAAAAA";
    for (let i = 0; i < 4; i++)
      expect(await confirmWechatSession(t.ctx, r.loginCode, userId, wrong)).toEqual({ ok: false, error: "wrong-code" });
    expect(await confirmWechatSession(t.ctx, r.loginCode, userId, wrong)).toEqual({ ok: false, error: "expired" });
    expect(await confirmWechatSession(t.ctx, r.loginCode, userId, r.confirmCode)).toEqual({ ok: false, error: "expired" });
    expect(await poll(r.loginCode, r.secret)).toEqual({ kind: "error", error: "expired" });
  });

  it("does not sign in an account that became inactive", async () => {
    const r = await start();
    await confirmWechatSession(t.ctx, r.loginCode, userId, code(r.loginCode));
    await t.ctx.db.updateTable("users").set({ active: false }).where("id", "=", userId).execute();
    try {
      expect(await poll(r.loginCode, r.secret)).toEqual({ kind: "error", error: "inactive" });
    } finally {
      await t.ctx.db.updateTable("users").set({ active: true }).where("id", "=", userId).execute();
    }
  });
});

describe("WeChat rate limits", () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({
      WECHAT_MODE: "sandbox",
      CONFIG_RATE_LIMITS: JSON.stringify({
        signInPerMinute: 10,
        registrationsPerHour: 20,
        resetRequestsPerHour: 10,
        emailChecksPerHour: 30,
        wechatStartsPer10Minutes: 3,
        wechatPollsPerCode: 4,
        wechatPollsPerMinute: 6,
      }),
    });
  });
  afterAll(async () => limited.close());

  const startOn = async (ip: string) => startWechatSignIn(limited.ctx, { lang: "en", ip, baseUrl: BASE });

  it("limits polls per login code", async () => {
    const r = await startOn("10.1.0.1");
    if (!r.ok) throw new Error("start refused");
    for (let i = 0; i < 4; i++)
      expect((await pollWechatSignIn(limited.ctx, { loginCode: r.loginCode, secret: r.secret, ip: `10.1.1.${i}` })).kind).toBe("waiting");
    const over = await pollWechatSignIn(limited.ctx, { loginCode: r.loginCode, secret: r.secret, ip: "10.1.1.9" });
    expect(over).toMatchObject({ kind: "error", error: "rate-limited" });
    expect(over.kind === "error" && over.retryAfterSeconds).toBeGreaterThan(0);
  });

  it("limits polls per address, across codes", async () => {
    const codes = [];
    for (let i = 0; i < 3; i++) {
      const r = await startOn(`10.2.0.${i}`);
      if (!r.ok) throw new Error("start refused");
      codes.push(r);
    }
    const results = [];
    for (let i = 0; i < 7; i++) {
      const r = codes[i % 3];
      results.push((await pollWechatSignIn(limited.ctx, { loginCode: r.loginCode, secret: r.secret, ip: "10.2.9.9" })).kind);
    }
    expect(results.slice(0, 6).every((k) => k === "waiting")).toBe(true);
    expect(results[6]).toBe("error");
  });

  it("limits how many QR sessions one address starts", async () => {
    for (let i = 0; i < 3; i++) expect((await startOn("10.3.0.1")).ok).toBe(true);
    expect(await startOn("10.3.0.1")).toMatchObject({ ok: false, error: "rate-limited" });
    expect((await startOn("10.3.0.2")).ok).toBe(true);
  });
});

describe("without WECHAT_MODE", () => {
  it("has no provider", async () => {
    const plain = await createTestContext();
    try {
      expect(wechatProvider(plain.ctx)).toBeNull();
      expect(await wechatAvailable(plain.ctx)).toBe(false);
      expect(await wechatAvailable(t.ctx)).toBe(true);
    } finally {
      await plain.close();
    }
  });
});
