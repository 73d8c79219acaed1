// The Allpago sandbox's embedded widget (GET /api/payment/allpago-checkout, spec 2 §7): the page the payment
// form embeds in an iframe (at least 247 px tall, spec 2 §9). Like OPPWA's widget it takes the card and posts it
// to the checkout; it tells the embedding page {checkoutId, height, saving} by window messages. A file of our
// origin drives it (public/sandbox/allpago-widget.js): no inline script, no inline style (CSP).
import { formatMoney, type CurrencyFormat } from "#common/format";
import { LANG_TAG, type SiteLang } from "#common/i18n";
import { fixedT } from "../i18n";
import type { AllpagoCheckout } from "./providers";

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function allpagoWidgetHtml(lang: SiteLang, checkout: AllpagoCheckout, currency: CurrencyFormat): string {
  const t = fixedT(lang, "sandbox");
  const per = Math.floor(checkout.amount / checkout.installments);
  const field = (name: string, label: string, extra: string) =>
    `<label class="sbx-field"><span>${escape(label)}</span><input name="${name}" ${extra} required></label>`;
  return `<!doctype html>
<html lang="${LANG_TAG[lang]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(t("allpago.title"))}</title><link rel="stylesheet" href="/sandbox/sandbox.css"></head>
<body class="sbx-widget" data-checkout-id="${escape(checkout.id)}" data-pay-url="/api/payment/allpago-checkout/${encodeURIComponent(checkout.id)}/pay"
 data-msg-paid="${escape(t("allpago.paid"))}" data-msg-declined="${escape(t("allpago.declined"))}" data-msg-error="${escape(t("allpago.error"))}">
<p class="sbx-badge">${escape(t("testMode"))}</p>
<form class="sbx-form" id="allpago-form" novalidate>
${field("number", t("card.number"), 'inputmode="numeric" autocomplete="cc-number" maxlength="23"')}
${field("holder", t("card.holder"), 'autocomplete="cc-name" maxlength="60"')}
<div class="sbx-row">${field("expiry", t("card.expiry"), 'placeholder="MM/YY" autocomplete="cc-exp" maxlength="7"')}${field("cvv", t("card.cvv"), 'inputmode="numeric" autocomplete="cc-csc" maxlength="4"')}</div>
<p class="sbx-note">${escape(t("allpago.installments", { count: checkout.installments, amount: formatMoney(per, currency) }))}</p>
<button type="submit" class="sbx-button">${escape(t("allpago.pay", { amount: formatMoney(checkout.amount, currency) }))}</button>
<p class="sbx-result" id="allpago-result" role="status" aria-live="polite"></p>
</form>
<p class="sbx-hint">${escape(t("allpago.hint"))}</p>
<script src="/sandbox/allpago-widget.js"></script>
</body></html>`;
}
