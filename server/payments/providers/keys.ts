// Keys of the built-in sandboxes, and the little the sandboxes keep (ADR 036).
//
// A sandbox plays both sides: the provider (it signs notifications with the provider's private key) and our
// adapter (it verifies them with the public key, exactly as against the real provider). Shared secrets (the
// Braintree private key, the WeChat Pay API v3 key, the bank's HMAC secret) are derived from the portal's cookie
// secret, so every process of one installation agrees on them; RSA key pairs are generated once per process (a
// notification is signed and verified in the process whose sandbox page sent it).
import { createHmac, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import type { AppContext } from "../../context";
import type { ChargeRequest } from "./types";

export interface RsaPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

const pairs = new Map<string, RsaPair>();

/** The sandbox's RSA key pair named `label` (alipay, wechat, unionpay), generated on first use in this process. */
export function sandboxRsa(label: string): RsaPair {
  let pair = pairs.get(label);
  if (!pair) {
    pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    pairs.set(label, pair);
  }
  return pair;
}

/** A sandbox secret named `label`, `length` characters, the same in every process of this installation. */
export function sandboxSecret(app: Pick<AppContext, "secrets">, label: string, length = 32): string {
  return createHmac("sha256", app.secrets.cookieSecret).update(`payments-sandbox:${label}`).digest("base64url").slice(0, length);
}

/** Random upper-case letters and digits, as providers write their ids (PayPal order ids, Alipay trade numbers). */
export function providerId(length: number, alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}

/** Random decimal digits. */
export const digits = (length: number) => providerId(length, "0123456789");

/** How long a sandbox keeps what a payer has not finished (a provider's order or checkout expires too). */
export const SANDBOX_TTL_SECONDS = 3 * 24 * 60 * 60;

/**
 * The sandbox's own records (the provider's side: an order, a checkout, a consumed nonce), kept in the app cache
 * (Redis when configured, shared by the processes) under `payments-sandbox:`.
 */
export const sandboxStore = {
  get: <T>(app: Pick<AppContext, "cache">, key: string) => app.cache.getJson<T>(`payments-sandbox:${key}`),
  set: (app: Pick<AppContext, "cache">, key: string, value: unknown, ttl = SANDBOX_TTL_SECONDS) =>
    app.cache.setJson(`payments-sandbox:${key}`, value, ttl),
};

/** What every sandbox page needs of a payment it shows: what the provider was told at charge time. */
export interface SandboxSession {
  provider: string;
  paymentId: string;
  providerRef: string;
  amount: number;
  currencyIso: string;
  numDecimals: number;
  description: string;
  lang: string;
  returnUrl: string;
  cancelUrl: string;
  /** open, then paid, approved, cancelled (or the provider's word: COMPLETED, 000.100.110). */
  status: string;
  /** The provider's own extras (PayPal: mockResponse; Allpago: the brand). */
  extra?: Record<string, string>;
}

export const sessionKey = (provider: string, paymentId: string) => `session:${provider}:${paymentId}`;

export const loadSession = (app: Pick<AppContext, "cache">, provider: string, paymentId: string) =>
  sandboxStore.get<SandboxSession>(app, sessionKey(provider, paymentId));

export const saveSession = (app: Pick<AppContext, "cache">, session: SandboxSession) =>
  sandboxStore.set(app, sessionKey(session.provider, session.paymentId), session);

// Minor-unit digits of a currency by ISO code: the money module's (ADR 054), here where every provider takes it.
export { currencyDigits } from "#common/money";

/** The origin of an absolute URL we gave the provider (where its sandbox pages live too). */
export const originOf = (url: string) => new URL(url).origin;

/** `url` with `params` added to its query. */
export function withQuery(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

/** A UUID written without its dashes (UnionPay order ids: 8–40 letters and digits) and back. */
export const compactUuid = (id: string) => id.replace(/-/g, "");
export const expandUuid = (s: string) =>
  /^[0-9a-f]{32}$/i.test(s) ? `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`.toLowerCase() : s;

/** How long a precreated QR code may be paid (Alipay: 2 hours by default; WeChat Pay the same here). */
export const QR_VALID_MS = 2 * 60 * 60 * 1000;

/** What a QR or redirect sandbox remembers of a charge. */
export function sessionOf(
  provider: string,
  r: ChargeRequest,
  lang: string,
  providerRef: string,
  extra: Record<string, string> = {},
): SandboxSession {
  return {
    provider,
    paymentId: r.paymentId,
    providerRef,
    amount: r.amount,
    currencyIso: r.currencyIso,
    numDecimals: r.numDecimals,
    description: r.description,
    lang,
    returnUrl: r.returnUrl,
    cancelUrl: r.cancelUrl,
    status: "open",
    extra,
  };
}
