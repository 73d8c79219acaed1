// The referral flyer PDF (issue 25 item 3): the user's link, its QR code and the offer in the user's language,
// drawn in the PDF pool's workers (server/pdf/referral-flyer.ts), never on the web process's event loop.
import { formatMoney } from "#common/money";
import { fail, ok, type Result } from "#common/result";
import type { Scope } from "../scope";
import { fixedT } from "../i18n";
import { referralPage } from "./page";

export async function referralFlyerPdf(scope: Scope): Promise<Result<{ pdf: Buffer; fileName: string }>> {
  const page = await referralPage(scope);
  if (!page.ok) return page;
  const { referralLink, offerAmount, currency, referralCode } = page.value;
  const snapshot = await scope.app.config.snapshot();
  const t = fixedT(scope.lang, "referrals");
  const amount = offerAmount === null ? null : formatMoney(offerAmount, currency);
  try {
    const pdf = await scope.app.pdf.render("referral-flyer", {
      lang: scope.lang,
      company: String(snapshot.config.companyShortName ?? ""),
      heading: t("flyer.heading"),
      offer: amount ? t("flyer.offer", { amount }) : t("flyer.offerPlain"),
      scan: t("flyer.scan"),
      steps: [t("flyer.step1"), t("flyer.step2"), t("flyer.step3")],
      link: referralLink,
      footer: t("flyer.footer", { code: referralCode }),
    });
    return ok({ pdf, fileName: `referral-${referralCode}.pdf` });
  } catch (error) {
    if ((error as Error).name === "PdfPoolBusyError") return fail("service-unavailable");
    throw error;
  }
}
