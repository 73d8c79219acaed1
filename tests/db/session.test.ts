import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { createResearcher, createStaff, type TestUser } from "../helpers/factories";
import {
  createSession,
  readSession,
  revokeSession,
  revokeAllSessions,
  hashToken,
  SESSION_IDLE_SECONDS,
  SESSION_ABSOLUTE_SECONDS,
} from "../../server/accounts/session";
import { sessionCookie } from "../../server/auth/http";
import { signInWithPassword } from "../../server/auth/login";

let t: TestContext;
let userId: number;
let user: TestUser;
let staff: TestUser;
beforeAll(async () => {
  t = await createTestContext();
  user = await createResearcher(t.ctx, { email: "reader@example.org" });
  staff = await createStaff(t.ctx);
  userId = user.id;
});
afterAll(async () => t.close());

describe("sessions", () => {
  it("issue 128-bit tokens and store only their hash", async () => {
    const token = await createSession(t.ctx.db, userId);
    expect(Buffer.from(token, "base64url").length).toBe(16);
    const row = await t.ctx.db.selectFrom("sessions").selectAll().where("id_hash", "=", hashToken(token)).executeTakeFirstOrThrow();
    expect(row.id_hash).not.toContain(token);
    const session = await readSession(t.ctx.db, token);
    expect(session?.user.email).toBe("reader@example.org");
  });

  it("expire after the idle timeout and the absolute timeout", async () => {
    const token = await createSession(t.ctx.db, userId);
    const now = Date.now();
    // Activity just inside the idle window keeps the session (and moves the window on)...
    const active = now + (SESSION_IDLE_SECONDS - 60) * 1000;
    expect(await readSession(t.ctx.db, token, new Date(active))).not.toBeNull();
    // ...and a gap longer than the idle timeout ends it.
    expect(await readSession(t.ctx.db, token, new Date(active + (SESSION_IDLE_SECONDS + 1) * 1000))).toBeNull();
    const token2 = await createSession(t.ctx.db, userId);
    await t.ctx.db
      .updateTable("sessions")
      .set({ last_seen_at: new Date(now + SESSION_ABSOLUTE_SECONDS * 1000) })
      .where("id_hash", "=", hashToken(token2))
      .execute();
    expect(await readSession(t.ctx.db, token2, new Date(now + SESSION_ABSOLUTE_SECONDS * 1000 + 1000))).toBeNull();
  });

  it("can be revoked one by one or all at once", async () => {
    const a = await createSession(t.ctx.db, userId);
    const b = await createSession(t.ctx.db, userId);
    await revokeSession(t.ctx.db, a);
    expect(await readSession(t.ctx.db, a)).toBeNull();
    expect(await readSession(t.ctx.db, b)).not.toBeNull();
    await revokeAllSessions(t.ctx.db, userId);
    expect(await readSession(t.ctx.db, b)).toBeNull();
  });

  it("ignore garbage tokens and set a safe cookie", async () => {
    expect(await readSession(t.ctx.db, "x".repeat(500))).toBeNull();
    expect(await readSession(t.ctx.db, undefined)).toBeNull();
    expect(sessionCookie("tok", true)).toMatch(/^sid=tok; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    expect(sessionCookie("tok", false)).not.toContain("Secure");
  });
});

describe("password sign-in", () => {
  it("signs in with the right password, case-insensitive e-mail", async () => {
    const r = await signInWithPassword(t.ctx, { email: " Reader@Example.org ", password: user.password, ip: "10.0.0.1" });
    expect(r.ok).toBe(true);
  });
  it("refuses a wrong password and an unknown address alike", async () => {
    expect(await signInWithPassword(t.ctx, { email: "reader@example.org", password: "nope", ip: "10.0.0.2" })).toEqual({
      ok: false,
      error: "invalid-credentials",
    });
    expect(await signInWithPassword(t.ctx, { email: "nobody@example.com", password: "nope", ip: "10.0.0.2" })).toEqual({
      ok: false,
      error: "invalid-credentials",
    });
  });
  it("limits failures per account and address, not per account (issue 10 §7, ADR 024)", async () => {
    for (let i = 0; i < 10; i++) await signInWithPassword(t.ctx, { email: staff.email, password: "bad", ip: "10.1.0.1" });
    const limited = await signInWithPassword(t.ctx, { email: staff.email, password: staff.password, ip: "10.1.0.1" });
    expect(limited).toMatchObject({ ok: false, error: "too-many-attempts" });
    // The owner, from an address that has not failed.
    expect((await signInWithPassword(t.ctx, { email: staff.email, password: staff.password, ip: "10.1.1.1" })).ok).toBe(true);
  });
  it("is refused when local authentication is turned off", async () => {
    await t.ctx.config.setConfig("localAuthEnabled", false);
    expect(await signInWithPassword(t.ctx, { email: "reader@example.org", password: user.password, ip: "10.0.0.9" })).toEqual({
      ok: false,
      error: "local-auth-disabled",
    });
    await t.ctx.config.setConfig("localAuthEnabled", true);
  });
});
