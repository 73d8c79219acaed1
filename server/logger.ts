import pino, { type Logger } from "pino";

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({ level, base: { app: "portal" }, redact: ["req.headers.cookie", "password", "*.password"] });
}
