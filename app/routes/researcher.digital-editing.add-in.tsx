import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import type { DigitalEditLoad, DigitalEditView } from "#server/digital/types";
import { multipartBody } from "#server/http/multipart";
import { createDigitalEdit, loadDigitalEdit, searchDigitalEdits } from "#server/digital";
import { digitalPage, pageErrors, type PageError } from "#app/components/digital/access.server";
import { DigitalEditRows } from "#app/components/digital/DigitalRows";
import { RefreshWhile } from "#app/components/digital/polling";
import { EditUploadForm } from "#app/components/digital/UploadForms";
import { OfficeBridge, OFFICE_JS } from "#app/components/digital/OfficeBridge";

export const meta = titleMeta;
export const handle = { i18n: ["digital"] };

// /{lang}/researcher/digital-editing/add-in (ADR 074): the Word add-in's task pane, an ordinary signed-in page (it
// works in any browser: the list and the upload form). Opened by Word (?host=word, set by the manifest's
// SourceLocation) it loads office.js — from Microsoft, the one exception to "no third-party origins", on this page
// only and only then — and offers to send the open document (getFileAsync) to the same create endpoint.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { scope } = await digitalPage(request, context, "editing");
  const [load, list] = await Promise.all([loadDigitalEdit(scope), searchDigitalEdits(scope, { page: 1 })]);
  if (!load.ok || !list.ok) throw new Response("Bad Request", { status: 400 });
  const t = await getFixedT(request, "digital");
  const inWord = new URL(request.url).searchParams.get("host") === "word";
  return Response.json(
    { title: t("addIn.title"), load: load.value, results: list.value.results.slice(0, 10), inWord },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { scope } = await digitalPage(request, context, "editing");
  const r = await createDigitalEdit(scope, multipartBody(request));
  const inWord = new URL(request.url).searchParams.get("host") === "word";
  if (r.ok) throw redirect(`${paths.digitalEditingAddIn(scope.lang)}${inWord ? "?host=word" : ""}`, { status: 303 });
  return Response.json({ errors: pageErrors(r) }, { status: errorStatus(r.error) });
}

export default function AddInPane() {
  const data = useLoaderData() as { load: DigitalEditLoad; results: DigitalEditView[]; inWord: boolean };
  const reply = useActionData() as { errors: { fields: Record<string, string>; form: PageError | null } } | undefined;
  const { t } = useTranslation("digital");
  const lang = useLang();
  const processing = data.results.some((r) => r.status === "processing");
  return (
    <div className="digital-addin stack">
      {data.inWord ? <script src={OFFICE_JS} /> : null}
      <RefreshWhile active={processing} />
      <h1>{t("addIn.title")}</h1>
      <p className="digital-disclaimer">{t("editing.disclaimer")}</p>
      {data.load.canUpload ? (
        <>
          {data.inWord ? <OfficeBridge /> : null}
          <EditUploadForm
            errors={reply?.errors ?? { fields: {}, form: null }}
            action={`${paths.digitalEditingAddIn(lang)}${data.inWord ? "?host=word" : ""}`}
          />
        </>
      ) : (
        <p className="alert alert-info">
          {t("editing.subscribeBody")} <a href={paths.digitalEditingSubscribe(lang)}>{t("editing.subscribeButton")}</a>
        </p>
      )}
      <section className="stack">
        <h2>{t("editing.listHeading")}</h2>
        {data.results.length ? <DigitalEditRows rows={data.results} /> : <p className="field-hint">{t("list.empty")}</p>}
        <p>
          <a href={paths.digitalEditing(lang)} target="_blank" rel="noopener">
            {t("addIn.openPortal")}
          </a>
        </p>
      </section>
    </div>
  );
}
