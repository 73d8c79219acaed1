import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { openSupportFile } from "#server/support";
import { fileResponse } from "#server/documents/storage";

// /staff/support/{id}/file: the file attached to a support request (a proof of payment), as a download; the
// reading is audited. A resource route: no page, the file itself.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const session = await requireStaff(request, context);
  const scope = await pageScope(request, context);
  const file = await openSupportFile(scope.app, { userId: session.user.id }, params.id ?? "");
  if (!file) throw new Response("Not Found", { status: 404 });
  return fileResponse(file);
}
