// The issues in context (spec 3 §2 and issue 23 §3: "the peers give only a number"): each issue in its sentence
// with the flagged span marked, what is wrong in the page's language (by category), the engine's own English
// message beside it, and the suggestion.
import type { EngineIssue } from "#server/grammar-check/types";
import { useTranslation } from "#app/lib/translate";

/** The sentence split around the flagged span; offsets outside the sentence are clamped (never throw on a bad row). */
export function splitSentence(issue: Pick<EngineIssue, "sentence" | "start" | "end">): [string, string, string] {
  const s = issue.sentence;
  const start = Math.max(0, Math.min(s.length, issue.start));
  const end = Math.max(start, Math.min(s.length, issue.end));
  return [s.slice(0, start), s.slice(start, end), s.slice(end)];
}

/** Shown at once; the rest behind a <details> so a long report stays readable without JavaScript. */
const FIRST = 20;

export function IssuesInContext({ issues, total }: { issues: EngineIssue[]; total: number }) {
  const { t } = useTranslation("grammar");
  if (!issues.length) return <p>{t("details.contextNone")}</p>;
  const first = issues.slice(0, FIRST);
  const rest = issues.slice(FIRST);
  return (
    <>
      <ol className="issue-list">
        {first.map((issue, i) => (
          <IssueItem key={i} issue={issue} />
        ))}
      </ol>
      {rest.length ? (
        <details className="issue-more">
          <summary>{t("details.contextMore", { shown: FIRST, total: issues.length })}</summary>
          <ol className="issue-list" start={FIRST + 1}>
            {rest.map((issue, i) => (
              <IssueItem key={i} issue={issue} />
            ))}
          </ol>
        </details>
      ) : null}
      {total > issues.length ? <p className="field-hint">{t("details.contextMore", { shown: issues.length, total })}</p> : null}
    </>
  );
}

function IssueItem({ issue }: { issue: EngineIssue }) {
  const { t } = useTranslation("grammar");
  const [before, flagged, after] = splitSentence(issue);
  return (
    <li className={`issue issue-${issue.category}`}>
      <p className="issue-category">{t(`categories.${issue.category}`)}</p>
      <blockquote className="issue-sentence" lang="en">
        {before}
        <mark>{flagged}</mark>
        {after}
      </blockquote>
      <p className="issue-what">{t(`categoryHelp.${issue.category}`)}</p>
      <p className="issue-engine field-hint">
        {t("details.engineSays")} <span lang="en">{issue.message}</span>
      </p>
      <p className="issue-suggestion">
        {issue.suggestion === null ? (
          t("details.noSuggestion")
        ) : issue.suggestion === "" ? (
          // An empty replacement means "remove the flagged text" (a space before a comma, a doubled word).
          <>
            {t("details.suggestion")} {t("details.suggestRemove")}
          </>
        ) : (
          <>
            {t("details.suggestion")} <ins lang="en">{issue.suggestion}</ins>
          </>
        )}
      </p>
    </li>
  );
}
