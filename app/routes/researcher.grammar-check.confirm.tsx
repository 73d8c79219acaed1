import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import { archiveAssessment, deleteAssessment, getAssessment } from "#server/grammar-check";
import { grammarPage, pageParam } from "#app/components/grammar-check/access.server";

export const meta = titleMeta;
export const handle = { i18n: ["grammar"] };

// /{lang}/researcher/grammar-check/archive/{identity} and …/delete/{identity} (spec 3 §2 "Archiving asks for
// confirmation"; ADR 071): without JavaScript the list's Archive and Delete are links here; GET asks
// "Archive {file}?" and changes nothing, the POST does it and goes back to the list page it came from (?from=N)
// with the notice. With JavaScript the list opens a <dialog> whose form posts here too. Archive is for completed
// assessments of a signed-in researcher, delete for failed ones; anything else (unknown, another's, wrong state)
// goes back to the list.
type Op = "archive" | "delete";
const opOf = (request: Request): Op => (/\/grammar-check\/archive\//.test(new URL(request.url).pathname) ? "archive" : "delete");

async function target(request: Request, context: LoaderFunctionArgs["context"], identity: string | undefined) {
  const page = await grammarPage(request, context);
  const op = opOf(request);
  const from = pageParam(new URL(request.url).searchParams.get("from"));
  const back = paths.grammarCheck(page.scope.lang, { page: from });
  const r = await getAssessment(page.scope, identity ?? "");
  const allowed = r.ok && (op === "archive" ? r.value.complete && !page.anonymous : r.value.failed);
  // GET: an ordinary redirect; POST: 303, so the browser follows with a GET.
  if (!r.ok || !allowed) throw redirect(back, { status: request.method === "GET" || request.method === "HEAD" ? 302 : 303 });
  return { ...page, op, from, assessment: r.value };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { op, from, assessment } = await target(request, context, params.identity);
  const t = await getFixedT(request, "grammar");
  return {
    title: t(op === "archive" ? "confirm.archiveHeading" : "confirm.deleteHeading", { fileName: assessment.name }),
    op,
    from,
    identity: assessment.identity,
    fileName: assessment.name,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { scope, op, from, assessment } = await target(request, context, params.identity);
  const r = op === "archive" ? await archiveAssessment(scope, assessment.identity) : await deleteAssessment(scope, assessment.identity);
  const fileName = r.ok ? r.value.fileName : undefined;
  throw redirect(paths.grammarCheck(scope.lang, { page: from, ...(op === "archive" ? { archived: fileName } : { deleted: fileName }) }), {
    status: 303,
  });
}

export default function ConfirmPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("grammar");
  const lang = useLang();
  const archive = data.op === "archive";
  const here = archive
    ? paths.grammarCheckArchive(lang, data.identity, data.from)
    : paths.grammarCheckDelete(lang, data.identity, data.from);
  return (
    <div className="gc-page">
      <Form method="post" action={here} className="card stack gc-confirm">
        <h1>{t(archive ? "confirm.archiveHeading" : "confirm.deleteHeading", { fileName: data.fileName })}</h1>
        <p>{t(archive ? "confirm.archiveBody" : "confirm.deleteBody")}</p>
        <div className="actions">
          <button type="submit" className={`button ${archive ? "button-primary" : "gc-danger-solid"}`}>
            {t(archive ? "confirm.archive" : "confirm.delete")}
          </button>
          <a className="button" href={paths.grammarCheck(lang, { page: data.from })}>
            {t("confirm.cancel")}
          </a>
        </div>
      </Form>
    </div>
  );
}
