// Helpers for the JSON API under /api: session auth, JSON bodies, errors as { error }.
import type { AppLoadContext } from "@remix-run/node";
import { getCurrentSession } from "./session.server";
import type { CurrentSession } from "#server/auth/session";
import { LANG_COOKIE, pickLanguage, type SiteLang } from "#common/i18n";
import { readCookie } from "./session.server";

export function json(data: unknown, status = 200, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set("Cache-Control", "no-store");
  return Response.json(data, { status, headers: h });
}

export function apiError(error: string, status: number, extra: Record<string, unknown> = {}): Response {
  return json({ error, ...extra }, status);
}

/** The signed-in user, or a 401 JSON answer. */
export async function apiUser(request: Request, context: AppLoadContext): Promise<CurrentSession> {
  const session = await getCurrentSession(request, context);
  if (!session) throw apiError("unauthorized", 401);
  return session;
}

/** Reads a JSON object body (max 64 KiB); bad JSON is a 400, not a crash. */
export async function readJson(request: Request, maxBytes = 64 * 1024): Promise<Record<string, unknown>> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > maxBytes) throw apiError("payload-too-large", 413);
  const text = await request.text();
  if (text.length > maxBytes) throw apiError("payload-too-large", 413);
  if (!text.trim()) return {};
  try {
    const value = JSON.parse(text);
    if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("not an object");
    return value as Record<string, unknown>;
  } catch {
    throw apiError("invalid-json", 400);
  }
}

export function requireMethod(request: Request, ...methods: string[]) {
  if (!methods.includes(request.method.toUpperCase())) throw apiError("method-not-allowed", 405);
}

/** API paths carry no language prefix: the language cookie, then Accept-Language. */
export function apiLang(request: Request): SiteLang {
  return pickLanguage(readCookie(request, LANG_COOKIE), request.headers.get("accept-language"));
}

/** Turns { field: ["ns:key"] } into { field: "key" } for API clients. */
export function flatErrors(fieldErrors: Record<string, string[] | string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fieldErrors).map(([k, v]) => [
      k,
      String(Array.isArray(v) ? v[0] : v)
        .replace(/^[a-z]+:/, "")
        .split(".")
        .pop()!,
    ]),
  );
}
