// The provider of each payment method (ADR 036). Without the provider's credentials in the environment, its
// built-in sandbox (test mode) takes the payment: the same flow, test values, declines and signed notifications
// as the provider's own test mode, labelled "test mode" wherever a researcher sees it (README "Payment providers").
import type { AppContext } from "../../context";
import type { Env } from "../../env";
import type { PaymentProvider, ProviderId } from "./types";
import { CardProvider, sandboxCardKeys } from "./card";
import { PaypalProvider } from "./paypal";
import { PaypalLiveProvider } from "./paypal-live";
import { AlipayGateway, alipayKey } from "./alipay-live";
import { WechatGateway, wechatMerchantKey, wechatPlatformKey } from "./wechat-live";
import { createHash, X509Certificate } from "node:crypto";
import { AlipayProvider, sandboxAlipayKeys } from "./alipay";
import { WechatProvider, sandboxWechatKeys } from "./wechat";
import { UnionpayProvider, sandboxUnionpayKeys } from "./unionpay";
import { AllpagoProvider } from "./allpago";
import { BoletoProvider, sandboxBoletoKeys } from "./boleto";

export type { PaymentProvider, ProviderId } from "./types";

/** The variables that, all set, switch a provider from its sandbox to the provider itself. */
export const PROVIDER_CREDENTIALS: Record<ProviderId, (keyof Env)[]> = {
  card: ["BRAINTREE_MERCHANT_ID", "BRAINTREE_PUBLIC_KEY", "BRAINTREE_PRIVATE_KEY"],
  paypal: ["PAYPAL_CLIENT_ID", "PAYPAL_CLIENT_SECRET"],
  alipay: ["ALIPAY_APP_ID", "ALIPAY_PRIVATE_KEY", "ALIPAY_PUBLIC_KEY"],
  wechat: [
    "WECHATPAY_MCH_ID",
    "WECHATPAY_APP_ID",
    "WECHATPAY_API_V3_KEY",
    "WECHATPAY_PRIVATE_KEY",
    "WECHATPAY_SERIAL",
    "WECHATPAY_PLATFORM_CERT",
  ],
  unionpay: ["UNIONPAY_MER_ID", "UNIONPAY_PRIVATE_KEY", "UNIONPAY_PUBLIC_KEY"],
  allpago: ["ALLPAGO_ENTITY_ID", "ALLPAGO_ACCESS_TOKEN"],
  boleto: ["BOLETO_BANK_CODE", "BOLETO_NOTIFY_SECRET"],
};

export const PROVIDER_IDS = Object.keys(PROVIDER_CREDENTIALS) as ProviderId[];
export const isProviderId = (s: string): s is ProviderId => (PROVIDER_IDS as string[]).includes(s);

/** True when the provider's credentials are in the environment (then the sandbox is not used). */
export const hasCredentials = (env: Env, id: ProviderId) => PROVIDER_CREDENTIALS[id].every((name) => Boolean(env[name]));

/** A provider that cannot take payments here: its charge rejects, and the service answers provider-unavailable. */
export class ProviderUnavailable extends Error {
  constructor(readonly provider: ProviderId) {
    super(
      `${provider}: credentials are set (${PROVIDER_CREDENTIALS[provider].join(", ")}) but this build has only the sandbox; unset them to use test mode`,
    );
  }
}

function unavailable(id: ProviderId): PaymentProvider {
  const refuse = () => Promise.reject(new ProviderUnavailable(id));
  return {
    id,
    sandbox: false,
    charge: refuse,
    handleReturn: refuse,
    verifyNotification: refuse,
    notificationReply: (accepted) => new Response(null, { status: accepted ? 204 : 400 }),
    refund: refuse,
  };
}

const instances = new WeakMap<AppContext, Map<ProviderId, PaymentProvider>>();

function sandboxFor(app: AppContext, id: ProviderId): PaymentProvider {
  switch (id) {
    case "card":
      return new CardProvider(app, sandboxCardKeys(app));
    case "paypal":
      return new PaypalProvider(app);
    case "alipay":
      return new AlipayProvider(app, sandboxAlipayKeys());
    case "wechat":
      return new WechatProvider(app, sandboxWechatKeys(app));
    case "unionpay":
      return new UnionpayProvider(app, sandboxUnionpayKeys());
    case "allpago":
      return new AllpagoProvider(app);
    case "boleto":
      return new BoletoProvider(app, sandboxBoletoKeys(app));
  }
}

/** PayPal's REST API: the one live client of this build. */
const livePaypal = (env: Env) =>
  new PaypalLiveProvider({
    clientId: env.PAYPAL_CLIENT_ID!,
    clientSecret: env.PAYPAL_CLIENT_SECRET!,
    apiUrl: env.PAYPAL_API_URL ?? "https://api-m.paypal.com",
    webhookId: env.PAYPAL_WEBHOOK_ID,
  });

/** Alipay's open API; notifications verified with Alipay's public key from the environment. */
function liveAlipay(app: AppContext): PaymentProvider {
  const env = app.env;
  const alipayPublicKey = alipayKey(env.ALIPAY_PUBLIC_KEY!, "public");
  const gateway = new AlipayGateway(env.ALIPAY_APP_ID!, alipayKey(env.ALIPAY_PRIVATE_KEY!, "private"), alipayPublicKey);
  return new AlipayProvider(app, { appId: env.ALIPAY_APP_ID!, alipayPublicKey }, gateway);
}

/** WeChat Pay API v3; the platform certificate's serial is read from the certificate when it is one. */
function liveWechat(app: AppContext): PaymentProvider {
  const env = app.env;
  const pem = env.WECHATPAY_PLATFORM_CERT!.replace(/\\n/g, "\n");
  const platformPublicKey = wechatPlatformKey(pem);
  const platformSerial = pem.includes("BEGIN CERTIFICATE")
    ? new X509Certificate(pem).serialNumber
    : createHash("sha1")
        .update(platformPublicKey.export({ type: "spki", format: "der" }))
        .digest("hex")
        .toUpperCase();
  const keys = {
    mchId: env.WECHATPAY_MCH_ID!,
    appId: env.WECHATPAY_APP_ID!,
    apiV3Key: env.WECHATPAY_API_V3_KEY!,
    platformSerial,
    platformPublicKey,
  };
  const gateway = new WechatGateway({
    mchId: keys.mchId,
    serial: env.WECHATPAY_SERIAL!,
    privateKey: wechatMerchantKey(env.WECHATPAY_PRIVATE_KEY!.replace(/\\n/g, "\n")),
    platformSerial,
    platformPublicKey,
  });
  return new WechatProvider(app, keys, gateway);
}

/**
 * The provider behind a payment method: its sandbox unless its credentials are set. Live clients are not part of
 * this build (ADR 036): a provider with credentials is unavailable (logged once) rather than charging through a
 * sandbox, and the payment form does not label it test mode.
 */
export function getProvider(app: AppContext, id: ProviderId): PaymentProvider {
  let byId = instances.get(app);
  if (!byId) instances.set(app, (byId = new Map()));
  let provider = byId.get(id);
  if (!provider) {
    if (id === "paypal" && hasCredentials(app.env, id)) provider = livePaypal(app.env);
    else if (id === "alipay" && hasCredentials(app.env, id)) provider = liveAlipay(app);
    else if (id === "wechat" && hasCredentials(app.env, id)) provider = liveWechat(app);
    else if (hasCredentials(app.env, id)) {
      app.logger.error({ provider: id }, new ProviderUnavailable(id).message);
      provider = unavailable(id);
    } else provider = sandboxFor(app, id);
    byId.set(id, provider);
  }
  return provider;
}

export { sandboxNonceFor, TEST_CARD_NONCES, PROCESSOR_DECLINES } from "./card";
export { createAllpagoCheckout, findAllpagoCheckout, payAllpagoCheckout, isAllpagoSuccess, ALLPAGO_RESULTS } from "./allpago";
export type { AllpagoCheckout } from "./allpago";
