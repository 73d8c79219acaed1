// The address every link in an e-mail starts with (issue 10 item 1, ADR 025). It comes from configuration
// only: PUBLIC_URL, the configured host of the recipient's localisation (config `localizationHosts`,
// ADR 021), and in development the configured HOST:PORT. Never from a request header: a Host or
// X-Forwarded-Host chosen by an attacker would otherwise put a live reset link to their site in the
// victim's mailbox.
import type { AppContext } from "../context";
import type { Env } from "../env";
import { siteOrigin } from "../config";

/** PUBLIC_URL, else `http://HOST:PORT` (development and the demo; production without the demo requires PUBLIC_URL, server/env.ts). */
export function publicOrigin(env: Pick<Env, "PUBLIC_URL" | "HOST" | "PORT">): string {
  if (env.PUBLIC_URL) return env.PUBLIC_URL;
  // A wildcard listen address is no address to visit: the machine itself is.
  const host = ["", "0.0.0.0", "::"].includes(env.HOST) ? "localhost" : env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST;
  return `http://${host}:${env.PORT}`;
}

/**
 * The origin of links e-mailed to a user of `localization`: their localisation's own site when one is
 * configured, else the public origin.
 */
export async function mailLinkBase(ctx: Pick<AppContext, "env" | "config">, localization?: string | null): Promise<string> {
  const base = publicOrigin(ctx.env);
  if (!localization) return base;
  const { localizations } = await ctx.config.snapshot();
  const host = localizations.find((l) => l.identity === localization)?.secureSite;
  return host ? siteOrigin(host, new URL(base)) : base;
}
