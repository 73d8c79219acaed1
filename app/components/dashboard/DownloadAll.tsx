// "Download all files" of an order panel (spec 2 §2, §4 "Download: starts, reports percent, ends"). Without
// JavaScript it is a plain link to the zip the server streams. With JavaScript the same request is read here
// chunk by chunk so a <progress> can show how far it is (against Content-Length, else the listed total of the
// order's files), then saved under the name the server gives in Content-Disposition.
import { useState, type MouseEvent } from "react";
import { useTranslation } from "#app/lib/translate";
import { paths } from "#common/paths";

type State = { phase: "idle" } | { phase: "busy"; received: number; total: number | null } | { phase: "failed" };

/** The file name of a Content-Disposition header (RFC 6266: filename* first), or null. */
export function dispositionFileName(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"([^"]+)"|filename\s*=\s*([^;]+)/.exec(header);
  return plain ? (plain[1] ?? plain[2]).trim() : null;
}

/** The sum of the sizes GET /api/order/{id}/deliverables lists, or null when it lists none we can read. */
async function listedTotal(externalId: string): Promise<number | null> {
  try {
    const r = await fetch(paths.api.orderDeliverables(externalId), { headers: { accept: "application/json" } });
    if (!r.ok) return null;
    const body = (await r.json()) as Record<string, unknown>;
    const list = [body.files, body.deliverables].find(Array.isArray) as Record<string, unknown>[] | undefined;
    if (!list?.length) return null;
    const sum = list.reduce((n, f) => n + Number(f.size ?? f.sizeBytes ?? 0), 0);
    return sum > 0 ? sum : null;
  } catch {
    return null;
  }
}

export function DownloadAll({ externalId }: { externalId: string }) {
  const { t } = useTranslation("dashboard");
  const [state, setState] = useState<State>({ phase: "idle" });
  const href = paths.api.orderDeliverablesZip(externalId);

  async function download(e: MouseEvent<HTMLAnchorElement>) {
    // A new tab or window, or a save-as: the browser's own way.
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || typeof ReadableStream === "undefined") return;
    e.preventDefault();
    if (state.phase === "busy") return;
    setState({ phase: "busy", received: 0, total: null });
    try {
      const res = await fetch(href);
      if (!res.ok || !res.body) throw new Error(`download ${res.status}`);
      const total = Number(res.headers.get("content-length")) || (await listedTotal(externalId));
      const reader = res.body.getReader();
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      let received = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value as Uint8Array<ArrayBuffer>);
        received += value.length;
        setState({ phase: "busy", received, total });
      }
      const blob = new Blob(chunks, { type: res.headers.get("content-type") ?? "application/zip" });
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = dispositionFileName(res.headers.get("content-disposition")) ?? `${externalId}.zip`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 30_000);
      setState({ phase: "idle" });
    } catch {
      setState({ phase: "failed" });
    }
  }

  const busy = state.phase === "busy";
  return (
    <div className="download-all">
      <a className="button button-primary button-small" href={href} download onClick={download} aria-busy={busy}>
        {t("panel.download")}
      </a>
      {busy ? (
        <span className="download-progress" role="status">
          <span className="visually-hidden">{t("panel.downloading")}</span>
          {/* Without a known total the bar is indeterminate (no value). */}
          <progress
            aria-label={t("panel.downloading")}
            max={state.total ?? undefined}
            value={state.total ? Math.min(state.received, state.total) : undefined}
          />
        </span>
      ) : null}
      {state.phase === "failed" ? (
        <p className="field-error" role="alert">
          {t("panel.downloadFailed")}
        </p>
      ) : null}
    </div>
  );
}
