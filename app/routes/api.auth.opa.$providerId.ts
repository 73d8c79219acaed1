// GET /api/auth/opa/{providerId}?redirect=&origin= (spec 1 §7): browser navigation that starts
// social sign-in (authorization code with PKCE and state; server/auth/social-flow.ts).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { startSocialSignIn } from "#server/auth/social-flow";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return startSocialSignIn(context.app, request, params.providerId ?? "", { secure: context.secure });
}
