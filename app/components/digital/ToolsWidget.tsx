// The researcher's tools on the dashboard (issue 24): the grammar check, digital editing and digital translation,
// each only when the researcher may open it (no link that would only bounce back).
import { paths } from "#common/paths";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";

export interface ResearcherTools {
  grammarCheck: boolean;
  digitalEditing: boolean;
  digitalTranslations: boolean;
}

export const hasTools = (tools: ResearcherTools): boolean => tools.grammarCheck || tools.digitalEditing || tools.digitalTranslations;

export function ToolsWidget({ tools }: { tools: ResearcherTools }) {
  const { t } = useTranslation("digital");
  const lang = useLang();
  if (!hasTools(tools)) return null;
  return (
    <nav className="card stack digital-tools" aria-labelledby="digital-tools-heading">
      <h2 id="digital-tools-heading">{t("tools.heading")}</h2>
      <ul>
        {tools.grammarCheck ? (
          <li>
            <a href={paths.grammarCheck(lang)}>{t("tools.grammarCheck")}</a>
          </li>
        ) : null}
        {tools.digitalEditing ? (
          <li>
            <a href={paths.digitalEditing(lang)}>{t("editing.title")}</a>
          </li>
        ) : null}
        {tools.digitalTranslations ? (
          <li>
            <a href={paths.digitalTranslations(lang)}>{t("translations.title")}</a>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
