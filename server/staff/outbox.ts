// The staff outbox page (spec 1 §2 "Staff"): every message the portal sent or, without SMTP, kept.
import { listOutbox } from "../mail";
import type { Scope } from "../scope";

export interface OutboxEntry {
  id: string;
  to: string;
  subject: string;
  template: string;
  status: string;
  createdAt: string;
  /** The text body of the selected message only. */
  body: string | null;
}

/** The latest 100 messages (to one address when `to` is given), with the body of `selectedId`. */
export async function outboxPage(scope: Scope, options: { to?: string; selectedId?: string }): Promise<OutboxEntry[]> {
  return (await listOutbox(scope.app, { to: options.to, limit: 100 })).map((m) => ({
    id: String(m.id),
    to: m.to_email,
    subject: m.subject,
    template: m.template,
    status: m.status,
    createdAt: new Date(m.created_at).toISOString(),
    body: options.selectedId === String(m.id) ? m.text_body : null,
  }));
}
