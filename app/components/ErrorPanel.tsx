import { useTranslation } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { paths } from "#common/paths";
import { useLocation } from "@remix-run/react";

/** Which translated error text (common:error.{kind}Title / Body) a status has. */
export function errorKind(status: number): "notFound" | "forbidden" | "unavailable" | "badRequest" | "tooLarge" | "generic" {
  // 400/415: a request the portal could not read (unreadable characters, a body that is not a form): say so,
  // rather than "something went wrong", so the researcher checks what they sent.
  if (status === 400 || status === 415) return "badRequest";
  // 413: a form far larger than any page posts (5 MB, 10,000 fields; issue 14 item 7).
  if (status === 413) return "tooLarge";
  return status === 404 ? "notFound" : status === 403 ? "forbidden" : status === 503 ? "unavailable" : "generic";
}

/** The generic error page body for 400, 404, 403, 413, 503 and render failures. */
export function ErrorPanel({ status }: { status: number }) {
  const { t } = useTranslation();
  const lang = useLang();
  const kind = errorKind(status);
  const location = useLocation();
  // A server failure (500, 503): the same 'network-request-error' message as the modal, with a plain reload link to
  // this address (the no-JS equivalent of the modal's reload action; ADR 065).
  const reload = status >= 500;
  return (
    <section className="error-panel" aria-labelledby="error-title">
      <p className="error-status">{status}</p>
      <h1 id="error-title">{t(`error.${kind}Title`)}</h1>
      <p>{t(`error.${kind}Body`)}</p>
      {reload ? <p data-network-request-error>{t("network-request-error")}</p> : null}
      <p className="actions">
        {reload ? (
          <a className="button button-primary" href={`${location.pathname}${location.search}`} data-reload>
            {t("error.reload")}
          </a>
        ) : null}
        <a className="button" href={paths.home(lang)}>
          {t("error.backHome")}
        </a>
      </p>
    </section>
  );
}
