// The portal's URLs, built in one place (spec 1 §2, spec 2 §2, spec 3 §2). Every page lives under a
// language prefix; API paths have none. Route modules, server modules and e-mails build links here
// instead of writing `/${lang}/…` by hand, so a moved page is one edit.
import type { SiteLang } from "./i18n";

type Query = Record<string, string | number | boolean | null | undefined>;

/** "?a=1&b=x" from the defined values, or "" when there are none (encodeURIComponent, as links were written by hand). */
export function query(params: Query = {}): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== false) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

/**
 * A redirect target from a query parameter, accepted only when it stays on this site (a path starting with
 * a single "/"), so no redirect parameter is ever an open redirect.
 */
export function safeRedirect(target: string | null | undefined, fallback: string): string {
  if (!target || typeof target !== "string") return fallback;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\u0000-\u001f]/.test(target)) return fallback;
  return target;
}

const seg = (value: string | number) => encodeURIComponent(String(value));

export const paths = {
  home: (lang: SiteLang) => `/${lang}`,
  terms: (lang: SiteLang) => `/${lang}/terms`,
  privacy: (lang: SiteLang) => `/${lang}/privacy`,
  support: (lang: SiteLang) => `/${lang}/support`,
  supportSubmission: (lang: SiteLang, id: string | number) => `/${lang}/support/index/submission/${seg(id)}`,
  certificateVerify: (lang: SiteLang) => `/${lang}/certificate/verify`,
  rubriq: (lang: SiteLang) => `/${lang}/rubriq`,

  // Sign-in and registration (spec 1 §2)
  login: (lang: SiteLang, q?: { redirect?: string | null; origin?: string | null }) => `/${lang}/login${query(q)}`,
  loginFailure: (lang: SiteLang, message: string) => `/${lang}/login/failure/${seg(message)}`,
  forgotPassword: (lang: SiteLang, q?: Query) => `/${lang}/login/forgot-password${query(q)}`,
  resetPassword: (lang: SiteLang, hash: string, userIdentity: string) => `/${lang}/login/reset-password/${seg(hash)}/${seg(userIdentity)}`,
  wechatLogin: (lang: SiteLang, q?: Query) => `/${lang}/login/wechat${query(q)}`,
  wechatConfirm: (lang: SiteLang, loginCode: string) => `/${lang}/login/wechat/confirm/${seg(loginCode)}`,
  register: (lang: SiteLang, q?: Query) => `/${lang}/register${query(q)}`,
  registerConfirm: (lang: SiteLang, data: string) => `/${lang}/register/confirm/${seg(data)}`,
  logout: (lang: SiteLang, q?: Query) => `/${lang}/logout${query(q)}`,

  // Account (spec 1 §2)
  account: (lang: SiteLang, q?: Query) => `/${lang}/account${query(q)}`,
  accountCountry: (lang: SiteLang) => `/${lang}/account/country`,
  addresses: (lang: SiteLang, q?: Query) => `/${lang}/account/addresses${query(q)}`,
  address: (lang: SiteLang, id: number | "new") => `/${lang}/account/addresses/${seg(id)}`,

  // Researcher area (spec 2 §2)
  researcher: (lang: SiteLang) => `/${lang}/researcher`,
  wfoeMigration: (lang: SiteLang) => `/${lang}/researcher/wfoe-migration-status`,
  orderDetails: (lang: SiteLang, externalId: string, status?: string) =>
    `/${lang}/researcher/index/details/${seg(externalId)}${status ? `/${seg(status)}` : ""}`,
  orderThankYou: (lang: SiteLang, externalId: string) => `/${lang}/researcher/index/details/${seg(externalId)}/thank-you`,
  orderReedit: (lang: SiteLang, externalId: string) => `/${lang}/researcher/index/re-edit/${seg(externalId)}`,
  /** The dashboard's filtered list (spec 2 §2): empty parts are "_", the page number ends the path. */
  researcherOrders: (
    lang: SiteLang,
    f: { xid?: string | null; orderTitle?: string | null; from?: string | null; to?: string | null; page?: number },
  ) => `/${lang}/researcher/index/orders/${[f.xid, f.orderTitle, f.from, f.to].map((v) => (v ? seg(v) : "_")).join("/")}/${f.page ?? 1}`,
  orderEdit: (lang: SiteLang, externalId: string) => `/${lang}/researcher/index/details/${seg(externalId)}?edit=1`,
  reworkSuccess: (lang: SiteLang, externalId: string, data?: string) =>
    `/${lang}/researcher/index/details/${seg(externalId)}/rework-success${data ? `/${seg(data)}` : ""}`,
  supportSubmissionType: (lang: SiteLang, externalId: string, type: "inactive-service" | "proof-of-payment") =>
    `/${lang}/support/index/submission/${seg(externalId)}/type/${type}`,
  certificate: (lang: SiteLang) => `/${lang}/certificate`,
  certificateVerifyCode: (lang: SiteLang, code: string) => `/${lang}/certificate/verify${query({ code })}`,
  /** The verification page showing the result of a file check (the SHA-256 of the file checked, and its name). */
  certificateVerifyChecked: (lang: SiteLang, code: string, sha256: string, name: string) =>
    `/${lang}/certificate/verify${query({ code, sha256, name })}`,
  /** The owner's title-and-authors form posts here (action only; back to `redirect`). */
  certificateEdit: (lang: SiteLang, code: string) => `/${lang}/certificate/edit/${seg(code)}`,
  invoicesUnpaid: (lang: SiteLang) => `/${lang}/researcher/invoices/unpaid`,
  // Invoices and paying them (spec 2 §2 "Invoices", issue 12 §4).
  invoices: (lang: SiteLang, status?: string, q?: Query) => `/${lang}/researcher/invoices${status ? `/${seg(status)}` : ""}${query(q)}`,
  invoicesPay: (lang: SiteLang, invoiceNumbers: string[]) => `/${lang}/researcher/invoices/pay/${seg(invoiceNumbers.join(","))}`,
  invoicesUnpaidLanding: (lang: SiteLang, type: string) => `/${lang}/researcher/invoices/unpaid/${seg(type)}`,
  invoiceFapiao: (lang: SiteLang, invoiceNumber: string) => `/${lang}/researcher/invoices/${seg(invoiceNumber)}/fapiao`,
  // Prepay, credits and fapiao (spec 2 §2 "Prepay", issue 13).
  prepay: (lang: SiteLang, retainerInvoiceNumber?: string, q?: Query) =>
    `/${lang}/researcher/prepay${retainerInvoiceNumber ? `/${seg(retainerInvoiceNumber)}` : ""}${query(q)}`,
  prepayComplete: (lang: SiteLang, type: string) => `/${lang}/researcher/prepay/complete/${seg(type)}`,
  prepayFapiao: (lang: SiteLang, retainerInvoiceNumber: string) => `/${lang}/researcher/prepay/${seg(retainerInvoiceNumber)}/fapiao`,
  /** The currency chooser (spec 2 §2 "Choose-currency"): a page of its own, back to `redirect` once chosen. */
  chooseCurrency: (lang: SiteLang, redirect?: string) => `/${lang}/researcher/currency${query({ redirect })}`,
  /** A payment waiting for the researcher (QR code to scan, boleto to pay, form to post to the provider). */
  paymentPending: (lang: SiteLang, paymentId: string) => `/${lang}/researcher/payment/${seg(paymentId)}`,
  /** The built-in provider sandboxes' own pages (issue 12 §2): what the provider would show, labelled test mode. */
  paymentSandbox: (lang: SiteLang, provider: string, paymentId: string, q?: Query) =>
    `/${lang}/payment-sandbox/${seg(provider)}/${seg(paymentId)}${query(q)}`,
  referralRewards: (lang: SiteLang) => `/${lang}/referral-rewards`,
  /** A referral link (ADR 031): sign-up with the referrer's code, without a language (the friend's own is chosen). */
  referralSignUp: (lang: SiteLang, code: string) => `/${lang}/register${query({ referralCode: code })}`,

  // The order wizard (spec 1 §2): `step` is a step's path segment ("get-started", "details", …).
  submit: (lang: SiteLang, step: string, q?: Query) => `/${lang}/researcher/submit/${step}${query(q)}`,
  /** A wizard link without a language (API navigations): the language redirect adds the visitor's. */
  submitAnyLang: (step: string, q?: Query) => `/researcher/submit/${step}${query(q)}`,

  // Staff (spec 1 §2)
  staff: (lang: SiteLang, q?: Query) => `/${lang}/staff${query(q)}`,
  staffOutbox: (lang: SiteLang, id?: number | string) => `/${lang}/staff/outbox${id === undefined ? "" : `/${seg(id)}`}`,
  staffStopImpersonation: (lang: SiteLang) => `/${lang}/staff/stop-impersonation`,
  staffOrders: (lang: SiteLang, q?: Query) => `/${lang}/staff/orders${query(q)}`,
  staffOrder: (lang: SiteLang, externalId: string) => `/${lang}/staff/orders/${seg(externalId)}`,
  staffOrderNew: (lang: SiteLang, q?: Query) => `/${lang}/staff/orders/new${query(q)}`,
  staffSupport: (lang: SiteLang, id?: number | string) => `/${lang}/staff/support${id === undefined ? "" : `/${seg(id)}`}`,
  staffPayments: (lang: SiteLang, q?: Query) => `/${lang}/staff/payments${query(q)}`,
  staffPayment: (lang: SiteLang, id: string) => `/${lang}/staff/payments/${seg(id)}`,
  staffInvoice: (lang: SiteLang, invoiceNumber: string) => `/${lang}/staff/invoices/${seg(invoiceNumber)}`,
  staffVouchers: (lang: SiteLang, q?: Query) => `/${lang}/staff/vouchers${query(q)}`,
  staffCredits: (lang: SiteLang, q?: Query) => `/${lang}/staff/credits${query(q)}`,
  staffResearcher: (lang: SiteLang, identity: string, q?: Query) => `/${lang}/staff/researchers/${seg(identity)}${query(q)}`,
  staffRetainerInvoice: (lang: SiteLang, number: string) => `/${lang}/staff/prepayments/${seg(number)}`,
  staffPrepayments: (lang: SiteLang, q?: Query) => `/${lang}/staff/prepayments${query(q)}`,
  staffFapiaos: (lang: SiteLang, q?: Query) => `/${lang}/staff/fapiaos${query(q)}`,
  staffFapiao: (lang: SiteLang, id: number | string) => `/${lang}/staff/fapiaos/${seg(id)}`,

  // JSON API (no language prefix)
  api: {
    priceQuotePdf: (estimateId: string) => `/api/price-quote/${seg(estimateId)}/pdf`,
    orderFormReedit: (externalId: string) => `/api/order-form/reedit/${seg(externalId)}`,
    /** Sends a signed-in user to `redirect` on their own localisation's site (spec 1 §2). */
    accountRedirect: (redirect: string) => `/api/account/redirect${query({ redirect })}`,
    /** Signs out of the site that serves it; the signed-out page loads it from the other localisations' sites. */
    logoutGif: (token: string) => `/api/auth/logout.gif${query({ t: token })}`,
    /** Browser navigation that starts social sign-in with a provider (ADR 003). */
    socialSignIn: (providerId: string, q?: { redirect?: string | null; origin?: string | null }) =>
      `/api/auth/opa/${seg(providerId)}${query(q)}`,
    wechatLogin: () => "/api/auth/wechat-login",
    wechatLoginStatus: (loginCode: string) => `/api/auth/wechat-login/${seg(loginCode)}`,
    areasOfStudy: (q: string) => `/api/areas-of-study${query({ q })}`,
    journals: (q: string) => `/api/journals${query({ q })}`,
    orderFormDocumentDetails: (id: string) => `/api/order-form/${seg(id)}/document-details`,
    orderFormManuscriptDetails: (id: string) => `/api/order-form/${seg(id)}/manuscript-details`,
    /** The signed-in user's order with the same title in the last 7 days, if any (the details step's check). */
    orderDuplicate: (title: string) => `/api/order/duplicate${query({ title })}`,
    orderSearch: (q: Query) => `/api/order/search${query(q)}`,
    order: (externalId: string) => `/api/order/${seg(externalId)}/payment`,
    orderSave: (externalId: string) => `/api/order/${seg(externalId)}/save`,
    orderServices: (externalId: string) => `/api/order/${seg(externalId)}/services`,
    orderEmailNotifications: (externalId: string) => `/api/order/${seg(externalId)}/email-notifications`,
    serviceDetails: (serviceIdentities: string[]) => `/api/service-details${query({ serviceIdentities: serviceIdentities.join(",") })}`,
    /** The order's delivered files: the list, one file, and all of them as one zip streamed by the server. */
    orderDeliverables: (externalId: string) => `/api/order/${seg(externalId)}/deliverables`,
    orderDeliverable: (externalId: string, key: string) => `/api/order/${seg(externalId)}/deliverables/${seg(key)}`,
    orderDeliverablesZip: (externalId: string) => `/api/order/${seg(externalId)}/deliverables.zip`,
    fileDownload: (identity: string) => `/api/file/${seg(identity)}/download`,
    certificate: (code: string) => `/api/certificate/${seg(code)}`,
    certificateSave: (code: string) => `/api/certificate/save/${seg(code)}`,
    certificatePdf: (code: string) => `/api/certificate/${seg(code)}/pdf`,
    certificateDeliverables: (code: string) => `/api/certificate/${seg(code)}/deliverables`,
    certificateDeliverable: (code: string, key: string) => `/api/certificate/${seg(code)}/deliverables/${seg(key)}`,
    certificateDeliverablesZip: (code: string) => `/api/certificate/${seg(code)}/deliverables.zip`,
    // Payments and invoices (spec 2 §7, issue 12).
    invoiceLoad: () => "/api/invoice/load",
    invoicePdf: (invoiceNumber: string, q?: Query) => `/api/invoice/${seg(invoiceNumber)}/pdf${query(q)}`,
    statementOfDelivery: (invoiceNumber: string) => `/api/invoice/${seg(invoiceNumber)}/statement-of-delivery`,
    paymentReceiptPdf: (id: string, q?: Query) => `/api/payment/${seg(id)}/pdf${query(q)}`,
    boletoPdf: (paymentId: string) => `/api/payment/${seg(paymentId)}/boleto.pdf`,
    retainerInvoicePdf: (retainerInvoiceNumber: string, q?: Query) => `/api/retainer-invoice/${seg(retainerInvoiceNumber)}/pdf${query(q)}`,
    prepayPayment: () => "/api/prepay/payment",
    prepayLoad: () => "/api/prepay/load",
    fapiaos: (q?: Query) => `/api/fapiao${query(q)}`,
    fapiao: (id: number | string) => `/api/fapiao/${seg(id)}`,
    /** The issued fapiao's PDF (uploaded by staff), for its owner. */
    fapiaoPdf: (id: number | string) => `/api/fapiao/${seg(id)}/pdf`,
    fapiaoOrganizations: (name: string) => `/api/fapiao/organizations${query({ name })}`,
    paymentLoad: () => "/api/payment/load",
    paymentCurrencies: () => "/api/payment/currencies",
    braintreeClientToken: () => "/api/payment/braintree-client-token",
    allpagoCheckout: (q: Query) => `/api/payment/allpago-checkout${query(q)}`,
    payoffPayment: () => "/api/payoff/payment",
    orderFormPayments: (formId: string) => `/api/order-form/${seg(formId)}/payments`,
    orderFormVoucher: (formId: string, code: string) => `/api/order-form/${seg(formId)}/voucher/${seg(code)}`,
    voucherVerify: (code: string) => `/api/voucher/${seg(code)}`,
    /** Where a provider sends the payer back, and where it posts its signed notifications. */
    paymentReturn: (provider: string, paymentId: string, q?: Query) => `/api/payment/return/${seg(provider)}/${seg(paymentId)}${query(q)}`,
    paymentNotify: (provider: string) => `/api/payment/notify/${seg(provider)}`,
    paymentStatus: (paymentId: string) => `/api/payment/${seg(paymentId)}/status`,
    // Grammar check (spec 3 §7): the list's polling of processing rows, and "Get Started" from a report.
    grammarCheckPoll: (identities: string[]) => `/api/grammar-check/search?${identities.map((i) => `identities=${seg(i)}`).join("&")}`,
    orderFormFromLanguageAssessment: (identity: string) => `/api/order-form/from-language-assessment/${seg(identity)}`,
    // Digital editing and translation (spec 3 §7, issue 24).
    digitalEditLoad: () => "/api/digital-edit/load",
    digitalEditSearch: (q?: Query) => `/api/digital-edit/search${query(q)}`,
    digitalEditPoll: (identities: string[]) => `/api/digital-edit/search?${identities.map((i) => `identities=${seg(i)}`).join("&")}`,
    digitalEditCreate: () => "/api/digital-edit/create",
    digitalEditArchive: (identity: string) => `/api/digital-edit/${seg(identity)}/archive`,
    /** The tracked-changes .docx. */
    digitalEditDownload: (identity: string) => `/api/digital-edit/${seg(identity)}/download`,
    /** The clean version (changes applied, no revisions). */
    digitalEditLewisVersion: (identity: string) => `/api/digital-edit/${seg(identity)}/lewis-version`,
    digitalEditPayment: () => "/api/digital-edit/payment",
    orderFormFromDigitalEdit: (identity: string) => `/api/order-form/from-digital-edit/${seg(identity)}`,
    digitalOrderLoad: () => "/api/digital-order/load",
    digitalOrderSearch: (q?: Query) => `/api/digital-order/search${query(q)}`,
    digitalOrderPoll: (identities: string[]) => `/api/digital-order/search?${identities.map((i) => `identities=${seg(i)}`).join("&")}`,
    digitalOrderCreate: () => "/api/digital-order/create",
    digitalOrderArchive: (identity: string) => `/api/digital-order/${seg(identity)}/archive`,
    digitalOrderDownload: (identity: string) => `/api/digital-order/${seg(identity)}/download`,
    digitalTranslationPayment: () => "/api/digital-translation/payment",
    chineseDigitalTrial: (context: string) => `/api/${seg(context)}/chinese-digital-trial`,
    /** A digital purchase's invoice, with the payments received on it (its receipt), as a PDF. */
    digitalInvoicePdf: (invoiceNumber: string) => `/api/digital-invoice/${seg(invoiceNumber)}/pdf`,
  },
  // Grammar check pages (spec 3 §2, ADR 071): the list (?page=N), a report (?from=N: the list page to go back to),
  // and the no-JavaScript confirmation pages of archive and delete.
  grammarCheck: (lang: SiteLang, q?: { page?: number; archived?: string; deleted?: string }) =>
    `/${lang}/researcher/grammar-check${query(q?.page === 1 ? { ...q, page: undefined } : q)}`,
  grammarCheckDetails: (lang: SiteLang, identity: string, from?: number) =>
    `/${lang}/researcher/grammar-check/details/${seg(identity)}${query({ from: from && from > 1 ? from : undefined })}`,
  grammarCheckArchive: (lang: SiteLang, identity: string, from?: number) =>
    `/${lang}/researcher/grammar-check/archive/${seg(identity)}${query({ from: from && from > 1 ? from : undefined })}`,
  grammarCheckDelete: (lang: SiteLang, identity: string, from?: number) =>
    `/${lang}/researcher/grammar-check/delete/${seg(identity)}${query({ from: from && from > 1 ? from : undefined })}`,
  // Digital editing and translation pages (spec 3 §2, issue 24). `status` is the list's optional status filter
  // segment; `receiptCode`/`success` are the payment return's segments (…/subscribe/{receiptCode}/success).
  digitalEditing: (lang: SiteLang, status?: string, q?: Query) =>
    `/${lang}/researcher/digital-editing${status ? `/${seg(status)}` : ""}${query(q)}`,
  digitalEditingDetails: (lang: SiteLang, identity: string) => `/${lang}/researcher/digital-editing/details/${seg(identity)}`,
  digitalEditingDelete: (lang: SiteLang, identity: string) => `/${lang}/researcher/digital-editing/delete/${seg(identity)}`,
  digitalEditingSubscribe: (lang: SiteLang, receiptCode?: string, success?: boolean) =>
    `/${lang}/researcher/digital-editing/subscribe${receiptCode ? `/${seg(receiptCode)}${success ? "/success" : ""}` : ""}`,
  digitalEditingAddIn: (lang: SiteLang) => `/${lang}/researcher/digital-editing/add-in`,
  digitalTranslations: (lang: SiteLang, status?: string, q?: Query) =>
    `/${lang}/researcher/digital-translations${status ? `/${seg(status)}` : ""}${query(q)}`,
  digitalTranslationsDelete: (lang: SiteLang, identity: string) => `/${lang}/researcher/digital-translations/delete/${seg(identity)}`,
  digitalTranslationsPurchase: (lang: SiteLang, receiptCode?: string, success?: boolean, q?: Query) =>
    `/${lang}/researcher/digital-translations/purchase${receiptCode ? `/${seg(receiptCode)}${success ? "/success" : ""}` : ""}${query(q)}`,
  chineseDigitalTrial: (lang: SiteLang) => `/${lang}/chinese-digital-trial`,
  // Issue 24 (helper C): the Word add-in's manifest (XML) and task pane, the survey's post, the staff reading of answers.
  digitalEditingAddInManifest: (lang: SiteLang) => `/${lang}/researcher/digital-editing/add-in/manifest.xml`,
  digitalEditingAddInIcon: (size: 16 | 32 | 64 | 80) => `/digital/add-in-icon-${size}.png`,
  digitalSurvey: (lang: SiteLang) => `/${lang}/researcher/digital-editing/survey`,
  staffSurveys: (lang: SiteLang, q?: Query) => `/${lang}/staff/surveys${query(q)}`,
  rubriqPlanSubscribe: (lang: SiteLang) => `/${lang}/rubriq/plan/subscribe`,

  // Issue 25, rewards and promotions (helper R): the rewards page, 'Current Promotions', the staff console's campaigns.
  rewards: (lang: SiteLang, q?: Query) => `/${lang}/researcher/rewards${query(q)}`,
  coupons: (lang: SiteLang, q?: Query) => `/${lang}/researcher/coupons${query(q)}`,
  staffPromotions: (lang: SiteLang, id?: number | string) => `/${lang}/staff/promotions${id === undefined ? "" : `/${seg(id)}`}`,
  // (helper R adds its further paths above this line)

  // Issue 25, referrals and testimonials (helper F): the flyer PDF, the testimonial form, the staff review.
  referralFlyer: (lang: SiteLang) => `/${lang}/referral-rewards/flyer.pdf`,
  testimonialSubmit: (lang: SiteLang) => `/${lang}/testimonials/submit`,
  staffTestimonials: (lang: SiteLang, id?: string) => `/${lang}/staff/testimonials${id === undefined ? "" : `/${seg(id)}`}`,
  staffTestimonialPhoto: (lang: SiteLang, id: string) => `/${lang}/staff/testimonials/${seg(id)}/photo`,
  /** The dashboard after a testimonial: its notice ('Your testimonial has been received…'). */
  testimonialReceived: (lang: SiteLang) => `/${lang}/researcher${query({ testimonial: "received" })}`,
  // (helper F adds its further paths above this line)

  // Issue 25, preferred groups and the home area (helper H): /home, the staff console's groups.
  homeArea: (lang: SiteLang, q?: Query) => `/${lang}/home${query(q)}`,
  staffGroups: (lang: SiteLang, id?: number | string, q?: Query) =>
    `/${lang}/staff/groups${id === undefined ? "" : `/${seg(id)}`}${query(q)}`,
  /** The dashboard after a preferred group form: `?group=joined|left` says which message to show. */
  researcherGroup: (lang: SiteLang, outcome: string) => `/${lang}/researcher${query({ group: outcome })}`,
  /** The spam banner's hide form (POST, then 303 back to `redirect`). */
  hideSpamMessage: (lang: SiteLang) => `/${lang}/home/spam-message`,
  rubriqTranslation: (lang: SiteLang) => `/${lang}/rubriq/translation`,
  // (helper H adds its further paths above this line)
} as const;
