// E-mail: every message is written to the outbox table first (nothing is lost
// if SMTP fails); with SMTP_URL set it is then sent through nodemailer,
// otherwise it stays in the outbox, readable by staff and by tests.
import type { AppContext } from "../context";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  template: string;
  lang: string;
  userId?: number | null;
}

type Transport = { sendMail(m: { from: string; to: string; subject: string; text: string; html?: string }): Promise<unknown> };
const transports = new Map<string, Promise<Transport>>();

async function transportFor(url: string): Promise<Transport> {
  let t = transports.get(url);
  if (!t) {
    t = import("nodemailer").then((m) => m.default.createTransport(url) as unknown as Transport);
    transports.set(url, t);
  }
  return t;
}

export async function sendMail(ctx: AppContext, message: MailMessage): Promise<{ id: string; status: "queued" | "sent" | "failed" }> {
  const row = await ctx.db
    .insertInto("mail_outbox")
    .values({
      to_email: message.to,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html ?? null,
      template: message.template,
      lang: message.lang,
      user_id: message.userId ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (!ctx.env.SMTP_URL) return { id: String(row.id), status: "queued" };
  try {
    const transport = await transportFor(ctx.env.SMTP_URL);
    await transport.sendMail({ from: ctx.env.MAIL_FROM, to: message.to, subject: message.subject, text: message.text, html: message.html });
    await ctx.db.updateTable("mail_outbox").set({ status: "sent", sent_at: new Date() }).where("id", "=", row.id).execute();
    return { id: String(row.id), status: "sent" };
  } catch (error) {
    ctx.logger.error({ err: error, template: message.template }, "mail delivery failed");
    await ctx.db
      .updateTable("mail_outbox")
      .set({ status: "failed", error: String((error as Error).message ?? error).slice(0, 500) })
      .where("id", "=", row.id)
      .execute();
    return { id: String(row.id), status: "failed" };
  }
}

export async function listOutbox(ctx: AppContext, options: { to?: string; limit?: number } = {}) {
  let q = ctx.db
    .selectFrom("mail_outbox")
    .selectAll()
    .orderBy("id", "desc")
    .limit(options.limit ?? 50);
  if (options.to) q = q.where("to_email", "=", options.to);
  return q.execute();
}
