// The real portal (built Remix app + HTTP layer) on a random port over a test database.
import path from "node:path";
import { startPortal, type RunningPortal } from "../../server/boot";
import { createTestDatabase } from "./db";
import { testEnv } from "./context";
import { createResearcher, createStaff, type TestUser } from "./factories";
import type { RegistrationInput } from "#server/accounts/registration";

/** A factory user and a client (cookie jar) signed in as them. */
export interface SignedInUser extends TestUser {
  client: Client;
}

export interface TestPortal extends RunningPortal {
  /** A new client (cookie jar) signed in as `user` through the sign-in API. */
  signIn(user: { email: string; password: string }): Promise<Client>;
  /** A new researcher (factories' createResearcher, `overrides` as there), signed in through the sign-in API. */
  researcher(overrides?: Partial<RegistrationInput>): Promise<SignedInUser>;
  /** A new staff member (factories' createStaff), signed in through the sign-in API. */
  staff(overrides?: Partial<RegistrationInput>): Promise<SignedInUser>;
}

export async function startTestPortal(extraEnv: Record<string, string | undefined> = {}): Promise<TestPortal> {
  const database = await createTestDatabase();
  const env = testEnv({ SEED_DEMO: "true", ...extraEnv });
  const portal = await startPortal({ env, database, rootDir: path.resolve(".") });
  const signedIn = async (user: TestUser): Promise<SignedInUser> => ({ ...user, client: await signIn(portal, user) });
  return Object.assign(portal, {
    signIn: (user: { email: string; password: string }) => signIn(portal, user),
    researcher: async (overrides: Partial<RegistrationInput> = {}) => signedIn(await createResearcher(portal.ctx, overrides)),
    staff: async (overrides: Partial<RegistrationInput> = {}) => signedIn(await createStaff(portal.ctx, overrides)),
  });
}

/**
 * The per-address limits a portal under test would otherwise hit: its tests sign in and register
 * many times from one address within seconds. The limits themselves are tested in tests/db.
 */
export const RELAXED_RATE_LIMITS = {
  signInPerMinute: 1000,
  registrationsPerHour: 1000,
  resetRequestsPerHour: 1000,
  emailChecksPerHour: 1000,
  // Wrong passwords per account and address, and per account (server/auth/login.ts, ADR 024).
  signInFailuresPerAccountAddress: 1000,
  signInFailuresPerAccount: 1000,
};

/** A test portal with relaxed rate limits (RELAXED_RATE_LIMITS); `extraEnv` as for startTestPortal. */
export function startRelaxedPortal(extraEnv: Record<string, string | undefined> = {}): Promise<TestPortal> {
  return startTestPortal({ CONFIG_RATE_LIMITS: JSON.stringify(RELAXED_RATE_LIMITS), ...extraEnv });
}

/** A new client signed in as `user` through POST /api/auth/login; throws unless the portal says 200. */
export async function signIn(portal: Pick<RunningPortal, "url">, user: { email: string; password: string }): Promise<Client> {
  const client = new Client(portal.url);
  const r = await client.request("/api/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (r.status !== 200) throw new Error(`signIn ${user.email}: ${r.status} ${await r.text()}`);
  return client;
}

/** fetch without following redirects, keeping cookies in a small jar. */
export class Client {
  cookies = new Map<string, string>();
  constructor(public base: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async request(pathname: string, init: RequestInit & { form?: Record<string, string> } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", this.cookieHeader());
    let body = init.body;
    if (init.form) {
      body = new URLSearchParams(init.form);
      headers.set("content-type", "application/x-www-form-urlencoded");
    }
    const res = await fetch(this.base + pathname, { ...init, body, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const [k, ...v] = pair.split("=");
      const value = v.join("=");
      if (/Max-Age=0/i.test(c) || value === "") this.cookies.delete(k);
      else this.cookies.set(k, value);
    }
    return res;
  }

  get(pathname: string, init: RequestInit = {}) {
    return this.request(pathname, { ...init, method: "GET" });
  }

  post(pathname: string, form: Record<string, string>, init: RequestInit = {}) {
    return this.request(pathname, { ...init, method: "POST", form });
  }
}
