// The upload forms (spec 3 §3, §5): exactly one .doc/.docx file, and either the style of English (British /
// American: 'Please select your preferred type of English.') or the source language ('Please make a selection').
// Plain multipart POSTs to the page's own action: they work without JavaScript; refusals come back by field.
import { Form, useNavigation } from "@remix-run/react";
import { FIELDS, STYLES_OF_ENGLISH, type TranslationLanguage } from "#common/digital/constants";
import { useTranslation } from "#app/lib/translate";
import type { PageError } from "./access.server";

export interface FormErrors {
  fields: Record<string, string>;
  form: PageError | null;
}

function FieldError({ id, text }: { id: string; text: string | null }) {
  if (!text) return null;
  return (
    <p id={id} className="field-error" role="alert">
      {text}
    </p>
  );
}

function FormError({ error }: { error: PageError | null }) {
  const { t } = useTranslation("digital");
  if (!error) return null;
  return (
    <p className="alert alert-danger" role="alert">
      {t(error.key, { ...error.params, defaultValue: t("errors.failed") })}
    </p>
  );
}

function useBusy(action?: string) {
  const navigation = useNavigation();
  return (
    navigation.state === "submitting" && navigation.formEncType === "multipart/form-data" && (!action || navigation.formAction === action)
  );
}

export function EditUploadForm({ errors, action }: { errors: FormErrors; action?: string }) {
  const { t } = useTranslation("digital");
  const busy = useBusy(action);
  const fileError = errors.fields[FIELDS.editFiles] ? t(errors.fields[FIELDS.editFiles]) : null;
  const styleError = errors.fields[FIELDS.styleOfEnglish] ? t(errors.fields[FIELDS.styleOfEnglish]) : null;
  return (
    <Form method="post" encType="multipart/form-data" action={action} className="card stack digital-upload" noValidate>
      <h2>{t("upload.heading")}</h2>
      <FormError error={errors.form} />
      <div className={`field${fileError ? " field-invalid" : ""}`}>
        <label htmlFor="digital-file" className="field-label">
          {t("upload.file")}
        </label>
        <input
          id="digital-file"
          name={FIELDS.editFiles}
          type="file"
          accept=".doc,.docx"
          required
          aria-invalid={fileError ? true : undefined}
          aria-describedby={fileError ? "digital-file-error digital-file-hint" : "digital-file-hint"}
        />
        <p id="digital-file-hint" className="field-hint">
          {t("upload.hint")}
        </p>
        <FieldError id="digital-file-error" text={fileError} />
      </div>
      <fieldset
        className={`field digital-style${styleError ? " field-invalid" : ""}`}
        aria-describedby={styleError ? "digital-style-error" : undefined}
      >
        <legend>{t("upload.style")}</legend>
        {STYLES_OF_ENGLISH.map((style) => {
          const id = `digital-style-${style === "British English" ? "british" : "american"}`;
          return (
            <div key={style} className="radio">
              <input id={id} type="radio" name={FIELDS.styleOfEnglish} value={style} required />
              <label htmlFor={id}>{t(`style.${style === "British English" ? "british" : "american"}`)}</label>
            </div>
          );
        })}
        <FieldError id="digital-style-error" text={styleError} />
      </fieldset>
      <div>
        <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy}>
          {busy ? (
            <>
              <span className="spinner" aria-hidden="true" /> {t("upload.busy")}
            </>
          ) : (
            t("upload.submitEdit")
          )}
        </button>
      </div>
    </Form>
  );
}

export function TranslationUploadForm({ errors, languages }: { errors: FormErrors; languages: TranslationLanguage[] }) {
  const { t } = useTranslation("digital");
  const busy = useBusy();
  const fileError = errors.fields[FIELDS.translationFiles] ? t(errors.fields[FIELDS.translationFiles]) : null;
  const languageError = errors.fields[FIELDS.language] ? t(errors.fields[FIELDS.language]) : null;
  return (
    <Form method="post" encType="multipart/form-data" className="card stack digital-upload" noValidate>
      <h2>{t("translations.uploadHeading")}</h2>
      <FormError error={errors.form} />
      <div className={`field${fileError ? " field-invalid" : ""}`}>
        <label htmlFor="digital-file" className="field-label">
          {t("upload.file")}
        </label>
        <input
          id="digital-file"
          name={FIELDS.translationFiles}
          type="file"
          accept=".doc,.docx"
          required
          aria-invalid={fileError ? true : undefined}
          aria-describedby={fileError ? "digital-file-error digital-file-hint" : "digital-file-hint"}
        />
        <p id="digital-file-hint" className="field-hint">
          {t("translations.hint")}
        </p>
        <FieldError id="digital-file-error" text={fileError} />
      </div>
      <div className={`field${languageError ? " field-invalid" : ""}`}>
        <label htmlFor="digital-language">{t("translations.language")}</label>
        <select
          id="digital-language"
          name={FIELDS.language}
          defaultValue=""
          required
          aria-invalid={languageError ? true : undefined}
          aria-describedby={languageError ? "digital-language-error" : undefined}
        >
          <option value="">{t("translations.chooseLanguage")}</option>
          {languages.map((l) => (
            <option key={l} value={l}>
              {t(`languages.${l}`)}
            </option>
          ))}
        </select>
        <FieldError id="digital-language-error" text={languageError} />
      </div>
      <div>
        <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy}>
          {busy ? (
            <>
              <span className="spinner" aria-hidden="true" /> {t("upload.busy")}
            </>
          ) : (
            t("translations.submit")
          )}
        </button>
      </div>
    </Form>
  );
}
