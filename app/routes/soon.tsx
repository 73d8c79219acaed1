import type { LoaderFunctionArgs } from "@remix-run/node";
import { titleMeta } from "#app/lib/meta";
import { PUBLIC_AREAS, soonLoader } from "#app/lib/soon.server";
import { ComingSoon } from "#app/components/ComingSoon";

export const meta = titleMeta;

export function loader({ request }: LoaderFunctionArgs) {
  return soonLoader(request, PUBLIC_AREAS);
}

export default ComingSoon;
