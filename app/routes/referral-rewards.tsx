import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { CopyLink } from "#app/components/referrals/CopyLink";
import { formatDate } from "#common/format";
import { formatMoney } from "#common/money";
import { paths } from "#common/paths";
import { shareLinks } from "#common/referrals/share";
import { qrSvg, referralPage, type ReferralPage } from "#server/referrals";

export const meta = titleMeta;
export const handle = { i18n: ["referrals"] };

// /{lang}/referral-rewards 'My Referrals' (spec 3 §2 "Referrals", issue 25 item 3): sign-in required. The link with
// copy (JS) and select (no JS), 'Share On' as plain links, the QR code (SVG drawn on the server), the flyer PDF,
// the total earned and the referrals sent. Read only: nothing to post.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const r = await referralPage(scope);
  if (!r.ok) throw new Response("Not Found", { status: 404 });
  const t = await getFixedT(request, "referrals");
  return Response.json(
    { title: t("page.title"), ...r.value, qr: await qrSvg(r.value.referralLink) },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

type Data = ReferralPage & { title: string; qr: string };

export default function ReferralRewards() {
  const data = useLoaderData<typeof loader>() as unknown as Data;
  const { t } = useTranslation("referrals");
  const lang = useLang();
  const money = (amount: number) => formatMoney(amount, data.currency);
  const offer = data.offerAmount === null ? t("page.offerPlain") : t("page.offer", { amount: money(data.offerAmount) });
  const share = shareLinks(data.referralLink, t("share.message"), t("share.subject"));
  return (
    <div className="referral-page stack">
      <h1>{t("page.title")}</h1>
      <p className="referral-offer">{offer}</p>
      <div className="referral-grid">
        <section className="card stack" aria-labelledby="referral-link-title">
          <h2 id="referral-link-title">{t("page.linkTitle")}</h2>
          <CopyLink link={data.referralLink} />
          <div className="referral-share">
            <h3>{t("share.title")}</h3>
            <ul className="referral-share-list">
              {share.main.map((s) => (
                <li key={s.id}>
                  <a className="button button-small" href={s.href} target="_blank" rel="noopener noreferrer">
                    {t(`share.${s.id}`)}
                  </a>
                </li>
              ))}
            </ul>
            <details className="referral-share-more">
              <summary>{t("share.more")}</summary>
              <ul className="referral-share-list">
                {share.more.map((s) => (
                  <li key={s.id}>
                    <a className="button button-small" href={s.href} target="_blank" rel="noopener noreferrer">
                      {t(`share.${s.id}`)}
                    </a>
                  </li>
                ))}
              </ul>
            </details>
          </div>
        </section>
        <section className="card stack referral-qr" aria-labelledby="referral-qr-title">
          <h2 id="referral-qr-title">{t("page.qrTitle")}</h2>
          <div className="referral-qr-code" role="img" aria-label={t("page.qrAlt")} dangerouslySetInnerHTML={{ __html: data.qr }} />
          <p className="field-hint">{t("page.qrHint")}</p>
          <a className="button button-primary" href={paths.referralFlyer(lang)} download>
            {t("page.flyer")}
          </a>
        </section>
      </div>
      <section className="card stack" aria-labelledby="referral-earned-title">
        <h2 id="referral-earned-title">{t("page.earnedTitle")}</h2>
        <p className="referral-total">
          {t("page.total")} <strong data-testid="referral-total">{money(data.totalEarnedCredits)}</strong>
        </p>
        <p className="field-hint">{t("page.sent", { count: data.numberOfReferralsSent })}</p>
        {data.referrals.length ? (
          <div className="table-scroll" tabIndex={0} role="region" aria-label={t("page.listTitle")}>
            <table>
              <caption className="visually-hidden">{t("page.listTitle")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("page.colleague")}</th>
                  <th scope="col">{t("page.date")}</th>
                  <th scope="col">{t("page.status")}</th>
                  <th scope="col">{t("page.credit")}</th>
                </tr>
              </thead>
              <tbody>
                {data.referrals.map((r) => (
                  <tr key={r.id}>
                    <td>{r.colleague}</td>
                    <td>{formatDate(r.createdAt, lang)}</td>
                    <td>
                      <span className={`badge referral-status-${r.status}`}>{t(`status.${r.status}`)}</span>
                    </td>
                    <td>{r.creditText ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{t("page.none")}</p>
        )}
      </section>
    </div>
  );
}
