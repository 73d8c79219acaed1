import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { DIGITAL_ERRORS } from "#common/digital/constants";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { chineseTrialEligibility, grantChineseTrial } from "#server/digital";

export const meta = titleMeta;
export const handle = { i18n: ["digital"] };

// /{lang}/chinese-digital-trial (spec 3 §2 "Chinese digital trial"; ADR 074): sign-in required. GET shows whether
// the researcher may have the free Chinese-to-English translation and a button; it changes nothing. The POST grants
// it (once per researcher: the domain decides) and goes to the digital translation page with
// 'free-chinese-digital-translation-credit-success' — or to /rubriq/plan/subscribe when the newer document platform
// is launched (flag curie_is_launched); not eligible → the page again with '…-credit-error'.
async function trialScope(request: Request, context: LoaderFunctionArgs["context"]) {
  await requireUser(request, context);
  return pageScope(request, context);
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const scope = await trialScope(request, context);
  const r = await chineseTrialEligibility(scope);
  const t = await getFixedT(request, "digital");
  return { title: t("trial.title"), eligible: r.ok && r.value.eligible };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const scope = await trialScope(request, context);
  const r = await grantChineseTrial(scope);
  if (!r.ok) return Response.json({ error: `errors.${DIGITAL_ERRORS.trialError}` }, { status: errorStatus(r.error) });
  const newPlatform = await context.app.config.flag("curie_is_launched");
  throw redirect(
    newPlatform ? paths.rubriqPlanSubscribe(scope.lang) : paths.digitalTranslations(scope.lang, undefined, { notice: "trial" }),
    {
      status: 303,
    },
  );
}

export default function ChineseDigitalTrial() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<{ error: string }>();
  const { t } = useTranslation("digital");
  return (
    <div className="gc-page digital-page">
      <section className="card stack digital-trial">
        <h1>{t("trial.title")}</h1>
        <p>{t("trial.body")}</p>
        {reply?.error ? (
          <p className="alert alert-danger" role="alert">
            {t(reply.error)}
          </p>
        ) : null}
        {data.eligible ? (
          <Form method="post">
            <button type="submit" className="button button-primary">
              {t("trial.claim")}
            </button>
          </Form>
        ) : (
          <p className="alert alert-info">{t("trial.notEligible")}</p>
        )}
      </section>
    </div>
  );
}
