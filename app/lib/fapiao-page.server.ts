// The two stored-fapiao pages (issue 13 §4): /researcher/invoices/{n}/fapiao and /researcher/prepay/{n}/fapiao
// share one loader and one action; each route names its document and where it goes back to.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { parseForm } from "#app/lib/forms.server";
import { getFixedT } from "#app/i18n.server";
import { fapiaoNoticeKey, fapiaoNoticeParam } from "#common/fapiao/notice";
import { fapiaoPageSchema, type FapiaoPageForm } from "#common/fapiao/schemas";
import { errorStatus } from "#common/result";
import type { SiteLang } from "#common/i18n";
import { cancelFapiao, createStoredFapiao, fapiaoTarget, type FapiaoDocument } from "#server/fapiao";

export interface FapiaoPageKind {
  document: (number: string) => FapiaoDocument;
  /** The list the page goes back to, with a notice when given. */
  back: (lang: SiteLang, notice?: Record<string, string>) => string;
}

/** Codes the page explains itself (fapiao:errors.*); anything else is a generic failure. */
const KNOWN = new Set([
  "fapiao-not-available",
  "fapiao-us-prepayment",
  "invoice-not-paid",
  "fapiao-already-requested",
  "fapiao-not-cancellable",
  "not-found",
]);
const errorKey = (code: string) => `fapiao:errors.${KNOWN.has(code) ? code : "failed"}`;

export function fapiaoPageLoader(kind: FapiaoPageKind) {
  return async ({ request, context, params }: LoaderFunctionArgs) => {
    await requireUser(request, context);
    const scope = await pageScope(request, context);
    const number = params.number ?? "";
    const t = await getFixedT(request, "fapiao");
    const r = await fapiaoTarget(scope, kind.document(number));
    if (!r.ok && r.error === "not-found") throw new Response("Not Found", { status: 404 });
    return {
      title: t("page.title"),
      number,
      back: kind.back(scope.lang),
      target: r.ok ? r.value : null,
      // The document takes no fapiao here (feature off, a localisation that does not process them after payment,
      // a US prepayment): the page says why and offers support.
      unavailable: r.ok ? null : errorKey(r.error),
      notice: fapiaoNoticeKey(new URL(request.url).searchParams.get("fapiao")),
    };
  };
}

export function fapiaoPageAction(kind: FapiaoPageKind) {
  return async ({ request, context, params }: ActionFunctionArgs) => {
    await requireUser(request, context);
    const scope = await pageScope(request, context);
    const doc = kind.document(params.number ?? "");
    const submission = await parseForm<FapiaoPageForm>(request, fapiaoPageSchema);
    if (submission.status !== "success")
      return Response.json({ error: "fapiao:errors.failed", fieldErrors: {}, values: {} }, { status: 400 });
    const form = submission.value;
    if (form.intent === "cancel") {
      // Only this document's fapiao is cancelled from its page (another's id is not found).
      const target = await fapiaoTarget(scope, doc);
      if (!target.ok || target.value.live?.id !== Number(form.id)) throw new Response("Not Found", { status: 404 });
      const r = await cancelFapiao(scope, Number(form.id));
      if (!r.ok) return Response.json({ error: errorKey(r.error), fieldErrors: {}, values: {} }, { status: errorStatus(r.error) });
      return redirect(kind.back(scope.lang, fapiaoNoticeParam("cancelled", r.value.type)), 303);
    }
    const r = await createStoredFapiao(scope, doc, form);
    if (!r.ok) {
      if (r.error === "not-found") throw new Response("Not Found", { status: 404 });
      const fields = Object.keys(r.fieldErrors).length > 0;
      return Response.json(
        { error: fields ? null : errorKey(r.error), fieldErrors: r.fieldErrors, values: form },
        { status: errorStatus(r.error) },
      );
    }
    return redirect(kind.back(scope.lang, fapiaoNoticeParam("created", r.value.type)), 303);
  };
}
