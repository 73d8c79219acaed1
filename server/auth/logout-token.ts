// The token of the multi-site logout (issue 10 §10). The signed-out page of one localisation loads
// logout.gif from the others; the image signs out only when its URL carries a token that this portal's own
// sign-out made: signed with the portal's secret, naming the user who just signed out and valid for two
// minutes. Any other site can still link or embed logout.gif, but without such a token it signs nobody out,
// and a token only ever signs out the session of the user it names (an attacker's own token is useless).
import { createHmac, timingSafeEqual } from "node:crypto";
import type { AppContext } from "../context";

const LIFETIME_MS = 2 * 60_000;

function mac(ctx: Pick<AppContext, "secrets">, payload: string): string {
  return createHmac("sha256", ctx.secrets.cookieSecret).update(`logout-gif:${payload}`).digest("base64url");
}

/** A logout token for `userId`, made by the portal's sign-out for the signed-out page's images. */
export function logoutToken(ctx: Pick<AppContext, "secrets">, userId: number, now = Date.now()): string {
  const payload = `${userId.toString(36)}.${(now + LIFETIME_MS).toString(36)}`;
  return `${payload}.${mac(ctx, payload)}`;
}

/** The user a logout token names, or null when it is malformed, forged or expired. */
export function verifyLogoutToken(ctx: Pick<AppContext, "secrets">, token: unknown, now = Date.now()): number | null {
  if (typeof token !== "string" || token.length > 100) return null;
  const m = /^([0-9a-z]{1,12})\.([0-9a-z]{1,12})\.([\w-]{43})$/.exec(token);
  if (!m) return null;
  const expected = Buffer.from(mac(ctx, `${m[1]}.${m[2]}`));
  const given = Buffer.from(m[3]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (parseInt(m[2], 36) < now) return null;
  return parseInt(m[1], 36);
}
