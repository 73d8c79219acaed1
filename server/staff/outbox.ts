// The staff outbox page (spec 1 §2 "Staff"): every message the portal sent or, without SMTP, kept.
// Secret parts (reset links, sign-in codes) were redacted when the message was stored (server/mail), and
// every reading is written to the audit log: who read which message, or which list (ADR 018).
import { listOutbox, REDACTED } from "../mail";
import type { Scope } from "../scope";
import { audit } from "./impersonation";

export interface OutboxEntry {
  id: string;
  to: string;
  subject: string;
  template: string;
  status: string;
  /** Why a message was not delivered (refused, or the SMTP error of a failed one): staff see what was lost. */
  error: string | null;
  createdAt: string;
  /** The text body of the selected message only (secret parts redacted). */
  body: string | null;
  /** The selected message had parts only its recipient may see (the page says why they are hidden). */
  redacted: boolean;
}

/** The latest 100 messages (to one address when `to` is given), with the body of `selectedId`; the reading is audited. */
export async function outboxPage(scope: Scope, options: { to?: string; selectedId?: string }): Promise<OutboxEntry[]> {
  const entries = (await listOutbox(scope.app, { to: options.to, limit: 100 })).map((m) => {
    const body = options.selectedId === String(m.id) ? m.text_body : null;
    return {
      id: String(m.id),
      to: m.to_email,
      subject: m.subject,
      template: m.template,
      status: m.status,
      error: m.error,
      createdAt: new Date(m.created_at).toISOString(),
      body,
      redacted: body?.includes(REDACTED) ?? false,
    };
  });
  const opened = entries.find((e) => e.body !== null);
  await audit(scope.app, scope.userId, opened ? "outbox.read" : "outbox.list", opened ? { type: "mail", id: opened.id } : null, {
    to: options.to ?? null,
    recipient: opened?.to ?? null,
    ip: scope.ip,
  });
  return entries;
}
