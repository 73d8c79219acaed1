// Minimal pages rendered without React, for when the app itself cannot run
// (database outage, a crash before Remix answers). Still translated.
import { fixedT } from "../i18n";
import { LANG_TAG, type SiteLang } from "#common/i18n";

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function page(lang: SiteLang, title: string, body: string): string {
  return `<!doctype html><html lang="${LANG_TAG[lang]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1c2733"><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

/**
 * The no-JS equivalent of the 'network-request-error' modal (spec 1 §5, ADR 065): the same translated message and
 * a plain reload link to the address that failed (a GET: a failed form post is not sent again unasked).
 */
function reloadBlock(lang: SiteLang, url: string | undefined): string {
  const t = fixedT(lang);
  const href = url && url.startsWith("/") && !url.startsWith("//") ? url : "";
  return `<p data-network-request-error>${escapeHtml(t("network-request-error"))}</p><p><a href="${escapeHtml(href)}" data-reload>${escapeHtml(t("error.reload"))}</a></p>`;
}

export function renderUnavailablePage(lang: SiteLang, url?: string): string {
  const t = fixedT(lang);
  return page(lang, t("error.unavailableTitle"), `<p>${escapeHtml(t("error.unavailableBody"))}</p>${reloadBlock(lang, url)}`);
}

export function renderPlainErrorPage(lang: SiteLang, requestId?: string, url?: string): string {
  const t = fixedT(lang);
  const ref = requestId ? `<p><small>${escapeHtml(t("error.reference", { id: requestId }))}</small></p>` : "";
  return page(
    lang,
    t("error.genericTitle"),
    `<p>${escapeHtml(t("error.genericBody"))}</p>${ref}${reloadBlock(lang, url)}<p><a href="/${lang}">${escapeHtml(t("error.backHome"))}</a></p>`,
  );
}

/** Why a request was refused: characters no page reads, a method no page takes, a compressed body (ADR 047). */
export type BadRequestReason = "characters" | "method" | "encoding";

const BAD_REQUEST_BODY = {
  characters: "error.badRequestBody",
  method: "error.badMethodBody",
  encoding: "error.badEncodingBody",
} as const;

/** A request no page can read (a malformed URL, an odd method, a compressed body): what went wrong, and a way home. */
export function renderBadRequestPage(lang: SiteLang, reason: BadRequestReason = "characters"): string {
  const t = fixedT(lang);
  return page(
    lang,
    t("error.badRequestTitle"),
    `<p>${escapeHtml(t(BAD_REQUEST_BODY[reason]))}</p><p><a href="/${lang}">${escapeHtml(t("error.backHome"))}</a></p>`,
  );
}
