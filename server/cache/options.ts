// The Redis breaker's settings and its log lines (ADR 045), for the web process and the job worker.
import type { Env } from "../env";
import type { Logger } from "../logger";
import type { CacheOptions } from "./index";

export function redisOptions(env: Env, logger: Logger): CacheOptions {
  return {
    commandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
    onStateChange: (event, error) => {
      if (event === "unavailable") logger.warn({ err: error }, "redis unavailable: serving caches and rate limits from process memory");
      else logger.info("redis is back");
    },
  };
}
