// The built-in sandboxes' own pages (issue 12 §2, ADR 036): what the provider would show the payer — PayPal's
// approval, the phone that scans an Alipay or WeChat Pay QR code, UnionPay's front page, the bank that takes a
// boleto, Allpago's PayPal approval — each labelled "Test mode — no real money". Reading a page changes nothing;
// its buttons (POST) do what the provider would do: approve and send the payer back, or pay and send the signed
// notification to the same code that receives the providers' own (notify.ts).
//
// Only the payer acts on them (issue 21 §3): the signed-in owner of the payment. Staff may look at another user's
// page; everyone else, signed in or not, gets "not found", as for a payment that does not exist.
import { fail, ok, type Result } from "#common/result";
import type { CurrencyFormat } from "#common/format";
import { paths } from "#common/paths";
import { isSiteLang, type SiteLang } from "#common/i18n";
import type { AppContext } from "../context";
import type { Scope } from "../scope";
import { getProvider, isProviderId, type ProviderId } from "./providers";
import { loadSession, saveSession, withQuery, type SandboxSession } from "./providers/keys";
import { approvePaypalOrder, cancelPaypalOrder } from "./providers/paypal";
import { sandboxAlipayNotification } from "./providers/alipay";
import { sandboxWechatNotification } from "./providers/wechat";
import { sandboxUnionpayNotification, sandboxUnionpayResult } from "./providers/unionpay";
import { sandboxBoletoNotification } from "./providers/boleto";
import { decideAllpagoPaypal } from "./providers/allpago";
import { receiveNotification } from "./notify";
import { findPayment } from "./read";

/** Providers that have a sandbox page, and the buttons each shows. */
export const SANDBOX_PAGES = {
  paypal: ["approve", "cancel"],
  alipay: ["pay", "cancel"],
  wechat: ["pay", "cancel"],
  unionpay: ["pay", "cancel"],
  boleto: ["pay"],
  allpago: ["approve", "cancel"],
} as const satisfies Partial<Record<ProviderId, readonly string[]>>;

export type SandboxIntent = "approve" | "pay" | "cancel";

export interface SandboxView {
  provider: keyof typeof SANDBOX_PAGES;
  paymentId: string;
  amount: number;
  currency: CurrencyFormat;
  description: string;
  /** The viewer is the payer: the buttons act for them (staff viewing another user's payment only look). */
  payer: boolean;
  /** open: the buttons show; done: paid, approved or cancelled already. */
  state: "open" | "done";
  intents: readonly SandboxIntent[];
  /** Boleto: the line the bank is paying. */
  boletoLine?: string;
}

const hasPage = (p: string): p is keyof typeof SANDBOX_PAGES => p in SANDBOX_PAGES;

/**
 * The sandbox's record of a payment `scope` may see: the payer's own, or (`staffMayView`) any payment for staff.
 * Null for a provider without a sandbox page or not in test mode, an unknown payment, or anyone else.
 */
async function sessionFor(
  scope: Scope,
  provider: string,
  paymentId: string,
  staffMayView: boolean,
): Promise<{ session: SandboxSession; payer: boolean } | null> {
  const app = scope.app;
  if (!isProviderId(provider) || !hasPage(provider) || !getProvider(app, provider).sandbox || scope.userId === null) return null;
  const payment = await findPayment(app, paymentId);
  if (!payment) return null;
  const payer = payment.userId === scope.userId;
  if (!payer && !(staffMayView && scope.session?.user.isStaff === true)) return null;
  const session = await loadSession(app, provider, paymentId);
  return session ? { session, payer } : null;
}

/**
 * What the sandbox page shows; null when this provider has no sandbox page, never saw this payment, or the payment
 * is not the viewer's (staff may view any); `payer` says whether its buttons act for this viewer.
 */
export async function sandboxView(scope: Scope, provider: string, paymentId: string): Promise<SandboxView | null> {
  const app = scope.app;
  const found = await sessionFor(scope, provider, paymentId, true);
  if (!found || !hasPage(provider)) return null;
  const { session, payer } = found;
  const open = session.status === "open" || session.status === "CREATED";
  return {
    provider,
    paymentId,
    payer,
    amount: session.amount,
    currency: await currencyFormat(app, session.currencyIso, session.numDecimals),
    description: session.description,
    state: open ? "open" : "done",
    intents: SANDBOX_PAGES[provider],
    ...(session.extra?.boletoLine ? { boletoLine: session.extra.boletoLine } : {}),
  };
}

/** How an amount of this currency is written (formatMoney): its sign from the currencies table. */
export async function currencyFormat(app: AppContext, isoCode: string, numDecimals: number): Promise<CurrencyFormat> {
  const row = await app.db.selectFrom("currencies").select("sign").where("iso_code", "=", isoCode).executeTakeFirst();
  return { isoCode, sign: row?.sign ?? `${isoCode} `, numDecimals };
}

const langOf = (s: SandboxSession): SiteLang => (isSiteLang(s.lang) ? s.lang : "en");

/**
 * A button of the sandbox page, pressed by the payer: where the browser goes next. Errors: not-found (no such
 * sandbox payment, or not this user's), `sandbox-done` (already paid, approved or cancelled), `sandbox-refused` (the notification was not accepted).
 */
export async function sandboxAct(
  scope: Scope,
  provider: string,
  paymentId: string,
  intent: SandboxIntent,
): Promise<Result<{ redirect: string }>> {
  const app = scope.app;
  // Only the payer: anyone else, staff included, is told the payment does not exist.
  const session = (await sessionFor(scope, provider, paymentId, false))?.session;
  if (!session || !hasPage(provider) || !(SANDBOX_PAGES[provider] as readonly string[]).includes(intent)) return fail("not-found");
  if (session.status !== "open" && session.status !== "CREATED") return fail("sandbox-done");
  const pending = paths.paymentPending(langOf(session), paymentId);
  const mark = (status: string) => saveSession(app, { ...session, status });
  const deliver = async (input: Parameters<typeof receiveNotification>[2]) => {
    const answer = await receiveNotification(app, provider, input);
    return Boolean(answer && answer.status < 300);
  };

  switch (provider) {
    case "paypal":
      return ok({ redirect: intent === "approve" ? await approvePaypalOrder(app, session) : await cancelPaypalOrder(app, session) });
    case "allpago": {
      await mark(intent === "approve" ? "approved" : "cancelled");
      const back = await decideAllpagoPaypal(app, session.providerRef, intent === "approve", session.returnUrl);
      return back ? ok({ redirect: back }) : fail("not-found");
    }
    case "unionpay": {
      if (intent === "cancel") {
        await mark("cancelled");
        return ok({ redirect: session.cancelUrl });
      }
      await mark("paid");
      // UnionPay notifies in the background, then sends the browser back with the same signed result.
      if (!(await deliver(sandboxUnionpayNotification(session)))) return fail("sandbox-refused");
      return ok({ redirect: withQuery(session.returnUrl, sandboxUnionpayResult(session)) });
    }
    case "alipay":
    case "wechat":
    case "boleto": {
      // The phone (or the bank) is not the researcher's browser: after paying it shows the pending page, which
      // moves on to the landing by itself once the payment is settled.
      if (intent === "cancel") return ok({ redirect: pending });
      await mark("paid");
      const note =
        provider === "alipay"
          ? sandboxAlipayNotification(session)
          : provider === "wechat"
            ? sandboxWechatNotification(app, session)
            : sandboxBoletoNotification(app, session);
      if (!(await deliver(note))) return fail("sandbox-refused");
      return ok({ redirect: pending });
    }
  }
}
