import { Form } from "@remix-run/react";
import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { formatDate } from "#common/format";

export interface CertificateProps {
  certificate: { code: string; title: string; authors: string; issuedAt: string } | null;
  /** Show the form that edits the title and authors (posts intent "certificate" to the page's action). */
  editable: boolean;
  errors?: Record<string, string>;
}

// The order's editing certificate (spec 2 §4: shown once completed and ready, else 'not ready'). The PDF and
// the verification page belong to the certificates area; this block shows the code and lets the researcher
// correct the title and authors printed on it.
export function OrderCertificate({ certificate, editable, errors = {} }: CertificateProps) {
  const { t } = useTranslation("details");
  const lang = useLang();
  return (
    <section id="certificate" className="card stack" aria-labelledby="certificate-heading">
      <h2 id="certificate-heading">{t("certificate.title")}</h2>
      {certificate ? (
        <>
          <dl className="details-list">
            <dt>{t("certificate.code")}</dt>
            <dd>
              <code data-certificate-code>{certificate.code}</code>
            </dd>
            <dt>{t("certificate.projectTitle")}</dt>
            <dd>{certificate.title}</dd>
            <dt>{t("certificate.authors")}</dt>
            <dd>{certificate.authors || t("certificate.noAuthors")}</dd>
            <dt>{t("certificate.issued")}</dt>
            <dd>{formatDate(certificate.issuedAt, lang)}</dd>
          </dl>
          {editable ? (
            <Form method="post" className="stack" aria-label={t("certificate.edit")}>
              <input type="hidden" name="intent" value="certificate" />
              <div className={`field${errors.title ? " field-invalid" : ""}`}>
                <label htmlFor="certificate-title">{t("certificate.projectTitle")}</label>
                <input id="certificate-title" name="title" defaultValue={certificate.title} required maxLength={500} />
                {errors.title ? <p className="field-error">{t(errors.title)}</p> : null}
              </div>
              <div className={`field${errors.authors ? " field-invalid" : ""}`}>
                <label htmlFor="certificate-authors">{t("certificate.authors")}</label>
                <input id="certificate-authors" name="authors" defaultValue={certificate.authors} required maxLength={1000} />
                {errors.authors ? <p className="field-error">{t(errors.authors)}</p> : null}
              </div>
              <p className="actions">
                <button type="submit" className="button">
                  {t("certificate.save")}
                </button>
              </p>
            </Form>
          ) : null}
        </>
      ) : (
        <p>{t("certificate.notReady")}</p>
      )}
    </section>
  );
}
