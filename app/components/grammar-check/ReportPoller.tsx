// The report of an assessment still being checked polls like the list (spec 3 §4: "the details screen polls the
// same way until complete"): with JavaScript it asks for this identity every 30 s and reloads the page's data once
// the check has finished (or failed); without it the page's <noscript> meta refresh does the same.
import { useRevalidator } from "@remix-run/react";
import { useAssessmentPolling } from "./polling";

export function ReportPoller({ identity, active }: { identity: string; active: boolean }) {
  const revalidator = useRevalidator();
  useAssessmentPolling(active ? [identity] : [], (rows) => {
    const row = rows.find((r) => r.identity === identity);
    if (row && !row.processing) revalidator.revalidate();
  });
  return null;
}
