// The no-JavaScript stand-in for polling (docs/conventions.md "polling pages refresh themselves"): a meta refresh
// inside <noscript>, so a browser without scripts reloads the page every POLL_SECONDS while something is processing,
// and a browser with scripts ignores it (its noscript content is never parsed) and polls the API instead.
import { POLL_SECONDS } from "#common/grammar-check/constants";

export function RefreshWhileProcessing({ active }: { active: boolean }) {
  if (!active) return null;
  return (
    <noscript>
      <meta httpEquiv="refresh" content={String(POLL_SECONDS)} />
    </noscript>
  );
}
