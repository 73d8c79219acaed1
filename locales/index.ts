// Every translation file, imported statically so the server bundle, the
// scripts and the tests all read the same resources. Add a namespace here
// and in NAMESPACES (app/lib/i18n.ts).
import en_US_common from "./en_US/common.json";
import en_US_auth from "./en_US/auth.json";
import en_US_account from "./en_US/account.json";
import en_US_social from "./en_US/social.json";
import en_US_wechat from "./en_US/wechat.json";
import en_US_catalogue from "./en_US/catalogue.json";
import en_US_order from "./en_US/order.json";
import en_US_pdf from "./en_US/pdf.json";
import zh_CN_common from "./zh_CN/common.json";
import zh_CN_auth from "./zh_CN/auth.json";
import zh_CN_account from "./zh_CN/account.json";
import zh_CN_social from "./zh_CN/social.json";
import zh_CN_wechat from "./zh_CN/wechat.json";
import zh_CN_catalogue from "./zh_CN/catalogue.json";
import zh_CN_order from "./zh_CN/order.json";
import zh_CN_pdf from "./zh_CN/pdf.json";
import ja_JP_common from "./ja_JP/common.json";
import ja_JP_auth from "./ja_JP/auth.json";
import ja_JP_account from "./ja_JP/account.json";
import ja_JP_social from "./ja_JP/social.json";
import ja_JP_wechat from "./ja_JP/wechat.json";
import ja_JP_catalogue from "./ja_JP/catalogue.json";
import ja_JP_order from "./ja_JP/order.json";
import ja_JP_pdf from "./ja_JP/pdf.json";
import pt_BR_common from "./pt_BR/common.json";
import pt_BR_auth from "./pt_BR/auth.json";
import pt_BR_account from "./pt_BR/account.json";
import pt_BR_social from "./pt_BR/social.json";
import pt_BR_wechat from "./pt_BR/wechat.json";
import pt_BR_catalogue from "./pt_BR/catalogue.json";
import pt_BR_order from "./pt_BR/order.json";
import pt_BR_pdf from "./pt_BR/pdf.json";
import es_ES_common from "./es_ES/common.json";
import es_ES_auth from "./es_ES/auth.json";
import es_ES_account from "./es_ES/account.json";
import es_ES_social from "./es_ES/social.json";
import es_ES_wechat from "./es_ES/wechat.json";
import es_ES_catalogue from "./es_ES/catalogue.json";
import es_ES_order from "./es_ES/order.json";
import es_ES_pdf from "./es_ES/pdf.json";

export const RESOURCES: Record<string, Record<string, Record<string, unknown>>> = {
  en_US: { common: en_US_common, auth: en_US_auth, account: en_US_account, social: en_US_social, wechat: en_US_wechat, catalogue: en_US_catalogue, order: en_US_order, pdf: en_US_pdf },
  zh_CN: { common: zh_CN_common, auth: zh_CN_auth, account: zh_CN_account, social: zh_CN_social, wechat: zh_CN_wechat, catalogue: zh_CN_catalogue, order: zh_CN_order, pdf: zh_CN_pdf },
  ja_JP: { common: ja_JP_common, auth: ja_JP_auth, account: ja_JP_account, social: ja_JP_social, wechat: ja_JP_wechat, catalogue: ja_JP_catalogue, order: ja_JP_order, pdf: ja_JP_pdf },
  pt_BR: { common: pt_BR_common, auth: pt_BR_auth, account: pt_BR_account, social: pt_BR_social, wechat: pt_BR_wechat, catalogue: pt_BR_catalogue, order: pt_BR_order, pdf: pt_BR_pdf },
  es_ES: { common: es_ES_common, auth: es_ES_auth, account: es_ES_account, social: es_ES_social, wechat: es_ES_wechat, catalogue: es_ES_catalogue, order: es_ES_order, pdf: es_ES_pdf },
};
