// The grammar check's captcha for anonymous uploads (spec 3 §2, §5; issue 23 item 4; ADR 070). Self-hosted: nothing
// loads from a third party (the portal must work in mainland China, and a captcha vendor would see our visitors).
//
// - Proof of work (ALTCHA, altcha-lib's classic v1 scheme): the server signs a challenge SHA-256(salt + n) with an
//   HMAC key; the browser finds n (our own few lines of script, no widget) and posts the solution as `altcha`.
//   It costs a browser a fraction of a second and a bulk uploader that much per upload; it needs no question.
// - Without JavaScript: a short sum written as text ("What is 7 plus 4?"), its answer bound by an HMAC in the token
//   (`captchaToken` + `captchaAnswer`): the server keeps nothing until it is spent.
// Both expire after CAPTCHA_TTL_SECONDS (the expiry is inside what the HMAC signs) and are single use: the hash of a
// spent challenge is recorded in captcha_spent (the database is the truth, shared by every process), so a replay
// within its ten minutes is refused too.
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { sql } from "kysely";
import { createChallenge, verifySolution } from "altcha-lib/v1";
import type { CaptchaChallenge } from "#common/grammar-check/captcha";
import type { AppContext } from "../context";

export const CAPTCHA_TTL_SECONDS = 600;
/**
 * The proof of work's search space: 25k SHA-256 on average. Web Crypto's digest is asynchronous (one promise per
 * try), so this is ~1 s in Node 20 on this machine (measured: 100k gave a median of 1.9 s, a worst of 4.3 s in 10
 * runs); the question stays on screen meanwhile.
 */
export const CAPTCHA_MAX_NUMBER = 50_000;

export type { CaptchaChallenge };

export type CaptchaOutcome = "ok" | "captcha-required" | "captcha-invalid";

/** The fields a form or API call posts. */
export interface CaptchaFields {
  altcha?: string | null;
  captchaToken?: string | null;
  captchaAnswer?: string | null;
}

/** The HMAC key: derived from the portal's generated secret, so nothing more to configure and it survives restarts. */
function hmacKey(ctx: Pick<AppContext, "secrets">): string {
  return createHmac("sha256", ctx.secrets.cookieSecret).update("grammar-check-captcha-v1").digest("hex");
}

function questionSignature(key: string, expires: number, nonce: string, answer: number): string {
  return createHmac("sha256", key).update(`question|${expires}|${nonce}|${answer}`).digest("base64url");
}

/** A fresh challenge: a proof of work and a question, both valid for ten minutes. `now` and `maxNumber` for tests. */
export async function newCaptchaChallenge(
  ctx: Pick<AppContext, "secrets">,
  options: { now?: number; maxNumber?: number } = {},
): Promise<CaptchaChallenge> {
  const key = hmacKey(ctx);
  const now = options.now ?? Date.now();
  const expiresAt = new Date(now + CAPTCHA_TTL_SECONDS * 1000);
  const maxnumber = options.maxNumber ?? CAPTCHA_MAX_NUMBER;
  const challenge = await createChallenge({ hmacKey: key, maxnumber, expires: expiresAt, algorithm: "SHA-256" });
  const a = randomInt(2, 20);
  const b = randomInt(2, 20);
  const expires = Math.floor(expiresAt.getTime() / 1000);
  const nonce = randomBytes(12).toString("base64url");
  const token = `${expires}.${nonce}.${questionSignature(key, expires, nonce, a + b)}`;
  return {
    altcha: {
      algorithm: "SHA-256",
      challenge: challenge.challenge,
      maxnumber: challenge.maxnumber ?? maxnumber,
      salt: challenge.salt,
      signature: challenge.signature,
    },
    question: { a, b, token },
    expiresAt: expiresAt.toISOString(),
  };
}

/** Records a challenge as spent; false when it already was (a replay). Expired records are swept on the way. */
async function spend(ctx: Pick<AppContext, "db">, id: string, expiresAt: Date): Promise<boolean> {
  const hash = createHash("sha256").update(id).digest("hex");
  await ctx.db
    .deleteFrom("captcha_spent")
    .where("expires_at", "<", sql<Date>`now() - interval '1 hour'`)
    .execute();
  const inserted = await ctx.db
    .insertInto("captcha_spent")
    .values({ challenge_hash: hash, expires_at: expiresAt })
    .onConflict((oc) => oc.column("challenge_hash").doNothing())
    .returning("challenge_hash")
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The proof of work's own expiry (inside its signed salt), or null when it has none. */
function altchaExpiry(salt: string): Date | null {
  const expires = Number(new URLSearchParams(salt.split("?")[1] ?? "").get("expires"));
  return Number.isFinite(expires) && expires > 0 ? new Date(expires * 1000) : null;
}

async function checkAltcha(ctx: Pick<AppContext, "db" | "secrets">, payload: string, now: number): Promise<CaptchaOutcome> {
  let parsed: { algorithm?: unknown; challenge?: unknown; number?: unknown; salt?: unknown; signature?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as typeof parsed;
  } catch {
    return "captcha-invalid";
  }
  if (
    !parsed ||
    typeof parsed !== "object" ||
    parsed.algorithm !== "SHA-256" ||
    typeof parsed.challenge !== "string" ||
    typeof parsed.salt !== "string" ||
    typeof parsed.signature !== "string" ||
    typeof parsed.number !== "number" ||
    !Number.isInteger(parsed.number)
  )
    return "captcha-invalid";
  const expiresAt = altchaExpiry(parsed.salt);
  // Every challenge we sign carries its expiry; one without is not ours. The library checks against the clock, so
  // the expiry is checked here as well against `now` (tests move it).
  if (!expiresAt || expiresAt.getTime() <= now) return "captcha-invalid";
  const valid = await verifySolution(
    { algorithm: "SHA-256", challenge: parsed.challenge, number: parsed.number, salt: parsed.salt, signature: parsed.signature },
    hmacKey(ctx),
    false,
  ).catch(() => false);
  if (!valid) return "captcha-invalid";
  return (await spend(ctx, `altcha:${parsed.signature}`, expiresAt)) ? "ok" : "captcha-invalid";
}

async function checkQuestion(ctx: Pick<AppContext, "db" | "secrets">, token: string, answer: string, now: number): Promise<CaptchaOutcome> {
  const [expiresText, nonce, signature, extra] = token.split(".");
  const expires = Number(expiresText);
  if (extra !== undefined || !nonce || !signature || !Number.isInteger(expires)) return "captcha-invalid";
  if (expires * 1000 <= now) return "captcha-invalid";
  const trimmed = answer.trim();
  if (!/^\d{1,3}$/.test(trimmed)) return "captcha-invalid";
  const expected = Buffer.from(questionSignature(hmacKey(ctx), expires, nonce, Number(trimmed)));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "captcha-invalid";
  return (await spend(ctx, `question:${nonce}`, new Date(expires * 1000))) ? "ok" : "captcha-invalid";
}

/**
 * Checks and spends the posted captcha: the proof of work when sent (with JavaScript), else the question.
 * "captcha-required" when neither is there, "captcha-invalid" when wrong, expired, tampered with or already used.
 */
export async function verifyCaptcha(
  ctx: Pick<AppContext, "db" | "secrets">,
  fields: CaptchaFields,
  options: { now?: number } = {},
): Promise<CaptchaOutcome> {
  const now = options.now ?? Date.now();
  const altcha = fields.altcha?.trim();
  if (altcha) return altcha.length > 4096 ? "captcha-invalid" : checkAltcha(ctx, altcha, now);
  const token = fields.captchaToken?.trim();
  const answer = fields.captchaAnswer;
  if (!token && !answer?.trim()) return "captcha-required";
  if (!token || !answer?.trim() || token.length > 512) return "captcha-invalid";
  return checkQuestion(ctx, token, answer, now);
}
