// The Allpago card widget of the payment form (issue 12 §2, spec 2 §7 and §9): an iframe of
// GET /api/payment/allpago-checkout (our own origin) at least 247 px tall, which posts window messages
// {checkoutId, height, saving}. Messages are accepted only from that iframe and our own origin; a successful
// result puts the checkout id into the hidden input `checkoutId` of the enclosing form. Without JavaScript the
// widget cannot run: `noScriptText` says so, and no checkout is created.
import { useEffect, useRef, useState } from "react";
import { paths } from "#common/paths";
import { useSandboxLabels } from "./sandbox-labels";

export const ALLPAGO_MIN_HEIGHT = 247;

export interface AllpagoWidgetProps {
  receiptCode: string;
  /** The amount in major units as the checkout takes it ("500.00"). */
  amount: string;
  installments: number;
  /** The amount's currency (the checkout's default is BRL). */
  currency?: string;
  noScriptText: string;
  name?: string;
  /** Told when the widget saves (the form's Pay button waits) and when it has a result. */
  onChange?(state: { saving: boolean; checkoutId: string | null }): void;
}

export function AllpagoWidget({
  receiptCode,
  amount,
  installments,
  currency,
  noScriptText,
  name = "checkoutId",
  onChange,
}: AllpagoWidgetProps) {
  const label = useSandboxLabels();
  const frame = useRef<HTMLIFrameElement>(null);
  const [scripted, setScripted] = useState(false);
  const [height, setHeight] = useState(ALLPAGO_MIN_HEIGHT);
  const [checkoutId, setCheckoutId] = useState("");

  useEffect(() => setScripted(true), []);
  // A new amount or installment count is a new checkout: the one paid before no longer applies.
  useEffect(() => setCheckoutId(""), [receiptCode, amount, installments, currency]);

  useEffect(() => {
    function onMessage(event: MessageEvent) {
      if (event.origin !== window.location.origin || !frame.current || event.source !== frame.current.contentWindow) return;
      const data = event.data as { type?: string; checkoutId?: unknown; height?: unknown; saving?: unknown; success?: unknown };
      if (data?.type !== "allpago:widget" || typeof data.checkoutId !== "string") return;
      if (typeof data.height === "number") setHeight(Math.max(ALLPAGO_MIN_HEIGHT, Math.min(900, Math.ceil(data.height))));
      const paid = data.success === true ? data.checkoutId : null;
      if (data.success !== undefined) setCheckoutId(paid ?? "");
      onChange?.({ saving: data.saving === true, checkoutId: paid });
    }
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [onChange]);

  const src = paths.api.allpagoCheckout({ receiptCode, amount, numberOfInstallments: String(installments), currency });
  return (
    <div className="allpago-widget">
      <input type="hidden" name={name} value={checkoutId} />
      {scripted ? (
        <iframe
          key={src}
          ref={frame}
          className="allpago-frame"
          title={label("allpago.frameTitle", noScriptText)}
          src={src}
          height={height}
        />
      ) : (
        <p className="alert alert-info">{noScriptText}</p>
      )}
    </div>
  );
}
