// Environment variables the portal reads, with their defaults (README lists them).
import path from "node:path";

export interface Env {
  NODE_ENV: string;
  HOST: string;
  PORT: number;
  DATA_DIR: string;
  DATABASE_URL?: string;
  REDIS_URL?: string;
  REDIS_PREFIX: string;
  SMTP_URL?: string;
  /** Sender of e-mails. */
  MAIL_FROM: string;
  /** Public address used in e-mailed links; without it links use the request's own origin. */
  PUBLIC_URL?: string;
  LOG_LEVEL: string;
  /** Set when the portal runs behind a TLS-terminating proxy: cookies become Secure and X-Forwarded-* is trusted. */
  TRUST_PROXY: boolean;
  SEED_DEMO: boolean;
  SESSION_SECRET?: string;
  raw: Record<string, string | undefined>;
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === "") return fallback;
  return ["1", "true", "yes", "on"].includes(value.toLowerCase());
}

export function readEnv(source: Record<string, string | undefined> = process.env): Env {
  const port = Number(source.PORT ?? 3000);
  return {
    NODE_ENV: source.NODE_ENV ?? "production",
    HOST: source.HOST || "127.0.0.1",
    PORT: Number.isInteger(port) && port >= 0 ? port : 3000,
    DATA_DIR: path.resolve(source.DATA_DIR || "./data"),
    DATABASE_URL: source.DATABASE_URL || undefined,
    REDIS_URL: source.REDIS_URL || undefined,
    REDIS_PREFIX: source.REDIS_PREFIX || "portal:",
    SMTP_URL: source.SMTP_URL || undefined,
    MAIL_FROM: source.MAIL_FROM || "Researcher Services <no-reply@localhost>",
    PUBLIC_URL: source.PUBLIC_URL?.replace(/\/+$/, "") || undefined,
    LOG_LEVEL: source.LOG_LEVEL || "info",
    TRUST_PROXY: bool(source.TRUST_PROXY, false),
    SEED_DEMO: bool(source.SEED_DEMO, true),
    SESSION_SECRET: source.SESSION_SECRET || undefined,
    raw: source,
  };
}
