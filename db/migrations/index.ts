// Migrations are listed statically so they are bundled with the app and run
// the same way from the server, the tests and the scripts.
import type { Migration, MigrationProvider } from "kysely";
import * as m0001 from "./0001_foundation";
import * as m0002 from "./0002_mail_and_reset";
import * as m0003 from "./0003_accounts";
import * as m0004 from "./0004_social";
import * as m0005 from "./0005_wechat";
import * as m0006 from "./0006_catalogue";
import * as m0007 from "./0007_documents";
import * as m0008 from "./0008_order_forms";
import * as m0009 from "./0009_journals";
import * as m0010 from "./0010_rework";
import * as m0021 from "./0021_localization_hosts";
import * as m0022 from "./0022_profile_fields";
import * as m0024 from "./0024_impersonator";
import * as m0026 from "./0026_email_verification";
import * as m0027 from "./0027_order_life";
import * as m0029 from "./0029_referral_codes";
import * as m0030 from "./0030_payments";
import * as m0031 from "./0031_prepay_credits_fapiao";
import * as m0032 from "./0032_mail_dedupe";
import * as m0033 from "./0033_upload_address";
import * as m0034 from "./0034_issued_documents";
import * as m0035 from "./0035_payment_attempts";
import * as m0036 from "./0036_invoice_kinds";
import * as m0037 from "./0037_language_assessments";
import * as m0038 from "./0038_digital";
import * as m0039 from "./0039_digital_survey";
import * as m0040 from "./0040_rewards";

const migrations: Record<string, Migration> = {
  "0001_foundation": m0001,
  "0002_mail_and_reset": m0002,
  "0003_accounts": m0003,
  "0004_social": m0004,
  "0005_wechat": m0005,
  "0006_catalogue": m0006,
  "0007_documents": m0007,
  "0008_order_forms": m0008,
  "0009_journals": m0009,
  "0010_rework": m0010,
  "0021_localization_hosts": m0021,
  "0022_profile_fields": m0022,
  "0024_impersonator": m0024,
  "0026_email_verification": m0026,
  "0027_order_life": m0027,
  "0029_referral_codes": m0029,
  "0030_payments": m0030,
  "0031_prepay_credits_fapiao": m0031,
  "0032_mail_dedupe": m0032,
  "0033_upload_address": m0033,
  "0034_issued_documents": m0034,
  "0035_payment_attempts": m0035,
  "0036_invoice_kinds": m0036,
  "0037_language_assessments": m0037,
  "0038_digital": m0038,
  "0039_digital_survey": m0039,
  "0040_rewards": m0040,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
