// Polling of processing assessments (spec 3 §4, §9): with JavaScript, every POLL_SECONDS the page asks
// GET /api/grammar-check/search?identities=… for the processing rows only, and stops once none is processing.
// Without JavaScript the page carries <noscript><meta http-equiv="refresh"></noscript> instead (RefreshWhileProcessing).
import { useEffect, useRef } from "react";
import { POLL_SECONDS } from "#common/grammar-check/constants";
import { paths } from "#common/paths";
import type { AssessmentView } from "#server/grammar-check/types";

export function useAssessmentPolling(identities: string[], onResults: (rows: AssessmentView[]) => void): void {
  const key = identities.join(",");
  const callback = useRef(onResults);
  callback.current = onResults;
  useEffect(() => {
    if (!key) return;
    let stopped = false;
    const timer = window.setInterval(async () => {
      try {
        const response = await fetch(paths.api.grammarCheckPoll(key.split(",")), { headers: { accept: "application/json" } });
        if (!response.ok || stopped) return;
        const body = (await response.json()) as { results?: AssessmentView[] };
        if (Array.isArray(body.results)) callback.current(body.results);
      } catch {
        // Offline for a moment: the next tick tries again.
      }
    }, POLL_SECONDS * 1000);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [key]);
}
