import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import { archiveDigitalEdit, archiveDigitalOrder, getDigitalEdit, getDigitalOrder } from "#server/digital";
import { digitalPage, type DigitalArea } from "#app/components/digital/access.server";

export const meta = titleMeta;
export const handle = { i18n: ["digital"] };

// /{lang}/researcher/digital-editing/delete/{identity} and /{lang}/researcher/digital-translations/delete/{identity}
// (spec 3 §4, ADR 074): without JavaScript the list's Delete is a link here; GET asks and changes nothing, the POST
// deletes (archives) and goes back to the list with '%(fileName)s deleted'. With JavaScript the list's <dialog>
// posts here too. Unknown, another's, or still processing → back to the list.
const areaOf = (request: Request): DigitalArea =>
  /\/digital-translations\//.test(new URL(request.url).pathname) ? "translations" : "editing";

async function target(request: Request, context: LoaderFunctionArgs["context"], identity: string) {
  const area = areaOf(request);
  const { scope } = await digitalPage(request, context, area);
  const list = area === "editing" ? paths.digitalEditing(scope.lang) : paths.digitalTranslations(scope.lang);
  const r = area === "editing" ? await getDigitalEdit(scope, identity) : await getDigitalOrder(scope, identity);
  const status = request.method === "GET" || request.method === "HEAD" ? 302 : 303;
  if (!r.ok || r.value.status === "processing") throw redirect(list, { status });
  return { scope, area, list, item: r.value };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { area, list, item } = await target(request, context, params.identity ?? "");
  const t = await getFixedT(request, "digital");
  return { title: t("confirm.heading", { fileName: item.fileName }), area, list, identity: item.identity, fileName: item.fileName };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { scope, area, item } = await target(request, context, params.identity ?? "");
  const r = area === "editing" ? await archiveDigitalEdit(scope, item.identity) : await archiveDigitalOrder(scope, item.identity);
  const q = r.ok ? { deleted: r.value.fileName } : undefined;
  throw redirect(
    area === "editing" ? paths.digitalEditing(scope.lang, undefined, q) : paths.digitalTranslations(scope.lang, undefined, q),
    {
      status: 303,
    },
  );
}

export default function DigitalDelete() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("digital");
  const lang = useLang();
  const here =
    data.area === "editing" ? paths.digitalEditingDelete(lang, data.identity) : paths.digitalTranslationsDelete(lang, data.identity);
  return (
    <div className="gc-page">
      <Form method="post" action={here} className="card stack gc-confirm">
        <h1>{t("confirm.heading", { fileName: data.fileName })}</h1>
        <p>{t("confirm.body")}</p>
        <div className="actions">
          <button type="submit" className="button gc-danger-solid">
            {t("confirm.delete")}
          </button>
          <a className="button" href={data.list}>
            {t("confirm.cancel")}
          </a>
        </div>
      </Form>
    </div>
  );
}
