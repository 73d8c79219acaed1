// WeChat QR sign-in panel (spec 1 §2, §4 "WeChat sign-in", §9; ADR 004).
// Without JavaScript it is a plain form posting to /{lang}/login/wechat, whose page shows the QR
// code and reloads itself. With JavaScript the same form is taken over: a click creates the QR
// session with fetch (loading indicator), the QR image shows, the status is polled every 2 s up
// to 30 times, polling stops on an error (error icon), and on loggedIn the browser navigates
// (full document navigation) to the returned redirectUri.
// Client code only: nothing here may import server modules.
import { paths } from "#common/paths";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";

/** Spec 1 §9 (the server sends the same values with each QR session). */
const POLL_INTERVAL_MS = 2000;
const MAX_POLLS = 30;
/** Error codes of the API that have their own text in the "wechat" namespace. */
const KNOWN_ERRORS: Record<string, string> = {
  unknown: "errors.unknown",
  expired: "errors.expired",
  cancelled: "errors.cancelled",
  used: "errors.used",
  inactive: "errors.inactive",
  "rate-limited": "errors.rateLimited",
};

type Phase =
  | { name: "idle" }
  | { name: "loading" }
  | {
      name: "waiting";
      loginCode: string;
      qrCodeUrl: string;
      url: string;
      sandbox: boolean;
      confirmCode: string;
      interval: number;
      maxPolls: number;
    }
  | { name: "error"; message: string };

export function WechatErrorIcon() {
  return (
    <svg className="wechat-error-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="11" fill="currentColor" />
      <path d="M12 6.5v7M12 16.8v.4" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" />
    </svg>
  );
}

/** Says plainly that this is WeChat's test mode, not the real WeChat. */
export function WechatSandboxNotice({ phone = false }: { phone?: boolean }) {
  const { t } = useTranslation("wechat");
  return (
    <p className="alert alert-info wechat-sandbox" role="note">
      <strong className="wechat-sandbox-label">{t("sandbox.label")}</strong> {phone ? t("sandbox.phoneNotice") : t("sandbox.notice")}
    </p>
  );
}

/** The code the phone must type on the confirmation page (ADR 024): shown only here, beside the QR image. */
export function WechatConfirmCode({ code }: { code: string }) {
  const { t } = useTranslation("wechat");
  return (
    <p className="wechat-confirm-code">
      {t("confirmCode.label")} <strong className="wechat-confirm-code-value">{code}</strong>
      <br />
      <small>{t("confirmCode.hint")}</small>
    </p>
  );
}

async function readJson(res: Response): Promise<Record<string, unknown>> {
  try {
    const body = await res.json();
    return body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

type PollState = { code: string | null; status: "pending" | "scanned"; error: string | null; signedIn: boolean };

/**
 * Polls /api/auth/wechat-login/{loginCode} every `interval` ms, at most `maxPolls` times (spec 1 §9), while
 * `loginCode` is set. Stops at the first error; on loggedIn it navigates (full document navigation) to
 * redirectUri. Used by the panel and, once JavaScript runs, by the /login/wechat page.
 */
export function useWechatPolling(loginCode: string | null, interval = POLL_INTERVAL_MS, maxPolls = MAX_POLLS): PollState {
  const { t } = useTranslation("wechat");
  const lang = useLang();
  const [state, setState] = useState<PollState>({ code: null, status: "pending", error: null, signedIn: false });

  useEffect(() => {
    if (!loginCode) return;
    setState({ code: loginCode, status: "pending", error: null, signedIn: false });
    const fail = (error: string) => setState((s) => ({ ...s, code: loginCode, error }));
    let stopped = false;
    let polls = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      polls += 1;
      try {
        const res = await fetch(paths.api.wechatLoginStatus(loginCode), {
          headers: { Accept: "application/json" },
          cache: "no-store",
          credentials: "same-origin",
        });
        const body = await readJson(res);
        if (stopped) return;
        if (res.ok && body.loggedIn === true) {
          setState((s) => ({ ...s, code: loginCode, signedIn: true }));
          window.location.assign(typeof body.redirectUri === "string" && body.redirectUri ? body.redirectUri : paths.researcher(lang));
          return;
        }
        if (!res.ok || body.error) return fail(errorText(t, body));
        if (body.status === "scanned") setState((s) => ({ ...s, code: loginCode, status: "scanned" }));
      } catch {
        if (!stopped) fail(t("errors.network"));
        return;
      }
      if (polls >= maxPolls) return fail(t("errors.expired"));
      if (!stopped) timer = setTimeout(tick, interval);
    };
    timer = setTimeout(tick, interval);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
    // t and lang are stable for the life of one QR session.
  }, [loginCode, interval, maxPolls]);

  return state.code === loginCode ? state : { code: loginCode, status: "pending", error: null, signedIn: false };
}

function errorText(t: (key: string) => string, body: Record<string, unknown>): string {
  const key = typeof body.errorCode === "string" ? KNOWN_ERRORS[body.errorCode] : undefined;
  if (key) return t(key);
  return typeof body.error === "string" && body.error ? body.error : t("errors.generic");
}

export function WechatLogin({ redirect, origin }: { redirect?: string | null; origin?: string | null }) {
  const { t } = useTranslation("wechat");
  const lang = useLang();
  const [phase, setPhase] = useState<Phase>({ name: "idle" });
  // Marks the panel once JavaScript has taken over the form (until then a click posts it natively).
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const waiting = phase.name === "waiting" ? phase : null;
  const poll = useWechatPolling(waiting?.loginCode ?? null, waiting?.interval, waiting?.maxPolls);

  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (phase.name === "loading" || (phase.name === "waiting" && !poll.error)) return;
    setPhase({ name: "loading" });
    try {
      const res = await fetch(paths.api.wechatLogin(), {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ redirect: redirect ?? null, origin: origin ?? null, lang }),
        credentials: "same-origin",
      });
      const body = await readJson(res);
      if (!res.ok || typeof body.loginCode !== "string" || typeof body.qrCodeUrl !== "string") {
        setPhase({ name: "error", message: errorText(t, body) });
        return;
      }
      setPhase({
        name: "waiting",
        loginCode: body.loginCode,
        qrCodeUrl: body.qrCodeUrl,
        url: typeof body.url === "string" ? body.url : "",
        sandbox: body.sandbox === true,
        confirmCode: typeof body.confirmCode === "string" ? body.confirmCode : "",
        interval: typeof body.pollIntervalMs === "number" ? body.pollIntervalMs : POLL_INTERVAL_MS,
        maxPolls: typeof body.maxPolls === "number" ? Math.min(body.maxPolls, MAX_POLLS) : MAX_POLLS,
      });
    } catch {
      setPhase({ name: "error", message: t("errors.network") });
    }
  }

  if (waiting && poll.signedIn) {
    return (
      <section className="wechat-login" aria-label={t("title")} data-state="signed-in">
        <p role="status">
          <span className="spinner" aria-hidden="true" /> {t("signedIn")}
        </p>
      </section>
    );
  }

  if (waiting && !poll.error) {
    return (
      <section className="wechat-login wechat-qr stack" aria-label={t("title")} data-state="waiting">
        {waiting.sandbox ? <WechatSandboxNotice /> : null}
        <p>{t("scanPrompt")}</p>
        <img src={waiting.qrCodeUrl} alt={t("qrAlt")} width={200} height={200} className="wechat-qr-image" />
        {waiting.confirmCode ? <WechatConfirmCode code={waiting.confirmCode} /> : null}
        <p role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" /> {poll.status === "scanned" ? t("scanned") : t("waiting")}
        </p>
        {waiting.sandbox && waiting.url ? (
          <p>
            <a href={waiting.url} target="_blank" rel="noopener">
              {t("sandbox.openConfirm")}
            </a>
          </p>
        ) : null}
        <p>
          <button type="button" className="link-button" onClick={() => setPhase({ name: "idle" })}>
            {t("cancel")}
          </button>
        </p>
      </section>
    );
  }

  const loading = phase.name === "loading";
  const error = phase.name === "error" ? phase.message : waiting ? poll.error : null;
  return (
    <section
      className="wechat-login"
      aria-label={t("title")}
      data-state={error ? "error" : phase.name}
      data-enhanced={enhanced ? "true" : undefined}
    >
      {error ? (
        <div className="alert alert-danger wechat-error" role="alert">
          <WechatErrorIcon /> {error}
        </div>
      ) : null}
      {/* Without JavaScript this form posts to the QR page; with it, start() takes over. */}
      <form method="post" action={paths.wechatLogin(lang)} onSubmit={start}>
        <input type="hidden" name="redirect" value={redirect ?? ""} />
        <input type="hidden" name="origin" value={origin ?? ""} />
        {/* suppressHydrationWarning: a page whose route handle does not list the "wechat" namespace hydrates
            before that namespace arrives from /locales; the server's text then stays until it does, instead of
            a text mismatch making React re-create the page (and empty forms the visitor is filling in). */}
        <button type="submit" className="button wechat-start" disabled={loading} aria-busy={loading} suppressHydrationWarning>
          {loading ? (
            <>
              <span className="spinner" aria-hidden="true" /> {t("starting")}
            </>
          ) : error ? (
            t("tryAgain")
          ) : (
            t("start")
          )}
        </button>
      </form>
    </section>
  );
}
