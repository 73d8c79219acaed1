// The printable referral flyer (issue 25 item 3, spec 3 §2 "Referrals"): a heading, the offer, the QR code of the
// referral link as an embedded PNG (drawn by `qrcode` here, in the pool's worker), the link itself and a few
// lines of how it works, in the user's language with CJK fonts. The strings come translated (referrals namespace).
import QRCode from "qrcode";
import type { SiteLang } from "#common/i18n";
import { COLORS, Pdf } from "./document";

export interface ReferralFlyerData {
  lang: SiteLang;
  company: string;
  heading: string;
  offer: string;
  scan: string;
  steps: string[];
  link: string;
  footer: string;
}

/** Raise with any change of the layout (nothing caches flyers yet; kept with the other documents' versions). */
export const REFERRAL_FLYER_LAYOUT_VERSION = 1;

export async function renderReferralFlyer(c: ReferralFlyerData): Promise<Buffer> {
  const pdf = new Pdf({ lang: c.lang, title: c.heading, author: c.company, subject: c.offer, keywords: c.link });
  const { left, contentWidth: width } = pdf;
  const doc = pdf.doc;
  const band = 170;
  doc.save().rect(0, 0, doc.page.width, band).fill(COLORS.brand).restore();
  let y = 52;
  y = pdf.text(c.company, left, y, width, { weight: "bold", size: 14, color: "#ffffff", align: "center" }) + 12;
  pdf.text(c.heading, left, y, width, { weight: "bold", size: 28, color: "#ffffff", align: "center" });
  y = band + 40;
  y = pdf.text(c.offer, left + 20, y, width - 40, { weight: "bold", size: 20, align: "center" }) + 24;
  const qrWidth = 250;
  const png = await QRCode.toBuffer(c.link, { type: "png", errorCorrectionLevel: "M", margin: 4, width: 660 });
  doc.image(png, left + (width - qrWidth) / 2, y, { width: qrWidth, height: qrWidth });
  y += qrWidth + 14;
  y = pdf.text(c.scan, left, y, width, { size: 11, color: COLORS.muted, align: "center" }) + 6;
  y = pdf.text(c.link, left, y, width, { weight: "bold", size: 11, color: COLORS.brand, align: "center" }) + 36;
  pdf.rule(y);
  y += 24;
  c.steps.forEach((step, i) => {
    y = pdf.text(`${i + 1}. ${step}`, left + 30, y, width - 60, { size: 12 }) + 12;
  });
  pdf.footers(() => ({ left: c.company, right: c.footer }));
  return pdf.toBuffer();
}
