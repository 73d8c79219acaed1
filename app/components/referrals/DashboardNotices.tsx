// The referrals area's notices on the researcher dashboard (issue 25 items 3 and 4): the testimonial just received
// (after the form's 303), and a referred colleague's first-order discount code with its amount.
import { useTranslation } from "#app/lib/translate";
import { formatMoney, USD } from "#common/money";

export function ReferralDashboardNotices({
  testimonialReceived,
  welcomeCode,
}: {
  testimonialReceived: boolean;
  welcomeCode: { code: string; amountUsdCents: number } | null;
}) {
  const { t } = useTranslation("referrals");
  return (
    <>
      {testimonialReceived ? (
        <p className="alert alert-success" role="status">
          {t("testimonial.received")}
        </p>
      ) : null}
      {welcomeCode ? (
        <p className="alert alert-info welcome-code" role="note">
          {t("welcome.text", { amount: formatMoney(welcomeCode.amountUsdCents, USD) })}{" "}
          <strong className="promo-code">{welcomeCode.code}</strong>
        </p>
      ) : null}
    </>
  );
}
