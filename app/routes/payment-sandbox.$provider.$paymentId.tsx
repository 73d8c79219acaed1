// /{lang}/payment-sandbox/{provider}/{paymentId}: a built-in provider sandbox's own page (issue 12 §2, ADR 036) —
// what PayPal, the phone that scans an Alipay or WeChat Pay code, UnionPay, the boleto's bank or Allpago would
// show — plainly labelled test mode. Reading it changes nothing; its buttons post here and do what the provider
// would (server/payments/sandbox.ts), then 303 to where the provider would send the browser. The payer's only
// (signed in as the payment's owner); staff may look; anyone else gets 404.
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { leaveTo } from "#app/lib/payment.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { requireLang } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { parseForm } from "#app/lib/forms.server";
import { useLang } from "#app/lib/use-lang";
import { formatBoletoLine } from "#common/payments/boleto";
import { formatMoney } from "#common/format";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { sandboxIntentForm } from "#common/payments/sandbox-schemas";
import { sandboxAct, sandboxView, type SandboxIntent } from "#server/payments/sandbox";

export const handle = { i18n: ["sandbox"] };
export const meta = titleMeta;

const NO_STORE = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  requireLang(request);
  const view = await sandboxView(await pageScope(request, context), params.provider ?? "", params.paymentId ?? "");
  if (!view) throw new Response("Not Found", { status: 404 });
  const t = await getFixedT(request, "sandbox");
  return data({ title: t("page.title", { provider: t(`providers.${view.provider}`) }), view }, { headers: NO_STORE });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireLang(request);
  const submission = await parseForm<{ intent: SandboxIntent }>(request, sandboxIntentForm);
  if (submission.status !== "success") throw new Response("Bad Request", { status: 400 });
  const r = await sandboxAct(await pageScope(request, context), params.provider ?? "", params.paymentId ?? "", submission.value.intent);
  // The provider sends the payer back to our return endpoint (not a page of this app): a document redirect.
  if (r.ok) throw leaveTo(r.value.redirect, { headers: NO_STORE });
  if (r.error === "not-found") throw new Response("Not Found", { status: 404 });
  return data({ error: r.error === "sandbox-done" ? "page.done" : "page.refused" }, { status: errorStatus(r.error), headers: NO_STORE });
}

export default function PaymentSandbox() {
  const { title, view } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const { t } = useTranslation("sandbox");
  const lang = useLang();
  return (
    <article className="stack narrow sandbox-page">
      <p className="sandbox-badge" role="note">
        {t("testMode")}
      </p>
      <h1>{title}</h1>
      <p>{t(`page.intro.${view.provider}`)}</p>
      <dl className="sandbox-facts">
        <dt>{t("amount")}</dt>
        <dd className="sandbox-amount">{formatMoney(view.amount, view.currency)}</dd>
        <dt>{t("page.for")}</dt>
        <dd>{view.description}</dd>
        {view.boletoLine ? (
          <>
            <dt>{t("page.line")}</dt>
            <dd className="sandbox-line">{formatBoletoLine(view.boletoLine)}</dd>
          </>
        ) : null}
      </dl>
      {refused ? (
        <p className="alert alert-danger" role="alert">
          {t(refused.error)}
        </p>
      ) : null}
      {view.state === "open" && !refused && view.payer ? (
        <Form method="post" className="actions">
          {view.intents.map((intent) => (
            <button
              key={intent}
              type="submit"
              name="intent"
              value={intent}
              className={intent === "cancel" ? "button" : "button button-primary"}
            >
              {t(`page.${intent}`)}
            </button>
          ))}
        </Form>
      ) : (
        <>
          {view.state !== "open" ? <p className="alert alert-info">{t("page.done")}</p> : null}
          {view.payer ? (
            <p>
              <Link to={paths.paymentPending(lang, view.paymentId)}>{t("page.back")}</Link>
            </p>
          ) : (
            <p className="alert alert-info">{t("page.payerOnly")}</p>
          )}
        </>
      )}
    </article>
  );
}
