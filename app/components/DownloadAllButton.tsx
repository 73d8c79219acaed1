// "Download All" (issue 11 §5, spec 2 §2): without JavaScript a plain link to the streamed zip; with JavaScript
// the same link fetches the zip itself and shows its progress (bytes received of Content-Length, or of the listed
// total the server sends as X-Total-Bytes), then hands the file to the browser. Reusable: the order list, the
// order details and the certificate verification page use it with their own zip path.
import { useState, type MouseEvent } from "react";
import { useTranslation } from "#app/lib/translate";

type State = { phase: "idle" } | { phase: "loading"; percent: number } | { phase: "done" } | { phase: "failed" };

/** The file name of a Content-Disposition (RFC 5987 `filename*` first). */
function fileNameOf(disposition: string | null, fallback: string): string {
  const star = disposition?.match(/filename\*=UTF-8''([^;]+)/i);
  if (star) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      /* fall through */
    }
  }
  return disposition?.match(/filename="([^"]+)"/i)?.[1] ?? fallback;
}

export function DownloadAllButton({ href, totalBytes, label }: { href: string; totalBytes?: number; label?: string }) {
  const { t } = useTranslation("certificate");
  const [state, setState] = useState<State>({ phase: "idle" });

  async function download(event: MouseEvent<HTMLAnchorElement>) {
    // Fetch and a Blob hold the whole zip in the browser's memory: past ~1 GB let the browser download it itself.
    if (typeof fetch !== "function" || (totalBytes ?? 0) > 1024 * 1024 * 1024) return;
    event.preventDefault();
    if (state.phase === "loading") return;
    setState({ phase: "loading", percent: 0 });
    try {
      const response = await fetch(href, { credentials: "same-origin" });
      if (!response.ok || !response.body) throw new Error(String(response.status));
      const total = Number(response.headers.get("content-length") ?? response.headers.get("x-total-bytes") ?? totalBytes ?? 0);
      const reader = response.body.getReader();
      const chunks: Uint8Array[] = [];
      let received = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.length;
        if (total > 0) setState({ phase: "loading", percent: Math.min(100, Math.floor((received / total) * 100)) });
      }
      const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: "application/zip" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = fileNameOf(response.headers.get("content-disposition"), "files.zip");
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 30_000);
      setState({ phase: "done" });
    } catch {
      setState({ phase: "failed" });
    }
  }

  return (
    <div className="download-all">
      <a className="button button-primary" href={href} download onClick={download} aria-busy={state.phase === "loading" || undefined}>
        {label ?? t("download.all")}
      </a>
      {state.phase === "loading" ? (
        <p className="download-progress" role="status">
          <progress max={100} value={state.percent} aria-label={t("download.progress", { percent: state.percent })} />{" "}
          {t("download.progress", { percent: state.percent })}
        </p>
      ) : state.phase === "done" ? (
        <p className="download-progress" role="status">
          {t("download.done")}
        </p>
      ) : state.phase === "failed" ? (
        <p className="alert alert-danger" role="alert">
          {t("download.failed")}
        </p>
      ) : null}
    </div>
  );
}
