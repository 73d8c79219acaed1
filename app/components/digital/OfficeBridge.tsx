// Inside Word only (ADR 074): office.js gives the open document (getFileAsync, compressed = .docx, in slices); it
// is posted to the create endpoint (paths.api.digitalEditCreate) with the chosen style of English, then the pane
// reloads its list. Outside Word, or before office.js is ready, this part stays hidden and the ordinary upload
// form does the same job.
import { useEffect, useState } from "react";
import { FIELDS, STYLES_OF_ENGLISH, type StyleOfEnglish } from "#common/digital/constants";
import { paths } from "#common/paths";
import { useTranslation } from "#app/lib/translate";

/** Microsoft's hosted office.js: the only place an add-in may take it from (Office requires the hosted copy). */
export const OFFICE_JS = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";

interface OfficeFile {
  sliceCount: number;
  getSliceAsync(index: number, cb: (r: { status: string; value: { data: number[] } }) => void): void;
  closeAsync(): void;
}
interface OfficeGlobal {
  onReady(cb: (info: { host: string | null }) => void): void;
  FileType: { Compressed: string };
  context: {
    document: {
      url?: string;
      getFileAsync(type: string, options: { sliceSize: number }, cb: (r: { status: string; value: OfficeFile }) => void): void;
    };
  };
}

function readDocument(office: OfficeGlobal): Promise<Blob> {
  return new Promise((resolve, reject) => {
    office.context.document.getFileAsync(office.FileType.Compressed, { sliceSize: 4 * 1024 * 1024 }, (result) => {
      if (result.status !== "succeeded") return reject(new Error("getFileAsync"));
      const file = result.value;
      const parts: Uint8Array[] = [];
      const next = (index: number) => {
        if (index >= file.sliceCount) {
          file.closeAsync();
          return resolve(
            new Blob(parts as BlobPart[], { type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" }),
          );
        }
        file.getSliceAsync(index, (slice) => {
          if (slice.status !== "succeeded") {
            file.closeAsync();
            return reject(new Error("getSliceAsync"));
          }
          parts.push(new Uint8Array(slice.value.data));
          next(index + 1);
        });
      };
      next(0);
    });
  });
}

export function OfficeBridge() {
  const { t } = useTranslation("digital");
  const [office, setOffice] = useState<OfficeGlobal | null>(null);
  const [style, setStyle] = useState<StyleOfEnglish | "">("");
  const [state, setState] = useState<"idle" | "sending" | "failed">("idle");
  useEffect(() => {
    const found = (window as unknown as { Office?: OfficeGlobal }).Office;
    if (found) found.onReady((info) => info.host && setOffice(found));
  }, []);
  if (!office) return null;
  const send = async () => {
    if (!style) return;
    setState("sending");
    try {
      const blob = await readDocument(office);
      const name =
        (office.context.document.url ?? "")
          .split(/[\\/]/)
          .pop()
          ?.replace(/\.[^.]*$/, "") || "document";
      const body = new FormData();
      body.append(FIELDS.styleOfEnglish, style);
      body.append(FIELDS.editFiles, blob, `${name}.docx`);
      const response = await fetch(paths.api.digitalEditCreate(), { method: "POST", body });
      if (!response.ok) throw new Error(String(response.status));
      window.location.reload();
    } catch {
      setState("failed");
    }
  };
  return (
    <section className="card stack digital-office">
      <h2>{t("addIn.sendHeading")}</h2>
      <label htmlFor="digital-office-style">{t("upload.style")}</label>
      <select id="digital-office-style" value={style} onChange={(e) => setStyle(e.currentTarget.value as StyleOfEnglish)}>
        <option value="">{t("translations.chooseLanguage")}</option>
        {STYLES_OF_ENGLISH.map((s) => (
          <option key={s} value={s}>
            {t(`style.${s === "British English" ? "british" : "american"}`)}
          </option>
        ))}
      </select>
      {state === "failed" ? (
        <p className="alert alert-danger" role="alert">
          {t("addIn.sendFailed")}
        </p>
      ) : null}
      <button type="button" className="button button-primary" disabled={!style || state === "sending"} onClick={send}>
        {t("addIn.send")}
      </button>
    </section>
  );
}
