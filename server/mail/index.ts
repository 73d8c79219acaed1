// E-mail: every message is written to the outbox table first (nothing is lost
// if SMTP fails); with SMTP_URL set it is then sent through nodemailer,
// otherwise it stays in the outbox, readable by staff.
// Parts that give access to an account (a password-reset link, a sign-in code) are marked by the sender as
// `secrets`: the outbox keeps "[redacted]" in their place, so no staff member (nor anyone reading the
// database) can use them; only the recipient gets them, through SMTP or, without SMTP, through the
// mail pickup folder of a development machine (ADR 018).
import fsp from "node:fs/promises";
import path from "node:path";
import { sql } from "kysely";
import type { AppContext } from "../context";
import { takeMailAllowance } from "./limits";

export { MAIL_LIMIT_DEFAULTS } from "./limits";

export { mailLinkBase, publicOrigin } from "./links";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  template: string;
  lang: string;
  userId?: number | null;
  /** Substrings of `text`/`html` only the recipient may see (links and codes that open an account): redacted in the outbox. */
  secrets?: string[];
  /**
   * Mail the portal sends of its own accord (not because a request asked for it) is not counted against the
   * per-recipient and per-account limits (server/mail/limits.ts). Leave unset for anything a request causes.
   */
  unlimited?: boolean;
  /**
   * The two messages an address gets before its owner proved it is theirs: the verification mail and
   * password-reset links. Every other message to an unverified account's address is refused (ADR 026).
   */
  beforeVerification?: boolean;
  /**
   * The portal's own report to an account's owner about their account or their orders (placed, started,
   * completed, payment recorded, certificate ready): sent to that account's own address (`userId`'s e-mail)
   * whether or not it is verified yet. Verification stops mail a requester can aim at an address (a quote, a
   * resend button), not the owner's own news (ADR 062). Ignored when `to` is not `userId`'s address.
   */
  toOwner?: boolean;
  /**
   * The same on every attempt of a job that sends this message (e.g. `order-history:<id>:<recipient>`): a
   * retry after a crash finds the outbox row the killed attempt wrote and delivers that one, if it was not
   * sent yet, instead of writing a second message (ADR 046).
   */
  dedupeKey?: string;
}

export type SendOutcome =
  | { id: string; status: "queued" | "sent" | "failed" }
  /** Over a limit: nothing was written or sent. */
  | { id: null; status: "limited"; retryAfterSeconds: number }
  /** To the address of an account whose owner has not verified it: nothing was sent (the requester is told). */
  | { id: null; status: "unverified" }
  /**
   * The same, for the portal's own mail (`unlimited`), which has no requester to tell: kept in the outbox as
   * `refused` with its reason, for staff to see (ADR 062).
   */
  | { id: string; status: "refused" };

/**
 * Whether `to` is the address of an account that has not verified it (an address of no account is not), and the
 * message is not the owner's own news sent to that account's own address (`toOwner`, ADR 062).
 */
async function unverifiedAddress(ctx: AppContext, message: MailMessage): Promise<boolean> {
  const to = message.to.trim().toLowerCase();
  const row = await ctx.db
    .selectFrom("users")
    .select(["id", "email_verified_at"])
    .where(sql`lower(email)`, "=", to)
    .executeTakeFirst();
  if (!row || row.email_verified_at) return false;
  return !(message.toOwner && message.userId != null && row.id === message.userId);
}

/** Why a message was refused: kept in the outbox row's `error` (the staff outbox shows it). */
export const UNVERIFIED_REASON = "not sent: the address belongs to an account that has not verified it";

/** What the outbox keeps in place of a secret. */
export const REDACTED = "[redacted]";

function redact(body: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => (secret ? out.split(secret).join(REDACTED) : out), body);
}

/**
 * Where messages are kept whole for their recipient when there is no SMTP: MAIL_PICKUP_DIR, or
 * `DATA_DIR/mail` outside production (a developer is the recipient of every mail on their machine).
 * None in production: there the secret parts exist only in the message SMTP sends.
 */
export function mailPickupDir(ctx: Pick<AppContext, "env">): string | null {
  if (ctx.env.MAIL_PICKUP_DIR) return ctx.env.MAIL_PICKUP_DIR;
  return ctx.env.NODE_ENV === "production" ? null : path.join(ctx.env.DATA_DIR, "mail");
}

async function keepForRecipient(ctx: AppContext, id: string, message: MailMessage): Promise<void> {
  const dir = mailPickupDir(ctx);
  if (!dir) {
    if (message.secrets?.length)
      ctx.logger.warn({ template: message.template }, "mail with a link for its recipient kept without it: set SMTP_URL");
    return;
  }
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${id.padStart(12, "0")}.json`);
  const { to, subject, text, html, template, lang } = message;
  await fsp.writeFile(file, JSON.stringify({ id, to, subject, text, html, template, lang, createdAt: new Date().toISOString() }, null, 2), {
    mode: 0o600,
  });
  ctx.logger.info({ template, file }, "mail kept for its recipient (no SMTP_URL)");
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

function insertOutbox(ctx: AppContext, message: MailMessage, state?: { status: string; error: string }) {
  return ctx.db
    .insertInto("mail_outbox")
    .values({
      to_email: message.to,
      subject: message.subject,
      text_body: redact(message.text, message.secrets ?? []),
      html_body: message.html === undefined ? null : redact(message.html, message.secrets ?? []),
      template: message.template,
      lang: message.lang,
      user_id: message.userId ?? null,
      dedupe_key: message.dedupeKey ?? null,
      ...(state ? { status: state.status, error: state.error } : {}),
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .returning("id")
    .executeTakeFirst();
}

/** Writes a message that is not delivered (refused), once per dedupe key; answers its row's id. */
async function writeOutbox(ctx: AppContext, message: MailMessage, state: { status: string; error: string }): Promise<string> {
  const inserted = await insertOutbox(ctx, message, state);
  if (inserted) return String(inserted.id);
  const earlier = await ctx.db
    .selectFrom("mail_outbox")
    .select("id")
    .where("dedupe_key", "=", message.dedupeKey ?? "")
    .executeTakeFirstOrThrow();
  return String(earlier.id);
}

export async function sendMail(ctx: AppContext, message: MailMessage): Promise<SendOutcome> {
  if (!message.beforeVerification && (await unverifiedAddress(ctx, message))) {
    ctx.logger.info({ template: message.template, userId: message.userId ?? null }, "mail not sent: the address is not verified");
    if (!message.unlimited) return { id: null, status: "unverified" };
    // The portal's own mail has nobody to tell at once: it stays in the outbox, refused with its reason.
    const id = await writeOutbox(ctx, message, { status: "refused", error: UNVERIFIED_REASON });
    return { id, status: "refused" };
  }
  if (!message.unlimited) {
    const allowance = await takeMailAllowance(ctx, message);
    if (!allowance.allowed) {
      ctx.logger.warn({ template: message.template, userId: message.userId ?? null }, "mail not sent: over its rate limit");
      return { id: null, status: "limited", retryAfterSeconds: allowance.retryAfterSeconds };
    }
  }
  const inserted = await insertOutbox(ctx, message);
  let row: { id: string };
  if (inserted) row = inserted;
  else {
    // An earlier attempt wrote this message: sent already → nothing to do; otherwise deliver that row now.
    const earlier = await ctx.db
      .selectFrom("mail_outbox")
      .select(["id", "status"])
      .where("dedupe_key", "=", message.dedupeKey ?? "")
      .executeTakeFirstOrThrow();
    if (earlier.status === "sent") return { id: String(earlier.id), status: "sent" };
    // Refused earlier, since verified: it is an ordinary message of the outbox now.
    if (earlier.status === "refused")
      await ctx.db.updateTable("mail_outbox").set({ status: "queued", error: null }).where("id", "=", earlier.id).execute();
    row = earlier;
  }
  if (!ctx.env.SMTP_URL) {
    // A full disk or a read-only folder must not fail the request that sent the mail: it stays in the outbox.
    await keepForRecipient(ctx, String(row.id), message).catch((error: unknown) =>
      ctx.logger.error({ err: error, template: message.template }, "mail could not be kept for its recipient"),
    );
    return { id: String(row.id), status: "queued" };
  }
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
