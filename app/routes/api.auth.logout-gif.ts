import type { LoaderFunctionArgs } from "@remix-run/node";
import { readCookie } from "#app/lib/session.server";
import { clearedSessionCookie, revokeSession, SESSION_COOKIE } from "#server/auth/session";

// A transparent 1×1 GIF.
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

// GET /api/auth/logout.gif: the logout page of one localisation's site loads this image from the
// other localisations' sites so the visitor is signed out of all of them (spec 1 §2 "Logout").
// It is a GET that changes state by design; the worst a third party can do with it is sign someone out.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await revokeSession(context.app.db, readCookie(request, SESSION_COOKIE));
  return new Response(GIF, {
    headers: {
      "Content-Type": "image/gif",
      "Cache-Control": "no-store",
      "Cross-Origin-Resource-Policy": "cross-origin",
      "Set-Cookie": clearedSessionCookie(context.secure),
    },
  });
}
