// WeChat QR sign-in panel (spec 1 §2, §4 "WeChat sign-in", §9; ADR 004).
// Without JavaScript it is a plain form posting to /{lang}/login/wechat, whose page shows the QR
// code and reloads itself. With JavaScript the same form is taken over: a click creates the QR
// session with fetch (loading indicator), the QR image shows, the status is polled every 2 s up
// to 30 times, polling stops on an error (error icon), and on loggedIn the browser navigates
// (full document navigation) to the returned redirectUri.
// Client code only: nothing here may import server modules.
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useLang } from "~/lib/use-lang";

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
  | { name: "waiting"; loginCode: string; qrCodeUrl: string; url: string; sandbox: boolean; status: "pending" | "scanned"; interval: number; maxPolls: number }
  | { name: "signed-in" }
  | { name: "error"; message: string };

export function WechatErrorIcon() {
  return (
    <svg className="wechat-error-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false" style={{ verticalAlign: "-4px", flex: "none" }}>
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

async function readJson(res: Response): Promise<Record<string, unknown>> {
  try {
    const body = await res.json();
    return body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function WechatLogin({ redirect, origin }: { redirect?: string | null; origin?: string | null }) {
  const { t } = useTranslation("wechat");
  const lang = useLang();
  const [phase, setPhase] = useState<Phase>({ name: "idle" });
  // Marks the panel once JavaScript has taken over the form (until then a click posts it natively).
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);

  const errorText = (body: Record<string, unknown>) => {
    const key = typeof body.errorCode === "string" ? KNOWN_ERRORS[body.errorCode] : undefined;
    if (key) return t(key);
    return typeof body.error === "string" && body.error ? body.error : t("errors.generic");
  };

  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (phase.name === "loading" || phase.name === "waiting") return;
    setPhase({ name: "loading" });
    try {
      const res = await fetch("/api/auth/wechat-login", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ redirect: redirect ?? null, origin: origin ?? null, lang }),
        credentials: "same-origin",
      });
      const body = await readJson(res);
      if (!res.ok || typeof body.loginCode !== "string" || typeof body.qrCodeUrl !== "string") {
        setPhase({ name: "error", message: errorText(body) });
        return;
      }
      setPhase({
        name: "waiting",
        loginCode: body.loginCode,
        qrCodeUrl: body.qrCodeUrl,
        url: typeof body.url === "string" ? body.url : "",
        sandbox: body.sandbox === true,
        status: "pending",
        interval: typeof body.pollIntervalMs === "number" ? body.pollIntervalMs : POLL_INTERVAL_MS,
        maxPolls: typeof body.maxPolls === "number" ? Math.min(body.maxPolls, MAX_POLLS) : MAX_POLLS,
      });
    } catch {
      setPhase({ name: "error", message: t("errors.network") });
    }
  }

  const waitingCode = phase.name === "waiting" ? phase.loginCode : null;
  useEffect(() => {
    if (phase.name !== "waiting") return;
    const { loginCode, interval, maxPolls } = phase;
    let stopped = false;
    let polls = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      polls += 1;
      try {
        const res = await fetch(`/api/auth/wechat-login/${encodeURIComponent(loginCode)}`, {
          headers: { Accept: "application/json" },
          cache: "no-store",
          credentials: "same-origin",
        });
        const body = await readJson(res);
        if (stopped) return;
        if (res.ok && body.loggedIn === true) {
          setPhase({ name: "signed-in" });
          window.location.assign(typeof body.redirectUri === "string" && body.redirectUri ? body.redirectUri : `/${lang}/researcher`);
          return;
        }
        if (!res.ok || body.error) {
          setPhase({ name: "error", message: errorText(body) });
          return;
        }
        if (body.status === "scanned") setPhase((p) => (p.name === "waiting" && p.loginCode === loginCode ? { ...p, status: "scanned" } : p));
      } catch {
        if (!stopped) setPhase({ name: "error", message: t("errors.network") });
        return;
      }
      if (polls >= maxPolls) {
        setPhase({ name: "error", message: t("errors.expired") });
        return;
      }
      if (!stopped) timer = setTimeout(tick, interval);
    };
    timer = setTimeout(tick, interval);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
    // The loop belongs to one QR session; status updates within it must not restart it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waitingCode]);

  if (phase.name === "waiting") {
    return (
      <section className="wechat-login wechat-qr stack" aria-label={t("title")} data-state="waiting">
        {phase.sandbox ? <WechatSandboxNotice /> : null}
        <p>{t("scanPrompt")}</p>
        <img src={phase.qrCodeUrl} alt={t("qrAlt")} width={200} height={200} className="wechat-qr-image" />
        <p role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" /> {phase.status === "scanned" ? t("scanned") : t("waiting")}
        </p>
        {phase.sandbox && phase.url ? (
          <p>
            <a href={phase.url} target="_blank" rel="noopener">
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

  if (phase.name === "signed-in") {
    return (
      <section className="wechat-login" aria-label={t("title")} data-state="signed-in">
        <p role="status">
          <span className="spinner" aria-hidden="true" /> {t("signedIn")}
        </p>
      </section>
    );
  }

  const loading = phase.name === "loading";
  return (
    <section className="wechat-login" aria-label={t("title")} data-state={phase.name} data-enhanced={enhanced ? "true" : undefined}>
      {phase.name === "error" ? (
        <div className="alert alert-danger wechat-error" role="alert">
          <WechatErrorIcon /> {phase.message}
        </div>
      ) : null}
      {/* Without JavaScript this form posts to the QR page; with it, start() takes over. */}
      <form method="post" action={`/${lang}/login/wechat`} onSubmit={start}>
        <input type="hidden" name="redirect" value={redirect ?? ""} />
        <input type="hidden" name="origin" value={origin ?? ""} />
        <button type="submit" className="button wechat-start" disabled={loading} aria-busy={loading}>
          {loading ? (
            <>
              <span className="spinner" aria-hidden="true" /> {t("starting")}
            </>
          ) : phase.name === "error" ? (
            t("tryAgain")
          ) : (
            t("start")
          )}
        </button>
      </form>
    </section>
  );
}
