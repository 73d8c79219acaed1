// The upload form (spec 3 §2, §5): one .doc/.docx manuscript and 'Begin Check'; 'Filetype not allowed' tied to the
// file input (aria-describedby) when the server (or, with JavaScript, the browser) refuses the type; the captcha for
// visitors when the flag is on (the domain's component, passed in); the upload_files_ui variant adds a required
// terms box and a drag-and-drop zone. Progressive: the plain file input and a plain POST work without JavaScript;
// with it, 'Begin Check' stays disabled until a file is chosen (and the terms ticked) — never in the server HTML.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Form, useNavigation } from "@remix-run/react";
import { ASSESSMENT_EXTENSIONS } from "#common/grammar-check/constants";
import { paths } from "#common/paths";
import { Trans, useTranslation, type TFunction } from "#app/lib/translate";
import { useLang } from "#app/lib/use-lang";
import { ASSESSMENT_TERMS_FIELD } from "#common/grammar-check/constants";

export const FILE_FIELD = "file";
export const TERMS_FIELD = ASSESSMENT_TERMS_FIELD;

const allowed = (name: string) => (ASSESSMENT_EXTENSIONS as readonly string[]).includes(name.split(".").pop()?.toLowerCase() ?? "");

/** A refusal to show: a translation key ("grammar:errors.file-type-not-allowed") and its parameters ({ fileName }). */
export interface UploadError {
  key: string;
  params?: Record<string, string>;
}

/** Refusals by where they show: on the file input, the terms box, the captcha, or above the form. */
export interface UploadErrors {
  file?: UploadError[];
  terms?: UploadError[];
  captcha?: UploadError[];
  form?: UploadError[];
}

export function UploadForm({
  action,
  variant,
  captcha,
  errors,
}: {
  action: string;
  variant: boolean;
  captcha: ReactNode;
  errors: UploadErrors;
}) {
  const { t } = useTranslation("grammar");
  const lang = useLang();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction === action;
  const input = useRef<HTMLInputElement>(null);
  const [hydrated, setHydrated] = useState(false);
  const [fileName, setFileName] = useState<string | null>(null);
  const [terms, setTerms] = useState(false);
  const [dragging, setDragging] = useState(false);
  useEffect(() => setHydrated(true), []);

  const typeRefused = fileName !== null && !allowed(fileName);
  const serverFileError = errors.file?.length ? errors.file : null;
  // The server's refusal stays until another file is chosen; a type refused here shows at once.
  const fileError = typeRefused
    ? [t("upload.filetypeNotAllowed")]
    : fileName === null && serverFileError
      ? serverFileError.map(errorText(t))
      : null;
  const ready = fileName !== null && !typeRefused && (!variant || terms);

  const choose = (files: FileList | null) => setFileName(files && files.length ? files[0].name : null);

  return (
    <Form method="post" encType="multipart/form-data" action={action} className="card stack gc-upload" noValidate={hydrated}>
      <h2>{t("upload.heading")}</h2>
      {errors.form?.length ? (
        <p className="alert alert-danger" role="alert">
          {errors.form.map(errorText(t)).join(" ")}
        </p>
      ) : null}
      <div
        className={`gc-drop${variant ? " gc-drop-zone" : ""}${dragging ? " gc-drop-active" : ""}${fileError ? " gc-drop-invalid" : ""}`}
        onDragOver={
          variant
            ? (event) => {
                event.preventDefault();
                setDragging(true);
              }
            : undefined
        }
        onDragLeave={variant ? () => setDragging(false) : undefined}
        onDrop={
          variant
            ? (event) => {
                event.preventDefault();
                setDragging(false);
                const files = event.dataTransfer.files;
                if (!files.length || !input.current) return;
                // One file only (spec 3 §9): keep the first.
                const one = new DataTransfer();
                one.items.add(files[0]);
                input.current.files = one.files;
                choose(one.files);
              }
            : undefined
        }
      >
        {variant ? <p className="gc-drop-text">{t(dragging ? "upload.dropActive" : "upload.drop")}</p> : null}
        <label htmlFor="gc-file" className="field-label">
          {t("upload.file")}
        </label>
        <input
          ref={input}
          id="gc-file"
          name={FILE_FIELD}
          type="file"
          accept=".doc,.docx"
          required
          aria-invalid={fileError ? true : undefined}
          aria-describedby={fileError ? "gc-file-error gc-file-hint" : "gc-file-hint"}
          onChange={(event) => choose(event.currentTarget.files)}
        />
        <p id="gc-file-hint" className="field-hint">
          {t("upload.hint")}
        </p>
        {fileError ? (
          <p id="gc-file-error" className="gc-file-error" role="alert">
            {fileError.join(" ")}
          </p>
        ) : null}
      </div>
      {variant ? (
        <div className="gc-terms">
          <input
            id="gc-terms"
            type="checkbox"
            name={TERMS_FIELD}
            value="true"
            required
            onChange={(event) => setTerms(event.currentTarget.checked)}
            aria-invalid={errors.terms?.length ? true : undefined}
            aria-describedby={errors.terms?.length ? "gc-terms-error" : undefined}
          />
          <label htmlFor="gc-terms">
            <Trans t={t} i18nKey="upload.terms" components={{ terms: <a href={paths.terms(lang)} target="_blank" rel="noopener" /> }} />
          </label>
          {errors.terms?.length ? (
            <p id="gc-terms-error" className="gc-file-error" role="alert">
              {errors.terms.map(errorText(t)).join(" ")}
            </p>
          ) : null}
        </div>
      ) : null}
      {captcha}
      <div>
        <button type="submit" className="button button-primary" disabled={busy || (hydrated && !ready)} aria-busy={busy}>
          {busy ? (
            <>
              <span className="spinner" aria-hidden="true" /> {t("upload.busy")}
            </>
          ) : (
            t("upload.submit")
          )}
        </button>
      </div>
    </Form>
  );
}

/** A refusal's text in the page's language, its parameters (the file's name) filled in. */
function errorText(t: TFunction) {
  return (error: UploadError) => String(t(error.key, error.params));
}
