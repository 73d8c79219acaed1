import { Form, useLoaderData } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireLang, requireUser } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { getUserView, invalidateUser } from "#server/accounts/account";

export const meta = titleMeta;

// Local-entity (wfoe) migration (spec 2 §4 "Migration").
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const lang = requireLang(request);
  const user = await getUserView(context.app, session.user.id);
  const status = user!.wfoeMigrationStatus;
  if (!status.inMigratingGroup || (status.acceptedTermsOfService && status.migrated)) throw redirect(`/${lang}/researcher`);
  const t = await getFixedT(request);
  return { title: t("wfoe.title"), accepted: status.acceptedTermsOfService };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUser(request, context);
  const lang = requireLang(request);
  await context.app.db
    .updateTable("users")
    .set({ wfoe_accepted_tos_at: new Date() })
    .where("id", "=", session.user.id)
    .where("wfoe_accepted_tos_at", "is", null)
    .execute();
  await invalidateUser(context.app, session.user.id);
  return redirect(`/${lang}/researcher/wfoe-migration-status`, { status: 303 });
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
