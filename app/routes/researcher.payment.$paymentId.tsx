// /{lang}/researcher/payment/{paymentId}: a payment waiting for the researcher (issue 12 §2) — the QR code to scan
// (Alipay, WeChat Pay) with its amount, the boleto's line and PDF, or the way on to the provider — labelled test
// mode in the sandbox. While it waits the page refreshes itself every 3 s (a meta refresh: no script needed);
// once settled it goes to the payment's landing. The owner's only: another user's payment is a 404.
import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { pendingPaymentView, type PendingView } from "#server/payments/pending";

export const handle = { i18n: ["sandbox", "payment"] };

/** Seconds between the page's own refreshes while the payment waits (spec 2 §4 polls every 3 s). */
const REFRESH_SECONDS = 3;

export const meta: MetaFunction<typeof loader> = (args) => [
  ...titleMeta(args),
  ...(args.data && waiting(args.data.view) ? [{ httpEquiv: "refresh", content: String(REFRESH_SECONDS) } as const] : []),
];

const waiting = (view: PendingView) => view.status === "pending" || view.status === "processing";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const r = await pendingPaymentView(await pageScope(request, context), params.paymentId ?? "");
  if (!r.ok) throw new Response("Not Found", { status: 404 });
  if (r.value.status === "succeeded") throw redirect(r.value.landing, { status: 303, headers: { "Cache-Control": "no-store" } });
  const t = await getFixedT(request, "sandbox");
  return data({ title: t("pending.title"), view: r.value }, { headers: { "Cache-Control": "no-store" } });
}

function NextStep({ view }: { view: PendingView }) {
  const { t } = useTranslation("sandbox");
  const next = view.next;
  const provider = t(`providers.${view.provider}`);
  if (!next) return null;
  if (next.kind === "qr")
    return (
      <section className="stack payment-qr">
        <p>{t(`pending.scan.${next.provider}`)}</p>
        <img className="payment-qr-image" src={next.qrDataUrl} width={240} height={240} alt={t("pending.qrAlt", { provider })} />
        <p className="muted">{t("pending.expires", { time: next.expiresAt })}</p>
        {next.sandboxUrl ? (
          <p>
            <Link to={next.sandboxUrl}>{t("pending.openPhone")}</Link>
          </p>
        ) : null}
      </section>
    );
  if (next.kind === "boleto")
    return (
      <section className="stack payment-boleto">
        <p>{t("pending.boletoIntro", { date: next.dueOn })}</p>
        <p className="payment-boleto-line">{next.line}</p>
        <p className="actions">
          <a className="button button-primary" href={next.pdfUrl} target="_blank" rel="noreferrer">
            {t("pending.boletoPdf")}
          </a>
          {next.sandboxUrl ? (
            <Link className="button" to={next.sandboxUrl}>
              {t("pending.payBoleto")}
            </Link>
          ) : null}
        </p>
      </section>
    );
  if (next.kind === "redirect")
    return (
      <p className="actions">
        {t("pending.redirect", { provider })}{" "}
        <a className="button button-primary" href={next.url}>
          {t("pending.continue")}
        </a>
      </p>
    );
  return (
    <form method={next.method} action={next.action} className="actions">
      {Object.entries(next.fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <span>{t("pending.redirect", { provider })}</span>
      <button type="submit" className="button button-primary">
        {t("pending.continue")}
      </button>
    </form>
  );
}

export default function PendingPayment() {
  const { title, view } = useLoaderData<typeof loader>();
  const { t } = useTranslation("sandbox");
  return (
    <article className="stack narrow payment-pending">
      {view.sandbox ? (
        <p className="sandbox-badge" role="note">
          {t("testMode")}
        </p>
      ) : null}
      <h1>{title}</h1>
      <p className="payment-pending-amount">
        {t("amount")}: <strong>{view.amount}</strong> · {t(`providers.${view.provider}`)}
      </p>
      {waiting(view) ? (
        <>
          <p className="alert alert-info" role="status">
            {t("pending.waiting")} <Link to=".">{t("pending.refresh")}</Link>
          </p>
          <NextStep view={view} />
        </>
      ) : (
        <>
          <p className="alert alert-danger" role="alert">
            {view.error ? t(`payment:declines.${view.error}`) : t("pending.failed")}
          </p>
          <p>
            <Link className="button button-primary" to={view.landing}>
              {t("pending.next")}
            </Link>
          </p>
        </>
      )}
    </article>
  );
}
