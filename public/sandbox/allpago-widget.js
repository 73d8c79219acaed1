// The Allpago sandbox's widget (GET /api/payment/allpago-checkout, ADR 036): posts the card to its checkout and
// tells the embedding page of the same origin {checkoutId, height, saving} (and the result) by window messages.
(function () {
  "use strict";
  var body = document.body;
  var checkoutId = body.getAttribute("data-checkout-id");
  var form = document.getElementById("allpago-form");
  var result = document.getElementById("allpago-result");
  var button = form.querySelector("button");

  function post(extra) {
    var message = {
      type: "allpago:widget",
      checkoutId: checkoutId,
      height: Math.max(247, document.documentElement.scrollHeight),
      saving: false,
    };
    for (var k in extra) message[k] = extra[k];
    if (window.parent !== window) window.parent.postMessage(message, location.origin);
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    button.disabled = true;
    post({ saving: true });
    fetch(body.getAttribute("data-pay-url"), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ number: form.number.value, holder: form.holder.value, expiry: form.expiry.value, cvv: form.cvv.value }),
    })
      .then(function (r) {
        if (!r.ok) throw new Error(String(r.status));
        return r.json();
      })
      .then(function (answer) {
        result.textContent = body.getAttribute(answer.success ? "data-msg-paid" : "data-msg-declined");
        result.className = "sbx-result " + (answer.success ? "sbx-ok" : "sbx-bad");
        if (!answer.success) button.disabled = false;
        post({ resultCode: answer.result.code, success: answer.success });
      })
      .catch(function () {
        result.textContent = body.getAttribute("data-msg-error");
        result.className = "sbx-result sbx-bad";
        button.disabled = false;
        post({});
      });
  });
  window.addEventListener("load", function () {
    post({});
  });
})();
