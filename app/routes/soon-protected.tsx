import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "#app/lib/session.server";
import { titleMeta } from "#app/lib/meta";
import { PROTECTED_AREAS, soonLoader } from "#app/lib/soon.server";
import { ComingSoon } from "#app/components/ComingSoon";

export const meta = titleMeta;

// Protected areas: anonymous visitors go to the sign-in page first.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return soonLoader(request, PROTECTED_AREAS);
}

export default ComingSoon;
