// The survey (spec 3 §4, ADR 074): our own short form in a <details> drawer, no external script. Without JavaScript
// it posts to the survey route, which answers with a 303 back to the list and its thanks. With JavaScript the same
// form posts through a fetcher, the drawer says thanks and closes 2 seconds later.
import { useEffect, useRef } from "react";
import { useFetcher } from "@remix-run/react";
import { SURVEY_COMMENT_MAX } from "#common/digital/survey-limits";
import { paths } from "#common/paths";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";

export function SurveyDrawer({ open = false }: { open?: boolean }) {
  const { t } = useTranslation("digital");
  const lang = useLang();
  const fetcher = useFetcher<{ ok: boolean; error?: string }>();
  const drawer = useRef<HTMLDetailsElement>(null);
  const done = fetcher.state === "idle" && fetcher.data?.ok === true;
  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => {
      if (drawer.current) drawer.current.open = false;
    }, 2000);
    return () => window.clearTimeout(timer);
  }, [done]);
  return (
    <details ref={drawer} className="card digital-survey" open={open || undefined}>
      <summary>{t("survey.heading")}</summary>
      {done ? (
        <p className="alert alert-success" role="status">
          {t("survey.thanks")}
        </p>
      ) : (
        <fetcher.Form method="post" action={paths.digitalSurvey(lang)} className="stack">
          {fetcher.data && !fetcher.data.ok ? (
            <p className="alert alert-danger" role="alert">
              {t("survey.error")}
            </p>
          ) : null}
          <fieldset className="field">
            <legend>{t("survey.usefulness")}</legend>
            <div className="digital-scale">
              {[1, 2, 3, 4, 5].map((n) => (
                <label key={n} className="radio">
                  <input type="radio" name="usefulness" value={n} required /> {n}
                </label>
              ))}
            </div>
            <p className="field-hint">{t("survey.scale")}</p>
          </fieldset>
          <fieldset className="field">
            <legend>{t("survey.recommend")}</legend>
            <label className="radio">
              <input type="radio" name="recommend" value="yes" required /> {t("survey.yes")}
            </label>
            <label className="radio">
              <input type="radio" name="recommend" value="no" /> {t("survey.no")}
            </label>
          </fieldset>
          <div className="field">
            <label htmlFor="digital-survey-comment">{t("survey.comment")}</label>
            <textarea id="digital-survey-comment" name="comment" rows={3} maxLength={SURVEY_COMMENT_MAX} />
          </div>
          <div>
            <button type="submit" className="button button-small button-primary" disabled={fetcher.state !== "idle"}>
              {t("survey.submit")}
            </button>
          </div>
        </fetcher.Form>
      )}
    </details>
  );
}
