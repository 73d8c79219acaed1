// The referral flyer PDF (issue 25 item 3): the user's link, its QR code and the offer in the user's language,
// drawn in the PDF pool's workers (server/pdf/referral-flyer.ts), never on the web process's event loop.
import { createHash } from "node:crypto";
import { formatMoney } from "#common/money";
import { ok, type Result } from "#common/result";
import type { Scope } from "../scope";
import { fixedT } from "../i18n";
import { cachedPdf } from "../pdf/cached";
import { referralPage } from "./page";

const FLYER_CACHE_SECONDS = 24 * 3600;

export async function referralFlyerPdf(scope: Scope): Promise<Result<{ pdf: Buffer; fileName: string }>> {
  const page = await referralPage(scope);
  if (!page.ok) return page;
  const { referralLink, offerAmount, currency, referralCode } = page.value;
  const snapshot = await scope.app.config.snapshot();
  const t = fixedT(scope.lang, "referrals");
  const amount = offerAmount === null ? null : formatMoney(offerAmount, currency);
  const facts = {
    lang: scope.lang,
    company: String(snapshot.config.companyShortName ?? ""),
    heading: t("flyer.heading"),
    offer: amount ? t("flyer.offer", { amount }) : t("flyer.offerPlain"),
    scan: t("flyer.scan"),
    steps: [t("flyer.step1"), t("flyer.step2"), t("flyer.step3")],
    link: referralLink,
    footer: t("flyer.footer", { code: referralCode }),
  };
  // Kept for a day under a key naming everything drawn (ADR 026): downloading it again, or many times, costs the PDF
  // pool one render, so nobody's invoice waits behind someone's flyers.
  const key = `pdf:referral-flyer:v1:${createHash("sha256").update(JSON.stringify(facts)).digest("hex")}`;
  const pdf = await cachedPdf(scope.app, key, FLYER_CACHE_SECONDS, () => scope.app.pdf.render("referral-flyer", facts));
  return pdf.ok ? ok({ pdf: pdf.value, fileName: `referral-${referralCode}.pdf` }) : pdf;
}
