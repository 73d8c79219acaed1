// The whole URL map (spec 1 §2, spec 2 §2, spec 3 §2). Every page lives under a
// language prefix; paths without one are redirected by server/http/lang.ts.
import { type RouteConfig, index, layout, route } from "@remix-run/route-config";

// Issue 25: no route renders the "coming soon" page any more (tests/unit/no-coming-soon.test.ts walks this table).

export default [
  index("routes/root-index.tsx"),
  // The JSON API (/api/*, spec 1 §7, spec 2 §7) is not in this tree: its endpoint tables (server/<area>/api.ts)
  // are served by server/http/api ahead of Remix, which answers a JSON 404 for any other /api path (ADR 013).

  // The bench's floor (ADR 079): a page of {bytes} plain markup with no loader, outside the :lang/chrome tree so it
  // measures Remix itself; server/app.ts answers 404 for it unless BENCH_BARE_ROUTE is on (npm run bench only).
  route("__bench/bare/:bytes", "routes/bench.bare.tsx"),

  route(":lang", "routes/lang.tsx", [
    layout("routes/chrome.tsx", [
      index("routes/landing.tsx"),

      // Sign-in area
      route("login/forgot-password", "routes/login.forgot-password.tsx"),
      route("login/wechat", "routes/login.wechat.tsx"),
      route("login/wechat/confirm/:loginCode", "routes/login.wechat.confirm.$loginCode.tsx"),
      route("login/reset-password/:hash/:userIdentity", "routes/login.reset-password.tsx"),
      route("login/:failure?/:message?", "routes/login.tsx"),
      // Register area
      route("register/confirm/:data", "routes/register.tsx", { id: "register-confirm" }),
      route("register/*", "routes/register.tsx"),
      route("logout", "routes/logout.tsx"),
      route("verify-email/:identity/:expires/:signature", "routes/verify-email.tsx"),

      // Account
      route("account", "routes/account.tsx", [
        index("routes/account._index.tsx"),
        route("addresses/:id?", "routes/account.addresses.tsx"),
        route("country", "routes/account.country.tsx"),
      ]),

      // Researcher area (dashboard, orders, payments, tools)
      // Dashboard and order list (spec 2 §2, issue 11 §3): one module, two routes.
      route("researcher", "routes/researcher._index.tsx", { id: "researcher-dashboard" }),
      route("researcher/index/orders/:xid/:orderTitle/:from/:to/:page", "routes/researcher._index.tsx", { id: "researcher-orders" }),
      route("researcher/index/details/:externalId/rework-success/:data?", "routes/order-rework-success.tsx"),
      route("researcher/index/details/:externalId/:status?/:chatbot?", "routes/order-details.tsx"),
      route("researcher/index/re-edit/:externalId", "routes/order-reedit.tsx"),
      // Any other /researcher/index/… path is no page of spec 2 §2: the honest 404, never "coming soon" (issue 22 item 5).
      route("researcher/index/*", "routes/not-found.tsx", { id: "researcher-index-not-found" }),
      route("researcher/wfoe-migration-status", "routes/researcher.wfoe-migration-status.tsx"),
      // Digital editing and digital translation (spec 3 §2, issue 24, ADR 074): lists and uploads, details, delete
      // confirmations (no JavaScript), the subscription and package purchases, the Word add-in and the survey.
      route("researcher/digital-editing/details/:identity", "routes/researcher.digital-editing.details.$identity.tsx"),
      route("researcher/digital-editing/delete/:identity", "routes/researcher.digital.delete.tsx", { id: "digital-editing-delete" }),
      route("researcher/digital-editing/subscribe/:receiptCode?/:success?", "routes/researcher.digital-editing.subscribe.tsx"),
      route("researcher/digital-editing/add-in", "routes/researcher.digital-editing.add-in.tsx"),
      route("researcher/digital-editing/add-in/manifest.xml", "routes/researcher.digital-editing.add-in.manifest.tsx"),
      route("researcher/digital-editing/survey", "routes/researcher.digital-survey.tsx"),
      route("researcher/digital-editing/:status?", "routes/researcher.digital-editing.tsx"),
      route("researcher/digital-translations/delete/:identity", "routes/researcher.digital.delete.tsx", {
        id: "digital-translations-delete",
      }),
      route("researcher/digital-translations/purchase/:receiptCode?/:success?", "routes/researcher.digital-translations.purchase.tsx"),
      route("researcher/digital-translations/:status?", "routes/researcher.digital-translations.tsx"),
      route("researcher/digital-editing/*", "routes/not-found.tsx", { id: "digital-editing-not-found" }),
      route("researcher/digital-translations/*", "routes/not-found.tsx", { id: "digital-translations-not-found" }),
      route("researcher/aje-plus", "routes/researcher.aje-plus.tsx"),
      // Issue 25 (helper R): 'Current Promotions'.
      route("researcher/coupons", "routes/researcher.coupons.tsx"),
      // (end of helper R's coupons lines)
      // A prepayment's fapiao (issue 13 §4): before the prepay routes, which are more general.
      route("researcher/prepay/:number/fapiao", "routes/researcher.prepay.$number.fapiao.tsx"),
      // Prepay and the currency chooser (spec 2 §2 "Prepay", "Choose-currency"; issue 13 §1-2)
      route("researcher/prepay", "routes/researcher.prepay.tsx", { id: "researcher-prepay" }),
      route("researcher/prepay/complete/:type", "routes/researcher.prepay.complete.$type.tsx"),
      route("researcher/prepay/:retainerInvoiceNumber", "routes/researcher.prepay.tsx", { id: "researcher-prepay-existing" }),
      route("researcher/currency", "routes/researcher.currency.tsx"),
      // Pay many invoices (issue 12 §4)
      route("researcher/invoices/pay/:invoiceNumbers", "routes/researcher.invoices.pay.tsx"),
      // Invoices (issue 12 §4)
      // The list (one module, two routes) and the landing after a payment. The pay page
      // (researcher/invoices/pay/:invoiceNumbers) is more specific than these; {n}/fapiao comes with issue 13.
      route("researcher/invoices", "routes/researcher.invoices.tsx", { id: "researcher-invoices" }),
      route("researcher/invoices/:status", "routes/researcher.invoices.tsx", { id: "researcher-invoices-status" }),
      route("researcher/invoices/unpaid/:type", "routes/researcher.invoices.unpaid.$type.tsx"),
      // An invoice's fapiao (issue 13 §4)
      route("researcher/invoices/:number/fapiao", "routes/researcher.invoices.$number.fapiao.tsx"),
      // Any other invoices path is no page of spec 2 §2 (issue 25: no route stays "coming soon").
      route("researcher/invoices/*", "routes/not-found.tsx", { id: "researcher-invoices-not-found" }),
      // Grammar check (spec 3 §2, issue 23, ADR 071): list and upload, a report, and the no-JavaScript confirmations.
      route("researcher/grammar-check", "routes/researcher.grammar-check.tsx"),
      route("researcher/grammar-check/details/:identity", "routes/researcher.grammar-check.details.$identity.tsx"),
      route("researcher/grammar-check/archive/:identity", "routes/researcher.grammar-check.confirm.tsx", { id: "grammar-check-archive" }),
      route("researcher/grammar-check/delete/:identity", "routes/researcher.grammar-check.confirm.tsx", { id: "grammar-check-delete" }),
      route("researcher/grammar-check/*", "routes/not-found.tsx", { id: "grammar-check-not-found" }),
      // Issue 25 (helper R): the rewards page.
      route("researcher/rewards", "routes/researcher.rewards.tsx"),
      // (end of helper R's rewards lines)
      // A payment waiting for the researcher: QR code, boleto, provider redirect (issue 12 §2)
      route("researcher/payment/:paymentId", "routes/researcher.payment.$paymentId.tsx"),
      // A researcher path no spec names is not found (issue 22 item 5); the areas above still say when they come.
      route("researcher/*", "routes/not-found.tsx", { id: "researcher-not-found" }),

      // Issue 25 (helper F): 'My Referrals' and its flyer.
      route("referral-rewards", "routes/referral-rewards.tsx"),
      route("referral-rewards/flyer.pdf", "routes/referral-rewards.flyer.tsx"),
      route("referral-rewards/*", "routes/not-found.tsx", { id: "referral-rewards-not-found" }),
      // (end of helper F's referral lines)

      // Chinese digital trial (spec 3 §2, issue 24): sign-in required; GET shows eligibility, POST grants.
      route("chinese-digital-trial", "routes/chinese-digital-trial.tsx"),

      // Issue 25 (helper H): the home area.
      // /home (flag curie_is_launched, else /researcher), the spam banner's hide form; any other /home/… is not found.
      route("home", "routes/home.tsx"),
      route("home/spam-message", "routes/home.spam-message.tsx"),
      route("home/*", "routes/not-found.tsx", { id: "home-not-found" }),
      // (end of helper H's home lines)

      // Issue 25 (helper F): testimonials.
      route("testimonials/submit", "routes/testimonials.submit.tsx"),
      route("testimonials/*", "routes/not-found.tsx", { id: "testimonials-not-found" }),
      // (end of helper F's testimonial lines)

      // Certificates (issue 11 §6, spec 2 §2): open to anyone; the edit route is the owner's.
      route("certificate", "routes/certificate._index.tsx"),
      route("certificate/verify", "routes/certificate.verify.tsx"),
      route("certificate/edit/:code", "routes/certificate.edit.tsx"),
      // Support (spec 2 §2, issue 11 §4)
      route("support", "routes/support.tsx"),
      route("support/index/submission/:externalId", "routes/support.tsx", { id: "support-submission" }),
      route("support/index/submission/:externalId/type/:type", "routes/support.tsx", { id: "support-submission-type" }),
      route("curie/*", "routes/curie.tsx"),
      // Issue 25 (helper H): curie and rubriq.
      // /rubriq, /rubriq/translation, /rubriq/plan/subscribe; any other path is not found (or the external site).
      route("rubriq", "routes/rubriq.tsx", { id: "rubriq" }),
      route("rubriq/*", "routes/rubriq.tsx", { id: "rubriq-any" }),
      // (end of helper H's rubriq lines)

      route("staff", "routes/staff.tsx", [
        index("routes/staff._index.tsx"),
        route("outbox/:id?", "routes/staff.outbox.tsx"),
        // The staff operations console (issue 11 §2)
        route("orders", "routes/staff.orders._index.tsx"),
        route("orders/new", "routes/staff.orders.new.tsx"),
        route("orders/:externalId", "routes/staff.orders.$externalId.tsx"),
        route("support/:id?", "routes/staff.support.tsx"),
        route("support/:id/file", "routes/staff.support-file.tsx"),
        // Staff payments (issue 12 §8)
        route("payments", "routes/staff.payments._index.tsx"),
        route("payments/:id", "routes/staff.payments.$id.tsx"),
        route("invoices/:number", "routes/staff.invoices.$number.tsx"),
        route("vouchers", "routes/staff.vouchers.tsx"),
        // Courtesy credits (issue 13)
        route("credits", "routes/staff.credits.tsx"),
        // A researcher's account states: country prompt, hidden invoices, wfoe migration (issue 22 item 5)
        route("researchers/:identity", "routes/staff.researchers.$identity.tsx"),
        // Fapiaos (issue 13 §4)
        route("fapiaos", "routes/staff.fapiaos._index.tsx"),
        route("fapiaos/:id", "routes/staff.fapiaos.$id.tsx"),
        // Prepayments: unpaid retainer invoices and recording their bank transfers (issue 13 §1)
        route("prepayments", "routes/staff.prepayments._index.tsx"),
        route("prepayments/:number", "routes/staff.prepayments.$number.tsx"),
        // The digital tools' survey answers (issue 24, ADR 074)
        route("surveys", "routes/staff.surveys.tsx"),
        // Issue 25 (helper R): promotions and campaigns.
        route("promotions", "routes/staff.promotions._index.tsx"),
        route("promotions/:id", "routes/staff.promotions.$id.tsx"),
        // (end of helper R's staff lines)

        // Issue 25 (helper F): testimonials to review.
        route("testimonials", "routes/staff.testimonials._index.tsx"),
        route("testimonials/:id", "routes/staff.testimonials.$id.tsx"),
        route("testimonials/:id/photo", "routes/staff.testimonials.$id.photo.tsx"),
        // (end of helper F's staff lines)

        // Issue 25 (helper H): preferred groups.
        route("groups/:id?", "routes/staff.groups.tsx"),
        // (end of helper H's staff lines)
      ]),
      route("staff/stop-impersonation", "routes/staff.stop-impersonation.tsx"),

      route("terms", "routes/terms.tsx"),
      route("privacy", "routes/privacy.tsx"),
      // Payment provider sandboxes (issue 12 §2)
      route("payment-sandbox/:provider/:paymentId", "routes/payment-sandbox.$provider.$paymentId.tsx"),
      route("error", "routes/error.tsx"),
      route("*", "routes/not-found.tsx"),
    ]),
    // The order form has no page chrome (spec 1 §2); its layout holds the step bar and "My Order".
    route("researcher/submit", "routes/submit.tsx", [
      index("routes/submit.new.tsx", { id: "submit-index" }),
      route("new", "routes/submit.new.tsx"),
      route("resume", "routes/submit.new.tsx", { id: "submit-resume" }),
      route("reset", "routes/submit.reset.tsx"),
      route("currency", "routes/submit.currency.tsx"),
      route("promo", "routes/submit.promo.tsx"),
      route("get-started", "routes/submit.get-started.tsx"),
      route("upload", "routes/submit.get-started.tsx", { id: "submit-upload" }),
      route("rework-get-started", "routes/submit.get-started.tsx", { id: "submit-rework-get-started" }),
      route("manuscript-services", "routes/submit.services.tsx"),
      route("select", "routes/submit.services.tsx", { id: "submit-select" }),
      route("multimedia-services", "routes/submit.services.tsx", { id: "submit-multimedia-services" }),
      route("additional-services", "routes/submit.additional-services.tsx"),
      route("review-additional-services", "routes/submit.additional-services.tsx", { id: "submit-review-additional-services" }),
      route("details", "routes/submit.details.tsx"),
      route("duplicate-order", "routes/submit.duplicate-order.tsx"),
      route("payment-details", "routes/submit.payment-details.tsx"),
      route("service-bundles", "routes/submit.service-bundles.tsx"),
      route("quote", "routes/submit.quote.tsx"),
      route("price-quote-completed", "routes/submit.price-quote-completed.tsx"),
      // Voucher (issue 12 §7)
      route("voucher", "routes/submit.voucher.tsx"),
      route("*", "routes/not-found.tsx", { id: "submit-not-found" }),
    ]),
  ]),
] satisfies RouteConfig;
