import { Form, useLoaderData } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireUser } from "#app/lib/session.server";
import { pageScope } from "#app/lib/scope.server";
import { paths } from "#common/paths";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { acceptWfoeTerms, wfoeMigrationStatus } from "#server/accounts/account";

export const meta = titleMeta;

// Local-entity (wfoe) migration (spec 2 §4 "Migration").
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const status = await wfoeMigrationStatus(scope);
  if (!status.inMigratingGroup || (status.acceptedTermsOfService && status.migrated)) throw redirect(paths.researcher(scope.lang));
  const t = await getFixedT(request);
  return { title: t("wfoe.title"), accepted: status.acceptedTermsOfService };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  await acceptWfoeTerms(scope);
  return redirect(paths.wfoeMigration(scope.lang), { status: 303 });
}

export default function WfoeMigration() {
  const { accepted } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section className="prose">
      <h1>{t("wfoe.title")}</h1>
      {accepted ? (
        <p className="alert alert-info">{t("wfoe.checkBackLater")}</p>
      ) : (
        <>
          <p>{t("wfoe.terms")}</p>
          <Form method="post">
            <button type="submit" className="button button-primary">
              {t("wfoe.accept")}
            </button>
          </Form>
        </>
      )}
    </section>
  );
}
