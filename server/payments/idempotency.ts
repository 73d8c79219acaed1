// Idempotency keys for payment requests (issue 12 §3, ADR 034), with Stripe's semantics (PAYMENTS.md): the
// first result for a key is stored once processing starts and replayed on retry; the same key with other
// parameters is refused; a request refused as invalid, or one that lost a race, is not stored and may be
// retried. Pages send the key as a hidden field drawn by their loader (a double click, a resent form and a
// second tab of the same page reuse it); the API takes the Idempotency-Key header.
import { createHash } from "node:crypto";
import { fail, type Result } from "#common/result";
import type { AppContext } from "../context";

export const IDEMPOTENCY_KEY_MAX = 255;
/**
 * The key's lock is a lease held only while its process lives (ADR 051): taken for LOCK_SECONDS and renewed every
 * RENEW_MS while the request runs, so a retry takes over the key of a dead process within LOCK_SECONDS.
 */
const LOCK_SECONDS = 15;
const RENEW_MS = 5_000;
/** How long a concurrent retry waits for the first request's answer before it is told to try again. */
const WAIT_MS = 20_000;
/** Keys are kept at least this long (PAYMENTS.md: at least 24 h); the hourly cleanup job removes older ones. */
export const IDEMPOTENCY_KEEP_HOURS = 48;

/** Printable ASCII without spaces, 8–255 characters (a UUID from the page; anything sane from API clients). */
export function validIdempotencyKey(key: unknown): key is string {
  return typeof key === "string" && key.length >= 8 && key.length <= IDEMPOTENCY_KEY_MAX && /^[\x21-\x7e]+$/.test(key);
}

/** A stable hash of a request's parameters (key order does not matter). */
export function requestHash(value: unknown): string {
  const stable = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(stable)
      : v && typeof v === "object"
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>)
              .filter(([, x]) => x !== undefined)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, x]) => [k, stable(x)]),
          )
        : v;
  return createHash("sha256")
    .update(JSON.stringify(stable(value)))
    .digest("hex");
}

/**
 * Runs `run` once per (user, key). `keep(result)` says whether its result is the request's answer to store
 * (a payment made or declined) or a refusal to forget (invalid input: the client fixes it and retries with the
 * same key).
 */
export async function idempotent<T>(
  app: AppContext,
  userId: number,
  key: string,
  scope: string,
  params: unknown,
  run: () => Promise<Result<T>>,
  keep: (result: Result<T>) => boolean,
): Promise<Result<T>> {
  if (!validIdempotencyKey(key)) return fail("idempotency-key-invalid");
  const hash = requestHash({ scope, params });
  const claimed = await claim<T>(app, userId, key, scope, hash);
  if (claimed !== "claimed") return claimed;
  let result: Result<T>;
  const renew = setInterval(() => {
    void app.db
      .updateTable("idempotency_keys")
      .set({ locked_until: new Date(Date.now() + LOCK_SECONDS * 1000) })
      .where("user_id", "=", userId)
      .where("key", "=", key)
      .where("state", "=", "processing")
      .execute()
      .catch(() => undefined);
  }, RENEW_MS);
  renew.unref();
  try {
    result = await run();
  } catch (error) {
    await release(app, userId, key);
    throw error;
  } finally {
    clearInterval(renew);
  }
  if (keep(result)) {
    await app.db
      .updateTable("idempotency_keys")
      .set({ state: "done", response: JSON.stringify(result), status: result.ok ? 200 : 0 })
      .where("user_id", "=", userId)
      .where("key", "=", key)
      .execute();
  } else await release(app, userId, key);
  return result;
}

async function release(app: AppContext, userId: number, key: string) {
  await app.db
    .deleteFrom("idempotency_keys")
    .where("user_id", "=", userId)
    .where("key", "=", key)
    .where("state", "=", "processing")
    .execute();
}

async function claim<T>(app: AppContext, userId: number, key: string, scope: string, hash: string): Promise<"claimed" | Result<T>> {
  const started = Date.now();
  for (;;) {
    const lockedUntil = new Date(Date.now() + LOCK_SECONDS * 1000);
    const inserted = await app.db
      .insertInto("idempotency_keys")
      .values({ user_id: userId, key, scope, request_hash: hash, locked_until: lockedUntil })
      .onConflict((oc) => oc.columns(["user_id", "key"]).doNothing())
      .returning("key")
      .executeTakeFirst();
    if (inserted) return "claimed";
    const row = await app.db
      .selectFrom("idempotency_keys")
      .select(["request_hash", "scope", "state", "response", "locked_until"])
      .where("user_id", "=", userId)
      .where("key", "=", key)
      .executeTakeFirst();
    if (!row) continue; // released between the insert and the read: try to claim it again
    if (row.request_hash !== hash || row.scope !== scope) return fail("idempotency-key-reused");
    if (row.state === "done") return row.response as unknown as Result<T>;
    if (new Date(row.locked_until).getTime() < Date.now()) {
      // The first request died holding the key: take it over, once (only one retry wins this update).
      const taken = await app.db
        .updateTable("idempotency_keys")
        .set({ locked_until: lockedUntil })
        .where("user_id", "=", userId)
        .where("key", "=", key)
        .where("state", "=", "processing")
        .where("locked_until", "<", new Date())
        .returning("key")
        .executeTakeFirst();
      if (taken) return "claimed";
    }
    if (Date.now() - started > WAIT_MS) return fail("idempotency-key-in-progress");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The stored answer of a finished request with this key and scope, or null. For callers that cannot rebuild a
 * request's parameters any more because its own success changed them (the invoices it paid are no longer
 * payable): a retry of that request gets its first answer, as it would have before.
 */
export async function storedAnswer<T>(
  app: AppContext,
  userId: number,
  key: string,
  scope: string,
  params?: unknown,
): Promise<Result<T> | null> {
  if (!validIdempotencyKey(key)) return null;
  const row = await app.db
    .selectFrom("idempotency_keys")
    .select(["response", "state", "request_hash", "scope"])
    .where("user_id", "=", userId)
    .where("key", "=", key)
    .executeTakeFirst();
  if (!row) return null;
  // The same key with another body (or for other invoices) is refused, after the payment as before it (ADR 051).
  if (row.scope !== scope || (params !== undefined && row.request_hash !== requestHash({ scope, params })))
    return fail("idempotency-key-reused");
  return row.state === "done" ? (row.response as unknown as Result<T>) : null;
}

/** Removes keys older than IDEMPOTENCY_KEEP_HOURS (the hourly cleanup). */
export async function expireIdempotencyKeys(app: AppContext, now = new Date()): Promise<number> {
  const r = await app.db
    .deleteFrom("idempotency_keys")
    .where("created_at", "<", new Date(now.getTime() - IDEMPOTENCY_KEEP_HOURS * 3600 * 1000))
    .where("state", "=", "done")
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
