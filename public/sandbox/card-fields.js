// The card sandbox's hosted fields (ADR 036): turns a typed test card into the one-time nonce Braintree's sandbox
// gives for it (server/payments/providers/card.ts has the same table and checks the nonce), and sends it to the
// embedding page of the same origin only. Labels come from the `sandbox` namespace of the page's language.
(function () {
  "use strict";
  var LOCALES = { en: "en_US", cn: "zh_CN", jp: "ja_JP", br: "pt_BR", es: "es_ES" };
  var TAGS = { en: "en-US", cn: "zh-CN", jp: "ja-JP", br: "pt-BR", es: "es-ES" };
  var NONCES = {
    4111111111111111: "fake-valid-nonce",
    4000111111111115: "fake-processor-declined-visa-nonce",
    5105105105105100: "fake-processor-declined-mastercard-nonce",
    3566002020360505: "fake-processor-failure-jcb-nonce",
    4000111111111511: "fake-gateway-rejected-fraud-nonce",
  };
  var lang = new URLSearchParams(location.search).get("lang");
  if (!LOCALES[lang]) lang = "en";
  document.documentElement.lang = TAGS[lang];
  var labels = {};

  function label(key) {
    return key.split(".").reduce(function (o, k) {
      return o && o[k];
    }, labels);
  }

  fetch("/locales/" + LOCALES[lang] + "/sandbox.json")
    .then(function (r) {
      return r.ok ? r.json() : {};
    })
    .then(function (json) {
      labels = json;
      document.querySelectorAll("[data-i18n]").forEach(function (el) {
        var text = label(el.getAttribute("data-i18n"));
        if (typeof text === "string") el.textContent = text;
      });
      if (label("card.title")) document.title = label("card.title");
      // A card completed before the texts arrived showed the untranslated fallback: say it again in the language.
      showReady();
      sendHeight();
    })
    .catch(function () {});

  function luhn(digits) {
    if (!/^\d{12,19}$/.test(digits)) return false;
    var sum = 0;
    for (var i = digits.length - 1, dbl = false; i >= 0; i--, dbl = !dbl) {
      var d = Number(digits[i]);
      if (dbl) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      sum += d;
    }
    return sum % 10 === 0;
  }

  function suffix() {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.prototype.map
      .call(bytes, function (b) {
        return ("0" + b.toString(16)).slice(-2);
      })
      .join("");
  }

  function post(message) {
    if (window.parent !== window) window.parent.postMessage(message, location.origin);
  }

  function sendHeight() {
    post({ type: "card-fields:height", height: document.documentElement.scrollHeight });
  }

  var form = document.getElementById("card-form");
  var result = document.getElementById("card-result");
  var lastKey = "";
  var last4 = "";

  /** "Card ready: ending in 1234." for the complete card, in the page's language once its texts have arrived. */
  function showReady() {
    if (!lastKey || !last4) return;
    var ready = label("card.ready");
    result.textContent = typeof ready === "string" ? ready.replace("{{last4}}", last4) : "•••• " + last4;
  }

  function update() {
    var digits = form.number.value.replace(/\D/g, "");
    var complete =
      digits.length >= 12 && /^\d{2}\s*\/\s*\d{2,4}$/.test(form.expiry.value.trim()) && /^\d{3,4}$/.test(form.cvv.value.trim());
    var key = complete ? digits + "|" + form.expiry.value + "|" + form.cvv.value : "";
    if (key === lastKey) return;
    lastKey = key;
    if (!complete) {
      last4 = "";
      result.textContent = "";
      post({ type: "card-fields:nonce", nonce: "", last4: "" });
      return;
    }
    // A new nonce for each complete card: each one can be used once.
    var kind = luhn(digits) ? NONCES[digits] || "fake-valid-nonce" : "fake-luhn-invalid-nonce";
    last4 = digits.slice(-4);
    showReady();
    post({ type: "card-fields:nonce", nonce: kind + "~" + suffix(), last4: last4 });
    sendHeight();
  }

  form.addEventListener("input", update);
  // Autofill may fill the fields without an input event.
  form.addEventListener("change", update);
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    update();
  });
  window.addEventListener("load", sendHeight);
  // The fields exist before this script runs (it ends the page): whatever was typed or restored in between counts.
  update();
})();
