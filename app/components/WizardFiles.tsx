import { useTranslation } from "#app/lib/translate";

/** The files already on the order form, each with a remove button (a submit button: works without JavaScript). */
export function FileList({ files, showKind = false }: { files: { id: string; name: string; kind: string }[]; showKind?: boolean }) {
  const { t } = useTranslation("order");
  if (!files.length) return null;
  return (
    <ul className="file-list">
      {files.map((f) => (
        <li key={f.id}>
          {f.name} {showKind ? <span className="badge">{t(`fileKinds.${f.kind}`)}</span> : null}{" "}
          <button type="submit" name="removeFile" value={f.id} className="link-button">
            {t("removeFile")}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The upload button and the messages of refused files. */
export function UploadButton({ errors }: { errors: string[] }) {
  const { t } = useTranslation("order");
  return (
    <>
      <button type="submit" name="intent" value="upload" className="button button-small">
        {t("getStarted.upload")}
      </button>
      {errors.map((e) => (
        <p key={e} className="field-error" role="alert">
          {t(e)}
        </p>
      ))}
    </>
  );
}
