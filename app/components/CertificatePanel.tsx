// The researcher's certificate on their order (issue 11 §6, spec 2 §2 "Order details" and the thank-you view):
// the verification code, the form for the title and authors printed on it (posted to /{lang}/certificate/edit/
// {code}, which comes back here; works without JavaScript), and the PDF embedded 750 px high with a download
// link, once it has authors ('Please include the title and author(s)…' until then).
import { Form, Link, useLocation, useSearchParams } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import { CERTIFICATE_AUTHORS_MAX, CERTIFICATE_TITLE_MAX } from "#common/certificate/schemas";

export interface PanelCertificate {
  code: string;
  title: string;
  authors: string;
  issuedAt: string;
}

/** "ABCD-EFGH-JKLM-NPQR" (as server/certificates formats it). */
export const formatCode = (code: string) => code.match(/.{1,4}/g)?.join("-") ?? code;

export function CertificatePanel({
  certificate,
  editable,
  errors,
  redirectTo,
}: {
  certificate: PanelCertificate;
  editable: boolean;
  /** Where the form comes back to after saving (default: this page). */
  redirectTo?: string;
  /** Field errors (translation keys) when the edit route renders the panel again after a refused save. */
  errors?: { title?: string; authors?: string };
}) {
  const { t } = useTranslation("certificate");
  const lang = useLang();
  const location = useLocation();
  const [search] = useSearchParams();
  const updated = search.get("certificate") === "updated";
  const viewable = certificate.authors.trim() !== "";
  const pdf = paths.api.certificatePdf(certificate.code);
  // Back to this page (without the previous message).
  const back = redirectTo ?? location.pathname;
  return (
    <section className="card stack certificate-panel" aria-labelledby="certificate-panel-title">
      <h2 id="certificate-panel-title">{t("panel.title")}</h2>
      {updated ? (
        <p className="alert alert-success" role="status">
          {t("messages.certificate-details-updated")}
        </p>
      ) : null}
      <p>
        {t("panel.code")}: <strong data-certificate-code>{formatCode(certificate.code)}</strong>{" "}
        <Link to={paths.certificateVerifyCode(lang, certificate.code)}>{t("panel.verifyLink")}</Link>
      </p>
      {editable ? (
        <Form method="post" action={paths.certificateEdit(lang, certificate.code)} className="stack" noValidate>
          <input type="hidden" name="redirect" value={back} />
          <div className={`field${errors?.title ? " field-invalid" : ""}`}>
            <label htmlFor="certificate-title">{t("panel.titleLabel")}</label>
            <input
              id="certificate-title"
              name="title"
              defaultValue={certificate.title}
              maxLength={CERTIFICATE_TITLE_MAX}
              required
              aria-invalid={errors?.title ? true : undefined}
              aria-describedby={errors?.title ? "certificate-title-error" : undefined}
            />
            {errors?.title ? (
              <p className="field-error" id="certificate-title-error" role="alert">
                {t(errors.title)}
              </p>
            ) : null}
          </div>
          <div className={`field${errors?.authors ? " field-invalid" : ""}`}>
            <label htmlFor="certificate-authors">{t("panel.authorsLabel")}</label>
            <textarea
              id="certificate-authors"
              name="authors"
              rows={2}
              defaultValue={certificate.authors}
              maxLength={CERTIFICATE_AUTHORS_MAX}
              required
              aria-invalid={errors?.authors ? true : undefined}
              aria-describedby={`certificate-authors-hint${errors?.authors ? " certificate-authors-error" : ""}`}
            />
            <p className="field-hint" id="certificate-authors-hint">
              {t("panel.authorsHint")}
            </p>
            {errors?.authors ? (
              <p className="field-error" id="certificate-authors-error" role="alert">
                {t(errors.authors)}
              </p>
            ) : null}
          </div>
          <p>
            <button type="submit" className="button button-primary">
              {t("panel.save")}
            </button>
          </p>
        </Form>
      ) : null}
      {viewable ? (
        <>
          <iframe title={t("panel.frameTitle")} src={`${pdf}?display=inline`} className="certificate-frame" height={750} width="100%" />
          <p>
            <a href={pdf} download>
              {t("panel.download")}
            </a>
          </p>
        </>
      ) : (
        <p className="alert alert-info" data-certificate-incomplete>
          {t("errors.certificate-not-viewable")}
        </p>
      )}
    </section>
  );
}
