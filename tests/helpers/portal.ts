// The real portal (built Remix app + HTTP layer) on a random port over a test database.
import path from "node:path";
import { startPortal, type RunningPortal } from "../../server/boot";
import { createTestDatabase } from "./db";
import { testEnv } from "./context";

export async function startTestPortal(extraEnv: Record<string, string | undefined> = {}): Promise<RunningPortal> {
  const database = await createTestDatabase();
  const env = testEnv({ SEED_DEMO: "true", ...extraEnv });
  return startPortal({ env, database, rootDir: path.resolve(".") });
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
