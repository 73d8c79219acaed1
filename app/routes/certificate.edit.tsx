import { useActionData, useLoaderData } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { requireUser, safeRedirect } from "#app/lib/session.server";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { pageScope } from "#app/lib/scope.server";
import { parseForm } from "#app/lib/forms.server";
import { paths } from "#common/paths";
import { certificateEditForm } from "#common/certificate/schemas";
import { CertificatePanel } from "#app/components/CertificatePanel";
import { ownCertificate, saveCertificateDetails } from "#server/certificates";

export const handle = { i18n: ["certificate"] };
export const meta = titleMeta;

// /{lang}/certificate/edit/{code}: the owner's title and authors (spec 2 §2, §8). The certificate panel of the
// order page posts here and comes back (`redirect`, a path of this portal) with ?certificate=updated; a refused
// save renders the form here with its errors. GET shows the same form on its own. Another user's code: 404.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const certificate = await ownCertificate(await pageScope(request, context), params.code);
  if (!certificate) throw new Response("Not Found", { status: 404 });
  const t = await getFixedT(request, "certificate");
  const { code, title, authors, issuedAt, externalId } = certificate;
  return { title: t("panel.title"), certificate: { code, title, authors, issuedAt }, externalId };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireUser(request, context);
  const scope = await pageScope(request, context);
  const submission = await parseForm<{ title?: string; authors?: string; redirect?: string }>(request, certificateEditForm);
  const fields = submission.status === "success" ? submission.value : {};
  const r = await saveCertificateDetails(scope, params.code ?? "", { title: fields.title, authors: fields.authors });
  if (r.ok) {
    const back = safeRedirect(fields.redirect, paths.orderDetails(scope.lang, r.value.externalId));
    throw redirect(`${back}${back.includes("?") ? "&" : "?"}certificate=updated`, 303);
  }
  if (r.error === "not-found") throw new Response("Not Found", { status: 404 });
  return Response.json(
    { errors: r.fieldErrors, values: { title: fields.title ?? "", authors: fields.authors ?? "" }, redirect: fields.redirect },
    { status: 400 },
  );
}

export default function EditCertificate() {
  const { certificate } = useLoaderData<typeof loader>();
  const refused = useActionData<{
    errors: { title?: string; authors?: string };
    values: { title: string; authors: string };
    redirect?: string;
  }>();
  const { t } = useTranslation("certificate");
  return (
    <article className="stack narrow">
      <h1>{t("panel.title")}</h1>
      <CertificatePanel
        certificate={refused ? { ...certificate, ...refused.values } : certificate}
        editable
        errors={refused?.errors}
        redirectTo={refused?.redirect}
      />
    </article>
  );
}
