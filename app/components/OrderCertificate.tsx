import { useTranslation } from "#app/lib/translate";
import { CertificatePanel, type PanelCertificate } from "./CertificatePanel";

export interface CertificateProps {
  certificate: PanelCertificate | null;
  /** Show the form that edits the title and authors (it posts to /certificate/edit/{code} and comes back). */
  editable: boolean;
}

// The order's editing certificate on the order page (spec 2 §4: shown once completed and ready, else 'not
// ready'). The panel itself (code, title and authors form, PDF) belongs to the certificates area (ADR 033).
export function OrderCertificate({ certificate, editable }: CertificateProps) {
  const { t } = useTranslation("details");
  return (
    <div id="certificate">
      {certificate ? (
        <CertificatePanel certificate={certificate} editable={editable} />
      ) : (
        <section className="card stack" aria-labelledby="certificate-heading">
          <h2 id="certificate-heading">{t("certificate.title")}</h2>
          <p>{t("certificate.notReady")}</p>
        </section>
      )}
    </div>
  );
}
