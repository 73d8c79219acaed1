import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { getFixedT } from "#app/i18n.server";
import { titleMeta } from "#app/lib/meta";
import { pageScope } from "#app/lib/scope.server";
import { formatDate } from "#common/format";
import { paths } from "#common/paths";
import { errorStatus } from "#common/result";
import { DownloadAllButton } from "#app/components/DownloadAllButton";
import {
  certificateDownloadAvailable,
  certificateTimeZone,
  checkDeliveredFile,
  formatCertificateCode,
  lookupCertificate,
} from "#server/certificates";
import { multipartBody } from "#server/http/multipart";

export const handle = { i18n: ["certificate", "catalogue"] };
export const meta = titleMeta;
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

interface Verified {
  code: string;
  formattedCode: string;
  externalId: string;
  title: string;
  authors: string;
  issuedAt: string;
  /** The time zone the certificate is dated in (the PDF's): the page shows the printed date. */
  timeZone: string;
  services: string[];
  files: { name: string; sizeBytes: number; sha256: string }[];
  viewable: boolean;
  downloadable: boolean;
}

interface VerifyData {
  title: string;
  code: string;
  error: string | null;
  retryMinutes: number;
  certificate: Verified | null;
  check: { sha256: string; name: string; match: string | null } | null;
}

/** A refused lookup as the page shows it: its status, and Retry-After when over the limit. */
function refusal(r: { error: string; details?: Record<string, unknown> }) {
  const seconds = Number(r.details?.retryAfterSeconds ?? 0);
  const status = errorStatus(r.error);
  return { status, seconds, headers: seconds ? { "Retry-After": String(seconds) } : undefined };
}

// /{lang}/certificate/verify?code= (spec 2 §2, §8): open to anyone, no sign-in; every lookup is counted per
// client address (server/certificates/lookup.ts). ?sha256=&name= show the result of a file check (the action).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const scope = await pageScope(request, context);
  const t = await getFixedT(request, "certificate");
  const url = new URL(request.url);
  const code = url.searchParams.get("code");
  const base: VerifyData = { title: t("verify.title"), code: code ?? "", error: null, retryMinutes: 0, certificate: null, check: null };
  if (code === null) return Response.json(base);
  if (!code.trim()) return Response.json({ ...base, error: "code-required" }, { status: 400 });
  const r = await lookupCertificate(scope, code);
  if (!r.ok) {
    const { status, seconds, headers } = refusal(r);
    return Response.json({ ...base, error: r.error, retryMinutes: Math.max(1, Math.ceil(seconds / 60)) }, { status, headers });
  }
  const c = r.value;
  const sha256 = url.searchParams.get("sha256")?.toLowerCase() ?? "";
  const check = /^[0-9a-f]{64}$/.test(sha256)
    ? { sha256, name: (url.searchParams.get("name") ?? "").slice(0, 255), match: c.files.find((f) => f.sha256 === sha256)?.name ?? null }
    : null;
  const certificate: Verified = {
    code: c.code,
    formattedCode: formatCertificateCode(c.code),
    externalId: c.externalId,
    title: c.title,
    authors: c.authors,
    issuedAt: c.issuedAt,
    timeZone: await certificateTimeZone(scope.app, c),
    services: c.services,
    files: c.files,
    viewable: c.viewable,
    downloadable: await certificateDownloadAvailable(scope, c),
  };
  return Response.json({ ...base, code: c.code, certificate, check } satisfies VerifyData);
}

// The file check: the upload is hashed as it arrives and dropped; the answer comes back as a GET (?sha256=).
export async function action({ request, context }: ActionFunctionArgs) {
  const scope = await pageScope(request, context);
  const r = await checkDeliveredFile(scope, multipartBody(request));
  if (r.ok) throw redirect(paths.certificateVerifyChecked(scope.lang, r.value.certificate.code, r.value.sha256, r.value.name), 303);
  const { status, seconds, headers } = refusal(r);
  return Response.json(
    { error: r.error, retryMinutes: Math.max(1, Math.ceil(seconds / 60)) },
    { status: status === 404 ? 404 : status, headers },
  );
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export default function VerifyCertificate() {
  const data = useLoaderData<VerifyData>();
  const failed = useActionData<{ error: string; retryMinutes: number }>();
  const { t } = useTranslation(["certificate", "catalogue"]);
  const lang = useLang();
  const c = data.certificate;
  const errorText = (code: string, minutes: number) =>
    t(`errors.${code}`, { minutes, defaultValue: t("errors.certificate-verification-error") });
  return (
    <article className="stack narrow certificate-verify">
      <h1>{t("verify.title")}</h1>
      <Form method="get" className="card stack" noValidate>
        <p>{t("verify.intro")}</p>
        <div className={`field${data.error ? " field-invalid" : ""}`}>
          <label htmlFor="code">{t("verify.codeLabel")}</label>
          <input
            id="code"
            name="code"
            defaultValue={c ? c.formattedCode : data.code}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            aria-describedby={`code-hint${data.error ? " code-error" : ""}`}
            aria-invalid={data.error ? true : undefined}
          />
          <p className="field-hint" id="code-hint">
            {t("verify.codeHint")}
          </p>
          {data.error ? (
            <p className="field-error" id="code-error" role="alert" data-error={data.error}>
              {errorText(data.error, data.retryMinutes)}
            </p>
          ) : null}
        </div>
        <p>
          <button type="submit" className="button button-primary">
            {t("verify.submit")}
          </button>
        </p>
      </Form>

      {c ? (
        <section className="card stack" aria-labelledby="certificate-details">
          <h2 id="certificate-details">{t("verify.details")}</h2>
          <table className="certificate-details">
            <tbody>
              <tr>
                <th scope="row">{t("verify.manuscript")}</th>
                <td data-external-id>{c.externalId}</td>
              </tr>
              <tr>
                <th scope="row">{t("verify.docTitle")}</th>
                <td data-certificate-title>{c.title}</td>
              </tr>
              <tr>
                <th scope="row">{t("verify.authors")}</th>
                <td data-certificate-authors>{c.authors}</td>
              </tr>
              <tr>
                <th scope="row">{t("verify.code")}</th>
                <td data-certificate-code>{c.formattedCode}</td>
              </tr>
              <tr>
                <th scope="row">{t("verify.generated")}</th>
                <td>{formatDate(c.issuedAt, lang, c.timeZone)}</td>
              </tr>
              {c.services.length ? (
                <tr>
                  <th scope="row">{t("verify.services")}</th>
                  <td>{c.services.map((s) => t(s)).join(", ")}</td>
                </tr>
              ) : null}
            </tbody>
          </table>
          {c.viewable ? (
            <p>
              <a href={paths.api.certificatePdf(c.code)} target="_blank" rel="noopener">
                {t("verify.viewCertificate")}
              </a>
            </p>
          ) : (
            <p className="alert alert-info" data-certificate-incomplete>
              {t("errors.certificate-not-viewable")}
            </p>
          )}
          {c.downloadable ? (
            <DownloadAllButton
              href={paths.api.certificateDeliverablesZip(c.code)}
              totalBytes={c.files.reduce((s, f) => s + f.sizeBytes, 0)}
              label={t("verify.downloadAll")}
            />
          ) : (
            <p className="alert alert-info">{t("verify.filesUnavailable")}</p>
          )}
          {c.files.length ? (
            <table className="certificate-files">
              <caption>{t("verify.files")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("verify.fileName")} · SHA-256</th>
                  <th scope="col" className="amount">
                    {t("verify.fileSize")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {c.files.map((f) => (
                  <tr key={f.sha256 + f.name}>
                    {/* The fingerprint under its file's name: a 64-character column would squeeze a phone's table. */}
                    <td>
                      {f.name}
                      <br />
                      <code className="hash">{f.sha256}</code>
                    </td>
                    <td className="amount">{size(f.sizeBytes)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </section>
      ) : null}

      {c ? (
        <section className="card stack" aria-labelledby="check-file">
          <h2 id="check-file">{t("verify.checkTitle")}</h2>
          <p>{t("verify.checkIntro")}</p>
          {data.check ? (
            <div
              className={`alert ${data.check.match ? "alert-success" : "alert-warning"}`}
              role="status"
              data-file-check={data.check.match ? "match" : "no-match"}
            >
              <p>{data.check.match ? t("verify.match", { name: data.check.match }) : t("verify.noMatch")}</p>
              <p className="hash">{t("verify.fingerprint", { sha256: data.check.sha256 })}</p>
            </div>
          ) : null}
          {failed ? (
            <p className="alert alert-danger" role="alert" data-error={failed.error}>
              {errorText(failed.error, failed.retryMinutes)}
            </p>
          ) : null}
          <Form method="post" encType="multipart/form-data" reloadDocument className="stack">
            <input type="hidden" name="code" value={c.code} />
            <div className="field">
              <label htmlFor="check-file-input">{t("verify.fileLabel")}</label>
              <input id="check-file-input" type="file" name="file" required />
            </div>
            <p>
              <button type="submit" className="button">
                {t("verify.checkSubmit")}
              </button>
            </p>
          </Form>
        </section>
      ) : null}

      <p>
        <Link to={paths.certificate(lang)}>{t("verify.aboutLink")}</Link>
      </p>
    </article>
  );
}
