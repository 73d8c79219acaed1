// The provider of each payment method (ADR 036, ADR 053). With the provider's credentials in the environment, the
// provider itself takes the payment. Without them, its built-in sandbox (test mode) does only when the installation
// says so (PAYMENTS_MODE=sandbox): the same flow, test values, declines and signed notifications as the provider's
// own test mode, labelled "test mode" wherever a researcher sees it (README "Payment providers"). Otherwise the
// method is not offered and its charge is refused: a missing setting never switches a test mode on.
import type { AppContext } from "../../context";
import { PAYMENT_CREDENTIALS, type Env } from "../../env";
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

/** The variables that, all set, connect a provider (checked at start: some without the others stop it). */
export const PROVIDER_CREDENTIALS: Record<ProviderId, readonly (keyof Env)[]> = PAYMENT_CREDENTIALS;

export const PROVIDER_IDS = Object.keys(PROVIDER_CREDENTIALS) as ProviderId[];
export const isProviderId = (s: string): s is ProviderId => (PROVIDER_IDS as string[]).includes(s);

/** True when the provider's credentials are in the environment (then the sandbox is not used). */
export const hasCredentials = (env: Env, id: ProviderId) => PROVIDER_CREDENTIALS[id].every((name) => Boolean(env[name]));

/** The providers this build has a live client for; the others run only as their sandbox. */
const LIVE_CLIENTS: ReadonlySet<ProviderId> = new Set(["paypal", "alipay", "wechat"]);

/**
 * How a provider runs here: `live` (its credentials are set and this build talks to it), `sandbox` (no credentials
 * and PAYMENTS_MODE=sandbox) or `off` (no credentials in live mode, or credentials without a live client): an off
 * provider's methods are not offered and its charges are refused.
 */
export function providerMode(env: Env, id: ProviderId): "live" | "sandbox" | "off" {
  if (hasCredentials(env, id)) return LIVE_CLIENTS.has(id) ? "live" : "off";
  return env.PAYMENTS_MODE === "sandbox" ? "sandbox" : "off";
}

/** The providers that can take payments here (live or sandbox): the payment forms offer only their methods. */
export const usableProviders = (env: Env): ReadonlySet<ProviderId> => new Set(PROVIDER_IDS.filter((id) => providerMode(env, id) !== "off"));

/** The providers running as their sandbox (test mode): named by the start banner and /healthz. */
export const testModeProviders = (env: Env): ProviderId[] => PROVIDER_IDS.filter((id) => providerMode(env, id) === "sandbox");

/** A provider that cannot take payments here: its charge rejects, and the service answers provider-unavailable. */
export class ProviderUnavailable extends Error {
  constructor(
    readonly provider: ProviderId,
    configured = true,
  ) {
    super(
      configured
        ? `${provider}: credentials are set (${PROVIDER_CREDENTIALS[provider].join(", ")}) but this build has only the sandbox; unset them and set PAYMENTS_MODE=sandbox to use test mode`
        : `${provider}: not configured (${PROVIDER_CREDENTIALS[provider].join(", ")}) and PAYMENTS_MODE is not sandbox: its methods are not offered`,
    );
  }
}

function unavailable(id: ProviderId, configured: boolean): PaymentProvider {
  const refuse = () => Promise.reject(new ProviderUnavailable(id, configured));
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
 * The provider behind a payment method, by providerMode: the provider itself, its sandbox, or (off) one that
 * refuses every call. Card, UnionPay, Allpago and boleto have no live client in this build (ADR 036): with
 * credentials they are off (logged once) rather than charging through a sandbox.
 */
export function getProvider(app: AppContext, id: ProviderId): PaymentProvider {
  let byId = instances.get(app);
  if (!byId) instances.set(app, (byId = new Map()));
  let provider = byId.get(id);
  if (!provider) {
    const mode = providerMode(app.env, id);
    if (mode === "sandbox") provider = sandboxFor(app, id);
    else if (mode === "live" && id === "paypal") provider = livePaypal(app.env);
    else if (mode === "live" && id === "alipay") provider = liveAlipay(app);
    else if (mode === "live" && id === "wechat") provider = liveWechat(app);
    else {
      const configured = hasCredentials(app.env, id);
      if (configured) app.logger.error({ provider: id }, new ProviderUnavailable(id).message);
      provider = unavailable(id, configured);
    }
    byId.set(id, provider);
  }
  return provider;
}

export { sandboxNonceFor, TEST_CARD_NONCES, PROCESSOR_DECLINES } from "./card";
export { createAllpagoCheckout, findAllpagoCheckout, payAllpagoCheckout, isAllpagoSuccess, ALLPAGO_RESULTS } from "./allpago";
export type { AllpagoCheckout } from "./allpago";
