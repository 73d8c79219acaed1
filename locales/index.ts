// Every translation file, imported statically so the server bundle, the
// scripts and the tests all read the same resources. Add a namespace here.
import en_US_common from "./en_US/common.json";
import en_US_auth from "./en_US/auth.json";
import zh_CN_common from "./zh_CN/common.json";
import zh_CN_auth from "./zh_CN/auth.json";
import ja_JP_common from "./ja_JP/common.json";
import ja_JP_auth from "./ja_JP/auth.json";
import pt_BR_common from "./pt_BR/common.json";
import pt_BR_auth from "./pt_BR/auth.json";
import es_ES_common from "./es_ES/common.json";
import es_ES_auth from "./es_ES/auth.json";

export const RESOURCES: Record<string, Record<string, Record<string, unknown>>> = {
  en_US: { common: en_US_common, auth: en_US_auth },
  zh_CN: { common: zh_CN_common, auth: zh_CN_auth },
  ja_JP: { common: ja_JP_common, auth: ja_JP_auth },
  pt_BR: { common: pt_BR_common, auth: pt_BR_auth },
  es_ES: { common: es_ES_common, auth: es_ES_auth },
};
