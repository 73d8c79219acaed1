import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { titleMeta } from "#app/lib/meta";
import { getFixedT } from "#app/i18n.server";
import { SurveyDrawer } from "#app/components/digital/SurveyDrawer";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { readFormData } from "#app/lib/forms.server";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { submitDigitalSurvey } from "#server/digital";
import { digitalPage } from "#app/components/digital/access.server";

export const meta = titleMeta;
export const handle = { i18n: ["digital"] };

// /{lang}/researcher/digital-editing/survey (ADR 074): the survey drawer's form posts here. With JavaScript the drawer
// posts through a fetcher and reads { ok }; without it this page says thanks (or what was wrong) with a way back.
// A GET changes nothing: it shows the survey form itself (the drawer's content, open).
export async function loader({ request, context }: LoaderFunctionArgs) {
  await digitalPage(request, context, "editing");
  const t = await getFixedT(request, "digital");
  return { title: t("survey.heading") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { scope } = await digitalPage(request, context, "editing");
  const form = await readFormData(request);
  const fields: Record<string, string | undefined> = {};
  for (const name of ["usefulness", "recommend", "comment"]) {
    const v = form.get(name);
    fields[name] = typeof v === "string" ? v : undefined;
  }
  const r = await submitDigitalSurvey(scope, "digital-editing", fields);
  return Response.json({ ok: r.ok, error: r.ok ? undefined : r.error }, { status: r.ok ? 200 : errorStatus(r.error) });
}

export default function SurveyAnswered() {
  const reply = useActionData<{ ok: boolean }>();
  const { t } = useTranslation("digital");
  const lang = useLang();
  if (!reply)
    return (
      <div className="gc-page digital-trial">
        <SurveyDrawer open />
      </div>
    );
  return (
    <div className="gc-page">
      <section className="card stack">
        <h1>{t("survey.heading")}</h1>
        <p className={`alert ${reply?.ok ? "alert-success" : "alert-danger"}`} role="status">
          {reply?.ok ? t("survey.thanks") : t("survey.error")}
        </p>
        <p>
          <a href={paths.digitalEditing(lang)}>‹ {t("details.back")}</a>
        </p>
      </section>
    </div>
  );
}
