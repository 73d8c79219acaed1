import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/context";
import { applyEnvOverrides, envName, localizationForHost, loadSnapshotFromDb, CONFIG_CACHE_SECONDS } from "../../server/config";
import { CONFIG_DEFAULTS, FEATURE_FLAGS } from "../../server/config/definitions";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

describe("application config and feature flags", () => {
  it("seeds every config value of spec 1 §3 and every flag the specs name", async () => {
    const snap = await loadSnapshotFromDb(t.ctx.db);
    for (const key of [
      "localAuthEnabled",
      "foundUsOptions",
      "referralAmount",
      "orderFormVersion",
      "marketingOptIn",
      "allowLanguageSelection",
      "authenticationProviders",
      "enforcesDataProtection",
      "institutionInfoMandatory",
      "links",
      "siteLanguages",
      "upsells",
      "website",
      "subNavigation",
      "fileAlertsForType",
      "reeditServiceMap",
      "captchaSiteKey",
      "adminDomain",
      "allowedFileTypes",
      "allowsServiceBundles",
      "companyShortName",
      "projectEnvironmentName",
      "hideRushRules",
    ]) {
      expect(snap.config, key).toHaveProperty(key);
    }
    expect(snap.config.referralAmount).toBe(40);
    for (const flag of [
      "wechat_sso",
      "new_login",
      "npgle_snid",
      "upload_files_ui",
      "service_bundles",
      "show_express_service_options",
      "order_form_language_detection",
      "featured_editing_service_component",
      "curie_is_launched",
      "rubriq_ui_hosted_on_new_site",
      "rubriq_china_cart_purchase",
      "prepay_enabled",
    ]) {
      expect(snap.flags, flag).toHaveProperty(flag);
    }
    expect(Object.keys(snap.flags).sort()).toEqual(Object.keys(FEATURE_FLAGS).sort());
  });

  it("holds the localisations US (default), China and Brazil as data", async () => {
    const snap = await t.ctx.config.snapshot();
    expect(snap.localizations.map((l) => l.identity).sort()).toEqual(["BR", "CN", "US"]);
    // No localisation has a site of its own by default (ADR 021): every host is the default's.
    expect(snap.localizations.map((l) => l.secureSite)).toEqual([null, null, null]);
    expect(localizationForHost(snap.localizations, "cn.localhost:3000").identity).toBe("US");
    const hosted = applyEnvOverrides(snap, { CONFIG_LOCALIZATION_HOSTS: '{"CN":"cn.localhost","BR":"BR.localhost","XX":"x"}' });
    expect(hosted.localizations.map((l) => [l.identity, l.secureSite])).toEqual([
      ["BR", "br.localhost"],
      ["CN", "cn.localhost"],
      ["US", null],
    ]);
    expect(localizationForHost(hosted.localizations, "cn.localhost:3000").identity).toBe("CN");
    expect(localizationForHost(hosted.localizations, "unknown.example").identity).toBe("US");
    expect(snap.localizations.find((l) => l.identity === "BR")!.taxTypes).toEqual(["CPF", "CNPJ"]);
    expect(snap.localizations.find((l) => l.identity === "CN")!.allowsFapiaoProcessingAfterPayment).toBe(true);
  });

  it("caches for 10 minutes until invalidated", async () => {
    expect(CONFIG_CACHE_SECONDS).toBe(600);
    await t.ctx.config.invalidate();
    expect((await t.ctx.config.snapshot()).flags.npgle_snid).toBe(false);
    // A change made behind the service's back is not seen while cached...
    await t.ctx.db.updateTable("feature_flags").set({ enabled: true }).where("name", "=", "npgle_snid").execute();
    expect((await t.ctx.config.snapshot()).flags.npgle_snid).toBe(false);
    // ...and is seen once the cache is invalidated; setFlag invalidates by itself.
    await t.ctx.config.invalidate();
    expect((await t.ctx.config.snapshot()).flags.npgle_snid).toBe(true);
    await t.ctx.config.setFlag("npgle_snid", false);
    expect((await t.ctx.config.snapshot()).flags.npgle_snid).toBe(false);
    await t.ctx.config.setConfig("referralAmount", 55);
    expect((await t.ctx.config.snapshot()).config.referralAmount).toBe(55);
  });

  it("lets the environment override values and flags", async () => {
    expect(envName("localAuthEnabled")).toBe("LOCAL_AUTH_ENABLED");
    expect(envName("wechat_sso")).toBe("WECHAT_SSO");
    const snap = await loadSnapshotFromDb(t.ctx.db);
    const over = applyEnvOverrides(snap, {
      CONFIG_LOCAL_AUTH_ENABLED: "false",
      CONFIG_REFERRAL_AMOUNT: "25",
      CONFIG_SITE_LANGUAGES: '["en","cn"]',
      FLAG_WECHAT_SSO: "off",
      FLAG_PREPAY_ENABLED: "not-a-boolean",
    });
    expect(over.config.localAuthEnabled).toBe(false);
    expect(over.config.referralAmount).toBe(25);
    expect(over.config.siteLanguages).toEqual(["en", "cn"]);
    expect(over.flags.wechat_sso).toBe(false);
    expect(over.flags.prepay_enabled).toBe(snap.flags.prepay_enabled);
    expect(Object.keys(CONFIG_DEFAULTS).length).toBeGreaterThan(20);
  });
});
