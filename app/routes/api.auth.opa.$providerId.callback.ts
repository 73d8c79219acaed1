// GET /api/auth/opa/{providerId}/callback: the provider sends the browser back here. The outcome is
// decided in server/auth/social-flow.ts: signed in, on to register/confirm/{data}, or the failure page.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { finishSocialSignIn, outcomeRedirect } from "#server/auth/social-flow";
import { allowedRedirectHosts, signedInRedirect } from "#app/lib/sign-in.server";
import { homeDirectory, resolveRedirect } from "#app/lib/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const outcome = await finishSocialSignIn(context.app, request, params.providerId ?? "", {
    ip: context.ip,
    userAgent: request.headers.get("user-agent"),
    secure: context.secure,
  });
  if (outcome.kind === "redirect") return outcomeRedirect(outcome.location, outcome.setCookies);
  let response: Response;
  if (outcome.kind === "signed-in") {
    response = await signedInRedirect(context, {
      token: outcome.token,
      lang: outcome.lang,
      target: outcome.redirect,
      claim: { request, userId: outcome.userId },
    });
  } else {
    const { url } = resolveRedirect(outcome.redirect, homeDirectory(outcome.lang), await allowedRedirectHosts(context));
    response = outcomeRedirect(url, []);
  }
  for (const cookie of outcome.setCookies) response.headers.append("Set-Cookie", cookie);
  response.headers.set("Cache-Control", "no-store");
  return response;
}
