import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { titleMeta } from "#app/lib/meta";
import { useLang } from "#app/lib/use-lang";
import { formatMoney } from "#common/format";
import { parseStep, readStepForm, requireDraft, toCurrentStep, wizardScope, stepAction } from "#app/lib/wizard.server";
import { priceQuoteForm } from "#common/order-form/schemas";
import { convertQuote, emailQuote, findQuote, ownerOf } from "#server/order-form";
import { getCurrentSession } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";

export const meta = titleMeta;
export const handle = { i18n: ["order", "catalogue"] };

// The price quote: shown inline (750 px high), downloadable, e-mailed, or converted back into the order.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const w = await wizardScope(request, context);
  const t = await getFixedT(request, "order");
  const url = new URL(request.url);
  const estimate = url.searchParams.get("estimate") ?? "";
  const quote = estimate ? await findQuote(context.app, estimate, ownerOf(w.scope)) : null;
  if (!quote) return { title: t("quote.title"), quote: null, failed: true, signedIn: Boolean(w.scope.userId) };
  return {
    title: t("quote.title"),
    failed: false,
    signedIn: Boolean(w.scope.userId),
    quote: {
      estimateId: quote.row.estimate_id,
      total: quote.data.total,
      currency: quote.data.currency,
      validUntil: new Date(quote.row.valid_until).toISOString(),
    },
  };
}

async function handleStep({ request, context }: ActionFunctionArgs) {
  const w = await wizardScope(request, context);
  const form = await requireDraft(w);
  const { fields } = await readStepForm(w, request, form, context.ip);
  const { intent, estimateId } = parseStep(fields, priceQuoteForm);
  if (intent === "convert") return toCurrentStep(w, await convertQuote(w.scope, form));
  const quote = await findQuote(context.app, estimateId ?? "", ownerOf(w.scope));
  if (!quote) throw new Response("Not Found", { status: 404 });
  const session = await getCurrentSession(request, context);
  if (!session)
    return redirect(paths.login(w.lang, { redirect: paths.submit(w.lang, "price-quote-completed", { estimate: quote.row.estimate_id }) }), {
      status: 303,
    });
  const sent = await emailQuote(context.app, quote, {
    id: session.user.id,
    email: session.user.email,
    localization: session.user.localization,
  });
  if (!sent.ok) return Response.json({ recipientEmail: null, error: sent.error }, { status: errorStatus(sent.error) });
  return Response.json({ recipientEmail: sent.value, error: null });
}

export default function PriceQuote() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("order");
  const lang = useLang();
  if (!data.quote) {
    return (
      <section className="alert alert-danger" role="alert">
        <p>{t("quote.failed")}</p>
        <Link to={paths.submit(lang, "resume")}>{t("goBack")}</Link>
      </section>
    );
  }
  const q = data.quote;
  const pdf = `/api/price-quote/${q.estimateId}/pdf`;
  return (
    <section className="stack">
      <h1>
        {t("quote.title")} {q.estimateId}
      </h1>
      <p>{t("quote.summary", { total: formatMoney(q.total, q.currency) })}</p>
      {actionData && "recipientEmail" in actionData ? (
        actionData.recipientEmail ? (
          <p className="alert alert-success" role="status">
            {t("quote.price-quote-email-success-message", { email: actionData.recipientEmail })}
          </p>
        ) : (
          <p className="alert alert-danger" role="alert">
            {actionData.error === "too-many-requests"
              ? t("quote.price-quote-email-limited")
              : actionData.error === "email-not-verified"
                ? t("quote.price-quote-email-unverified")
                : t("quote.price-quote-email-error")}
          </p>
        )
      ) : null}
      <iframe title={t("quote.title")} src={`${pdf}?display=inline`} className="quote-frame" height={750} width="100%" />
      <div className="actions">
        <a className="button" href={pdf} download>
          {t("quote.download")}
        </a>
        <Form method="post" className="actions">
          <input type="hidden" name="estimateId" value={q.estimateId} />
          <button type="submit" name="intent" value="email" className="button">
            {data.signedIn ? t("quote.email") : t("quote.signInToEmail")}
          </button>
          <button type="submit" name="intent" value="convert" className="button button-primary">
            {t("quote.convert")}
          </button>
        </Form>
      </div>
    </section>
  );
}

// A save racing the form's placing goes to the placed order, not a 500 (stepAction).
export const action = stepAction(handleStep);
