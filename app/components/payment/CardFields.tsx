// The card entry of the payment form (issue 12 §2, ADR 036): hosted fields served from our own origin (the card
// sandbox's page, named by the client token) in an iframe, which turn the card into a one-time nonce. The nonce
// arrives by postMessage — accepted only from that iframe and our own origin — and goes into the hidden input
// `nonce` of the enclosing form. Without JavaScript the field cannot exist: `noScriptText` says so (the payment
// page offers the other methods).
import { useEffect, useRef, useState } from "react";
import { paths } from "#common/paths";
import { useLang } from "#app/lib/use-lang";
import { useSandboxLabels } from "./sandbox-labels";

type State = "static" | "loading" | "ready" | "unavailable";

const MIN_HEIGHT = 200;

export function CardFields({ noScriptText, name = "nonce" }: { noScriptText: string; name?: string }) {
  const label = useSandboxLabels();
  const lang = useLang();
  const frame = useRef<HTMLIFrameElement>(null);
  const [state, setState] = useState<State>("static");
  const [src, setSrc] = useState<string | null>(null);
  const [nonce, setNonce] = useState("");
  const [height, setHeight] = useState(MIN_HEIGHT);

  // The client token names the hosted-fields page; fetched once the page runs scripts.
  useEffect(() => {
    let live = true;
    setState("loading");
    fetch(paths.api.braintreeClientToken(), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? (r.json() as Promise<{ clientToken: string }>) : Promise.reject(new Error(String(r.status)))))
      .then(({ clientToken }) => {
        const token = JSON.parse(atob(clientToken)) as { hostedFieldsUrl?: string };
        const url = new URL(token.hostedFieldsUrl ?? "", window.location.origin);
        // Our own origin only: a token naming another site is not followed.
        if (url.origin !== window.location.origin) throw new Error("hosted fields on another origin");
        url.searchParams.set("lang", lang);
        if (live) setSrc(url.pathname + url.search);
      })
      .catch(() => live && setState("unavailable"));
    return () => {
      live = false;
    };
  }, [lang]);

  useEffect(() => {
    function onMessage(event: MessageEvent) {
      if (event.origin !== window.location.origin || !frame.current || event.source !== frame.current.contentWindow) return;
      const data = event.data as { type?: string; nonce?: unknown; height?: unknown };
      if (data?.type === "card-fields:nonce") {
        setNonce(typeof data.nonce === "string" ? data.nonce : "");
        setState("ready");
      } else if (data?.type === "card-fields:height" && typeof data.height === "number") {
        setHeight(Math.max(MIN_HEIGHT, Math.min(800, Math.ceil(data.height))));
      }
    }
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, []);

  return (
    <div className="card-fields">
      <input type="hidden" name={name} value={nonce} />
      {state === "static" ? <p className="alert alert-info">{noScriptText}</p> : null}
      {state === "unavailable" ? <p className="alert alert-warning">{label("card.unavailable", noScriptText)}</p> : null}
      {state === "loading" && !src ? <p className="muted">{label("card.loading", "…")}</p> : null}
      {src && state !== "unavailable" ? (
        <iframe
          ref={frame}
          className="card-fields-frame"
          title={label("card.title", noScriptText)}
          src={src}
          height={height}
          onLoad={() => setState("ready")}
        />
      ) : null}
    </div>
  );
}
