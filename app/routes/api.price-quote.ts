import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiUser, json } from "#app/lib/api.server";
import { getCurrentSession, readCookie } from "#app/lib/session.server";
import { getUserView } from "#server/accounts/account";
import { DRAFT_COOKIE } from "#server/order-form/store";
import { emailQuote, findQuote, quotePdf } from "#server/order-form/quote";

// GET /api/price-quote/{estimateId}/pdf (display=inline for the embed); POST /api/price-quote/{estimateId}/email.
async function ownerOf(request: Request, context: LoaderFunctionArgs["context"]) {
  const session = await getCurrentSession(request, context);
  return { session, owner: { userId: session?.user.id ?? null, draftKey: readCookie(request, DRAFT_COOKIE) ?? null } };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const [estimateId, what] = (params["*"] ?? "").split("/");
  if (what !== "pdf") return apiError("not-found", 404);
  const { session, owner } = await ownerOf(request, context);
  const quote = await findQuote(context.app, estimateId ?? "", owner);
  if (!quote) return apiError("not-found", 404);
  const user = session ? await getUserView(context.app, session.user.id) : null;
  const pdf = await quotePdf(context.app, quote, user ? { name: user.fullName, email: user.email, institution: user.institution } : null);
  const inline = new URL(request.url).searchParams.get("display") === "inline";
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `${inline ? "inline" : "attachment"}; filename="price-quote-${quote.row.estimate_id}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const [estimateId, what] = (params["*"] ?? "").split("/");
  if (what !== "email" || request.method !== "POST") return apiError("not-found", 404);
  const session = await apiUser(request, context);
  const quote = await findQuote(context.app, estimateId ?? "", { userId: session.user.id, draftKey: null });
  if (!quote) return apiError("not-found", 404);
  const recipientEmail = await emailQuote(
    context.app,
    quote,
    { id: session.user.id, email: session.user.email, firstName: session.user.firstName },
    new URL(request.url).origin,
  );
  return json({ recipientEmail });
}
