// Every translation file, imported statically so the server bundle, the
// scripts and the tests all read the same resources. Add a namespace here
// and in NAMESPACES (app/common/i18n.ts).
import en_US_common from "./en_US/common.json";
import en_US_auth from "./en_US/auth.json";
import en_US_account from "./en_US/account.json";
import en_US_social from "./en_US/social.json";
import en_US_wechat from "./en_US/wechat.json";
import en_US_catalogue from "./en_US/catalogue.json";
import en_US_order from "./en_US/order.json";
import en_US_pdf from "./en_US/pdf.json";
import en_US_orders from "./en_US/orders.json";
import en_US_dashboard from "./en_US/dashboard.json";
import en_US_details from "./en_US/details.json";
import en_US_staffops from "./en_US/staffops.json";
import en_US_certificate from "./en_US/certificate.json";
import en_US_support from "./en_US/support.json";
import en_US_payment from "./en_US/payment.json";
import en_US_sandbox from "./en_US/sandbox.json";
import en_US_invoices from "./en_US/invoices.json";
import en_US_staffpay from "./en_US/staffpay.json";
import zh_CN_common from "./zh_CN/common.json";
import zh_CN_auth from "./zh_CN/auth.json";
import zh_CN_account from "./zh_CN/account.json";
import zh_CN_social from "./zh_CN/social.json";
import zh_CN_wechat from "./zh_CN/wechat.json";
import zh_CN_catalogue from "./zh_CN/catalogue.json";
import zh_CN_order from "./zh_CN/order.json";
import zh_CN_pdf from "./zh_CN/pdf.json";
import zh_CN_orders from "./zh_CN/orders.json";
import zh_CN_dashboard from "./zh_CN/dashboard.json";
import zh_CN_details from "./zh_CN/details.json";
import zh_CN_staffops from "./zh_CN/staffops.json";
import zh_CN_certificate from "./zh_CN/certificate.json";
import zh_CN_support from "./zh_CN/support.json";
import zh_CN_payment from "./zh_CN/payment.json";
import zh_CN_sandbox from "./zh_CN/sandbox.json";
import zh_CN_invoices from "./zh_CN/invoices.json";
import zh_CN_staffpay from "./zh_CN/staffpay.json";
import ja_JP_common from "./ja_JP/common.json";
import ja_JP_auth from "./ja_JP/auth.json";
import ja_JP_account from "./ja_JP/account.json";
import ja_JP_social from "./ja_JP/social.json";
import ja_JP_wechat from "./ja_JP/wechat.json";
import ja_JP_catalogue from "./ja_JP/catalogue.json";
import ja_JP_order from "./ja_JP/order.json";
import ja_JP_pdf from "./ja_JP/pdf.json";
import ja_JP_orders from "./ja_JP/orders.json";
import ja_JP_dashboard from "./ja_JP/dashboard.json";
import ja_JP_details from "./ja_JP/details.json";
import ja_JP_staffops from "./ja_JP/staffops.json";
import ja_JP_certificate from "./ja_JP/certificate.json";
import ja_JP_support from "./ja_JP/support.json";
import ja_JP_payment from "./ja_JP/payment.json";
import ja_JP_sandbox from "./ja_JP/sandbox.json";
import ja_JP_invoices from "./ja_JP/invoices.json";
import ja_JP_staffpay from "./ja_JP/staffpay.json";
import pt_BR_common from "./pt_BR/common.json";
import pt_BR_auth from "./pt_BR/auth.json";
import pt_BR_account from "./pt_BR/account.json";
import pt_BR_social from "./pt_BR/social.json";
import pt_BR_wechat from "./pt_BR/wechat.json";
import pt_BR_catalogue from "./pt_BR/catalogue.json";
import pt_BR_order from "./pt_BR/order.json";
import pt_BR_pdf from "./pt_BR/pdf.json";
import pt_BR_orders from "./pt_BR/orders.json";
import pt_BR_dashboard from "./pt_BR/dashboard.json";
import pt_BR_details from "./pt_BR/details.json";
import pt_BR_staffops from "./pt_BR/staffops.json";
import pt_BR_certificate from "./pt_BR/certificate.json";
import pt_BR_support from "./pt_BR/support.json";
import pt_BR_payment from "./pt_BR/payment.json";
import pt_BR_sandbox from "./pt_BR/sandbox.json";
import pt_BR_invoices from "./pt_BR/invoices.json";
import pt_BR_staffpay from "./pt_BR/staffpay.json";
import es_ES_common from "./es_ES/common.json";
import es_ES_auth from "./es_ES/auth.json";
import es_ES_account from "./es_ES/account.json";
import es_ES_social from "./es_ES/social.json";
import es_ES_wechat from "./es_ES/wechat.json";
import es_ES_catalogue from "./es_ES/catalogue.json";
import es_ES_order from "./es_ES/order.json";
import es_ES_pdf from "./es_ES/pdf.json";
import es_ES_orders from "./es_ES/orders.json";
import es_ES_dashboard from "./es_ES/dashboard.json";
import es_ES_details from "./es_ES/details.json";
import es_ES_staffops from "./es_ES/staffops.json";
import es_ES_certificate from "./es_ES/certificate.json";
import es_ES_support from "./es_ES/support.json";
import es_ES_payment from "./es_ES/payment.json";
import es_ES_sandbox from "./es_ES/sandbox.json";
import es_ES_invoices from "./es_ES/invoices.json";
import es_ES_staffpay from "./es_ES/staffpay.json";

export const RESOURCES: Record<string, Record<string, Record<string, unknown>>> = {
  en_US: { common: en_US_common, auth: en_US_auth, account: en_US_account, social: en_US_social, wechat: en_US_wechat, catalogue: en_US_catalogue, order: en_US_order, pdf: en_US_pdf, orders: en_US_orders, dashboard: en_US_dashboard, details: en_US_details, staffops: en_US_staffops, certificate: en_US_certificate, support: en_US_support, payment: en_US_payment, sandbox: en_US_sandbox, invoices: en_US_invoices, staffpay: en_US_staffpay },
  zh_CN: { common: zh_CN_common, auth: zh_CN_auth, account: zh_CN_account, social: zh_CN_social, wechat: zh_CN_wechat, catalogue: zh_CN_catalogue, order: zh_CN_order, pdf: zh_CN_pdf, orders: zh_CN_orders, dashboard: zh_CN_dashboard, details: zh_CN_details, staffops: zh_CN_staffops, certificate: zh_CN_certificate, support: zh_CN_support, payment: zh_CN_payment, sandbox: zh_CN_sandbox, invoices: zh_CN_invoices, staffpay: zh_CN_staffpay },
  ja_JP: { common: ja_JP_common, auth: ja_JP_auth, account: ja_JP_account, social: ja_JP_social, wechat: ja_JP_wechat, catalogue: ja_JP_catalogue, order: ja_JP_order, pdf: ja_JP_pdf, orders: ja_JP_orders, dashboard: ja_JP_dashboard, details: ja_JP_details, staffops: ja_JP_staffops, certificate: ja_JP_certificate, support: ja_JP_support, payment: ja_JP_payment, sandbox: ja_JP_sandbox, invoices: ja_JP_invoices, staffpay: ja_JP_staffpay },
  pt_BR: { common: pt_BR_common, auth: pt_BR_auth, account: pt_BR_account, social: pt_BR_social, wechat: pt_BR_wechat, catalogue: pt_BR_catalogue, order: pt_BR_order, pdf: pt_BR_pdf, orders: pt_BR_orders, dashboard: pt_BR_dashboard, details: pt_BR_details, staffops: pt_BR_staffops, certificate: pt_BR_certificate, support: pt_BR_support, payment: pt_BR_payment, sandbox: pt_BR_sandbox, invoices: pt_BR_invoices, staffpay: pt_BR_staffpay },
  es_ES: { common: es_ES_common, auth: es_ES_auth, account: es_ES_account, social: es_ES_social, wechat: es_ES_wechat, catalogue: es_ES_catalogue, order: es_ES_order, pdf: es_ES_pdf, orders: es_ES_orders, dashboard: es_ES_dashboard, details: es_ES_details, staffops: es_ES_staffops, certificate: es_ES_certificate, support: es_ES_support, payment: es_ES_payment, sandbox: es_ES_sandbox, invoices: es_ES_invoices, staffpay: es_ES_staffpay },
};

// Issue 13: fapiao (the namespace was declared in NAMESPACES with the groundwork; its files join here).
import en_US_fapiao from "./en_US/fapiao.json";
import zh_CN_fapiao from "./zh_CN/fapiao.json";
import ja_JP_fapiao from "./ja_JP/fapiao.json";
import pt_BR_fapiao from "./pt_BR/fapiao.json";
import es_ES_fapiao from "./es_ES/fapiao.json";
Object.assign(RESOURCES.en_US, { fapiao: en_US_fapiao });
Object.assign(RESOURCES.zh_CN, { fapiao: zh_CN_fapiao });
Object.assign(RESOURCES.ja_JP, { fapiao: ja_JP_fapiao });
Object.assign(RESOURCES.pt_BR, { fapiao: pt_BR_fapiao });
Object.assign(RESOURCES.es_ES, { fapiao: es_ES_fapiao });
