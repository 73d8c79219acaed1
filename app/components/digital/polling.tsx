// Polling (spec 3 §4, ADR 074). With JavaScript a list with processing items asks the area's search endpoint
// (paths.api.digitalEditPoll / digitalOrderPoll: ?identities=… of the processing rows only) every
// DIGITAL_POLL_SECONDS and updates the rows in place; it stops once none is processing. Without JavaScript the
// page carries <noscript><meta http-equiv="refresh"></noscript> while something processes (RefreshWhile).
import { useEffect, useRef } from "react";
import { useRevalidator } from "@remix-run/react";
import { DIGITAL_POLL_SECONDS, PURCHASE_POLL_SECONDS } from "#common/digital/constants";

export function useRowPolling<Row extends { identity: string }>(
  identities: string[],
  url: (identities: string[]) => string,
  onResults: (rows: Row[]) => void,
): void {
  const key = identities.join(",");
  const callback = useRef(onResults);
  callback.current = onResults;
  const makeUrl = useRef(url);
  makeUrl.current = url;
  useEffect(() => {
    if (!key) return;
    let stopped = false;
    const timer = window.setInterval(async () => {
      try {
        const response = await fetch(makeUrl.current(key.split(",")), { headers: { accept: "application/json" } });
        if (!response.ok || stopped) return;
        const body = (await response.json()) as { results?: Row[] };
        if (Array.isArray(body.results)) callback.current(body.results);
      } catch {
        // Offline for a moment: the next tick tries again.
      }
    }, DIGITAL_POLL_SECONDS * 1000);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [key]);
}

/** Without JavaScript: the page reloads itself every `seconds` while `active` (a browser with scripts ignores it). */
export function RefreshWhile({ active, seconds = DIGITAL_POLL_SECONDS }: { active: boolean; seconds?: number }) {
  if (!active) return null;
  return (
    <noscript>
      <meta httpEquiv="refresh" content={String(seconds)} />
    </noscript>
  );
}

/**
 * A purchase's success page (spec 3 §4): the loader reads purchaseByReceipt and redirects once it is active; with
 * JavaScript the loader is revalidated every PURCHASE_POLL_SECONDS, without it the page refreshes itself.
 */
export function PurchasePoller({ active }: { active: boolean }) {
  const revalidator = useRevalidator();
  const ref = useRef(revalidator);
  ref.current = revalidator;
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      if (ref.current.state === "idle") ref.current.revalidate();
    }, PURCHASE_POLL_SECONDS * 1000);
    return () => window.clearInterval(timer);
  }, [active]);
  return <RefreshWhile active={active} seconds={PURCHASE_POLL_SECONDS} />;
}
