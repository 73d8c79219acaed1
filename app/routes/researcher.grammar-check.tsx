import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { multipartBody } from "#server/http/multipart";
import { captchaChallenge, createAssessment, searchAssessments, type CaptchaChallenge } from "#server/grammar-check";
import { cookies } from "#server/http/cookies";
import { grammarPage, noticeName, pageParam } from "#app/components/grammar-check/access.server";
import { AssessmentRows } from "#app/components/grammar-check/AssessmentRows";
import { Pagination } from "#app/components/grammar-check/Pagination";
import { RefreshWhileProcessing } from "#app/components/grammar-check/RefreshWhileProcessing";
import { SideText } from "#app/components/grammar-check/SideText";
import { UploadForm, type UploadError, type UploadErrors } from "#app/components/grammar-check/UploadForm";
import { Captcha } from "#app/components/grammar-check/Captcha";

export const meta = titleMeta;
export const handle = { i18n: ["grammar"] };

// /{lang}/researcher/grammar-check (spec 3 §2, ADR 071): the 'Free tool' badge, welcome text (empty list or a
// visitor), the upload form, the researcher's assessments 30 a page (?page=N) and the side text. The POST uploads
// one manuscript: a single assessment lands on its report (303), refusals re-render the form (4xx).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { scope, anonymous, captcha, uploadFilesUi } = await grammarPage(request, context);
  const q = new URL(request.url).searchParams;
  const page = pageParam(q.get("page"));
  const r = await searchAssessments(scope, { page });
  if (!r.ok) throw new Response("Bad Request", { status: 400 });
  // A page past the end (an old link after archiving) shows the last page.
  if (r.value.pagination.pages >= 1 && page > r.value.pagination.pages)
    throw redirect(paths.grammarCheck(scope.lang, { page: r.value.pagination.pages }));
  const t = await getFixedT(request, "grammar");
  return Response.json(
    {
      title: t("title"),
      anonymous,
      // A fresh challenge on every render of the form: each is single use (ADR 070).
      challenge: anonymous && captcha ? await captchaChallenge(scope) : null,
      uploadFilesUi,
      results: r.value.results,
      pagination: r.value.pagination,
      archived: noticeName(q.get("archived")),
      deleted: noticeName(q.get("deleted")),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { scope, anonymous, captcha, uploadFilesUi } = await grammarPage(request, context);
  const r = await createAssessment(scope, multipartBody(request), { requireTerms: uploadFilesUi });
  if (r.ok) {
    const created = r.value.languageAssessments;
    const headers = new Headers();
    // A visitor's first upload binds the assessment to this browser (the draft cookie, as anonymous order drafts).
    if (r.value.newDraftKey) headers.append("Set-Cookie", cookies.draft.serialize(r.value.newDraftKey, scope.secure));
    const to = created.length === 1 ? paths.grammarCheckDetails(scope.lang, created[0].identity) : paths.grammarCheck(scope.lang);
    throw redirect(to, { status: 303, headers });
  }
  const params = decodeParams(r.details?.jsonEncodedParams);
  const error: UploadError = { key: `grammar:errors.${r.error}`, params };
  // Where the refusal shows: the file's own problems on the file input ('Filetype not allowed'), the captcha's on it.
  const slot: keyof UploadErrors = /^(file-|empty-file|too-many-files|storage-quota)/.test(r.error)
    ? "file"
    : r.error.startsWith("captcha-")
      ? "captcha"
      : r.error === "terms-required"
        ? "terms"
        : "form";
  return Response.json(
    { errors: { [slot]: [error] } satisfies UploadErrors, challenge: anonymous && captcha ? await captchaChallenge(scope) : null },
    { status: errorStatus(r.error) },
  );
}

/** The refusal's parameters (spec 3 §7: `jsonEncodedParams`, a JSON string), strings only; anything else none. */
function decodeParams(value: unknown): Record<string, string> {
  if (typeof value !== "string") return {};
  try {
    const parsed: unknown = JSON.parse(value);
    if (!parsed || typeof parsed !== "object") return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    return {};
  }
}

interface LoaderData {
  anonymous: boolean;
  challenge: CaptchaChallenge | null;
  uploadFilesUi: boolean;
  results: import("#server/grammar-check/types").AssessmentView[];
  pagination: { page: number; pageSize: number; total: number; pages: number };
  archived: string | null;
  deleted: string | null;
}

export default function GrammarCheckPage() {
  const data = useLoaderData() as LoaderData;
  const reply = useActionData() as { errors: UploadErrors; challenge: CaptchaChallenge | null } | undefined;
  const { t } = useTranslation("grammar");
  const lang = useLang();
  const processing = data.results.some((r) => r.processing);
  // After a refused upload the action's new challenge replaces the spent one.
  const challenge = reply?.challenge ?? data.challenge;
  const welcome = data.anonymous || data.pagination.total === 0;
  return (
    <div className="gc-page">
      <RefreshWhileProcessing active={processing} />
      <div className="gc-heading">
        <h1>{t("title")}</h1>
        <span className="badge badge-brand">{t("badge")}</span>
      </div>
      {data.archived ? (
        <p className="alert alert-success" role="status">
          {t("list.archived", { fileName: data.archived })}
        </p>
      ) : null}
      {data.deleted ? (
        <p className="alert alert-success" role="status">
          {t("list.deleted", { fileName: data.deleted })}
        </p>
      ) : null}
      <div className="gc-layout">
        <div className="gc-main stack">
          {welcome ? (
            <section className="card gc-welcome">
              <h2>{t("welcome.heading")}</h2>
              <p>{t("welcome.body")}</p>
            </section>
          ) : (
            <p className="gc-intro">{t("intro")}</p>
          )}
          <UploadForm
            action={paths.grammarCheck(lang)}
            variant={data.uploadFilesUi}
            captcha={
              challenge ? (
                <Captcha key={challenge.question.token} challenge={challenge} error={reply?.errors.captcha?.[0]?.key ?? null} />
              ) : null
            }
            errors={reply?.errors ?? {}}
          />
          {data.results.length ? (
            <section className="stack" aria-labelledby="gc-list-heading">
              <h2 id="gc-list-heading">{t("list.heading")}</h2>
              {processing ? <p className="field-hint">{t("list.processingHint")}</p> : null}
              <AssessmentRows rows={data.results} page={data.pagination.page} canArchive={!data.anonymous} />
              <Pagination page={data.pagination.page} pages={data.pagination.pages} />
            </section>
          ) : data.anonymous ? null : (
            <p className="field-hint">{t("list.empty")}</p>
          )}
        </div>
        <SideText />
      </div>
    </div>
  );
}
