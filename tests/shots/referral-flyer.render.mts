// Run: npx tsx tests/shots/referral-flyer.render.mts (after nothing: it draws the flyer itself); PNGs to /work/shots/referrals.
// Renders the flyer's first page to PNG in Chromium with the pdf.js build that unpdf ships (no renderer on the machine).
import fs from "node:fs";
import { chromium } from "@playwright/test";
import { renderReferralFlyer } from "../../server/pdf/referral-flyer";
import { fixedT } from "../../server/i18n";
const browser = await chromium.launch({
  executablePath: fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined,
  args: ["--no-sandbox"],
});
for (const [lang, amount] of [
  ["cn", "¥288"],
  ["br", "R$224"],
] as const) {
  const t = fixedT(lang, "referrals");
  const pdf = await renderReferralFlyer({
    lang,
    company: "Researcher Services",
    heading: t("flyer.heading"),
    offer: t("flyer.offer", { amount }),
    scan: t("flyer.scan"),
    steps: [t("flyer.step1"), t("flyer.step2"), t("flyer.step3")],
    link: `https://portal.example.org/${lang}/register?referralCode=84VHVHSS3YGY`,
    footer: t("flyer.footer", { code: "84VHVHSS3YGY" }),
  });
  const page = await browser.newPage({ viewport: { width: 900, height: 1250 } });
  await page.route("http://flyer.local/**", (route) => {
    const u = route.request().url();
    if (u.endsWith("/pdfjs.mjs"))
      return route.fulfill({ body: fs.readFileSync("node_modules/unpdf/dist/pdfjs.mjs"), contentType: "text/javascript" });
    if (u.endsWith("/flyer.pdf")) return route.fulfill({ body: pdf, contentType: "application/pdf" });
    return route.fulfill({
      contentType: "text/html",
      body: `<html><body style="margin:0"><canvas id="c"></canvas><script type="module">
      import * as pdfjs from "/pdfjs.mjs";
      const doc = await pdfjs.getDocument({ url: "/flyer.pdf", isEvalSupported: false }).promise;
      const p = await doc.getPage(1); const vp = p.getViewport({ scale: 1.5 });
      const c = document.getElementById("c"); c.width = vp.width; c.height = vp.height;
      await p.render({ canvasContext: c.getContext("2d"), viewport: vp }).promise; document.title = "done";
    </script></body></html>`,
    });
  });
  page.on("pageerror", (e) => console.error("pageerror", e.message));
  await page.goto("http://flyer.local/");
  await page.waitForFunction(() => document.title === "done", null, { timeout: 30000 });
  await page.locator("#c").screenshot({ path: `/work/shots/referrals/${lang}-flyer-page1.png` });
  await page.close();
}
await browser.close();
