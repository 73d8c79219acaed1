// The whole URL map (spec 1 §2, spec 2 §2, spec 3 §2). Every page lives under a
// language prefix; paths without one are redirected by server/http/lang.ts.
import { type RouteConfig, index, layout, route } from "@remix-run/route-config";

// Areas whose capability arrives with a later issue share one honest "coming" page;
// the route id names the area. Protected areas ask for sign-in first.
const soon = (path: string, id: string) => route(path, "routes/soon.tsx", { id: `soon-${id}` });
const soonProtected = (path: string, id: string) => route(path, "routes/soon-protected.tsx", { id: `soon-${id}` });

export default [
  index("routes/root-index.tsx"),
  // Authentication and account API (spec 1 §7)
  route("api/auth/login", "routes/api.auth.login.ts"),
  route("api/auth/logout", "routes/api.auth.logout.ts"),
  route("api/auth/logout.gif", "routes/api.auth.logout-gif.ts"),
  route("api/auth/register", "routes/api.auth.register.ts"),
  route("api/auth/researcher_exists", "routes/api.auth.researcher-exists.ts"),
  route("api/auth/request-password-reset", "routes/api.auth.request-password-reset.ts"),
  route("api/auth/reset-password", "routes/api.auth.reset-password.ts"),
  route("api/account", "routes/api.account.ts"),
  route("api/account/redirect", "routes/api.account.redirect.ts"),
  route("api/account/:identity/update-details", "routes/api.account.update-details.ts"),
  route("api/account/addresses", "routes/api.account.addresses.ts"),
  route("api/account/addresses/:id", "routes/api.account.addresses.$id.ts"),
  route("api/users/:id/order-count", "routes/api.users.order-count.ts"),
  route("api/snid-account/update-country/:identity", "routes/api.snid-account.update-country.ts"),
  route("api/snid-account/country-update-status/:identity", "routes/api.snid-account.country-update-status.ts"),
  // Social sign-in (spec 1 §7): browser navigation to the provider and its callback.
  route("api/auth/opa/:providerId", "routes/api.auth.opa.$providerId.ts"),
  route("api/auth/opa/:providerId/callback", "routes/api.auth.opa.$providerId.callback.ts"),
  // WeChat QR sign-in (spec 1 §7).
  route("api/auth/wechat-login", "routes/api.auth.wechat-login.ts"),
  route("api/auth/wechat-login/:loginCode", "routes/api.auth.wechat-login.$loginCode.ts"),

  // Order form and orders (spec 1 §7, spec 2 §7): server/order-form/api.ts, server/orders/api.ts
  route("api/*", "routes/api.not-found.ts"),

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

      // Account
      route("account", "routes/account.tsx", [
        index("routes/account._index.tsx"),
        route("addresses/:id?", "routes/account.addresses.tsx"),
        route("country", "routes/account.country.tsx"),
      ]),

      // Researcher area (dashboard, orders, payments, tools)
      soonProtected("researcher", "researcher"),
      route("researcher/index/details/:externalId/:status?", "routes/order-details.tsx"),
      route("researcher/index/re-edit/:externalId", "routes/order-reedit.tsx"),
      soonProtected("researcher/index/*", "researcher-index"),
      route("researcher/wfoe-migration-status", "routes/researcher.wfoe-migration-status.tsx"),
      soonProtected("researcher/digital-editing/*", "digital-editing"),
      soonProtected("researcher/digital-translations/*", "digital-translations"),
      route("researcher/aje-plus", "routes/researcher.aje-plus.tsx"),
      soonProtected("researcher/coupons", "coupons"),
      soonProtected("researcher/prepay/*", "prepay"),
      soonProtected("researcher/invoices/*", "invoices"),
      soon("researcher/grammar-check/*", "grammar-check"),
      soonProtected("researcher/rewards", "rewards"),
      soonProtected("researcher/*", "researcher-other"),

      soonProtected("referral-rewards/*", "referral-rewards"),
      soonProtected("chinese-digital-trial", "chinese-digital-trial"),
      soonProtected("home/*", "home"),
      soonProtected("testimonials/*", "testimonials"),
      soon("certificate/*", "certificate"),
      soon("support/*", "support"),
      route("curie/*", "routes/curie.tsx"),
      soon("rubriq/*", "rubriq"),
      route("staff", "routes/staff.tsx", [index("routes/staff._index.tsx"), route("outbox/:id?", "routes/staff.outbox.tsx")]),
      route("staff/stop-impersonation", "routes/staff.stop-impersonation.tsx"),

      route("terms", "routes/terms.tsx"),
      route("privacy", "routes/privacy.tsx"),
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
      route("details", "routes/submit.details.tsx"),
      route("duplicate-order", "routes/submit.duplicate-order.tsx"),
      route("payment-details", "routes/submit.payment-details.tsx"),
      route("service-bundles", "routes/submit.service-bundles.tsx"),
      route("quote", "routes/submit.quote.tsx"),
      route("price-quote-completed", "routes/submit.price-quote-completed.tsx"),
      route("*", "routes/not-found.tsx", { id: "submit-not-found" }),
    ]),
  ]),
] satisfies RouteConfig;
