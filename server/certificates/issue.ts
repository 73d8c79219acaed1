// Issuing a certificate: staff mark it ready once the order is completed. It is generated from the order (title,
// services, the date) with a verification code, and records the SHA-256 of every delivered file so that anyone
// can later check that a file is the one that was delivered. The researcher adds the authors (and may change the
// title) before the certificate can be viewed.
import { randomInt } from "node:crypto";
import { fail, ok, type Result } from "#common/result";
import type { OrderStatus } from "#common/orders/status";
import type { AppContext } from "../context";
import { listDeliverables } from "../orders/deliverables";
import { orderNotificationJob, recordHistory, type Actor } from "../orders/life";

/** 32 letters and digits without the look-alikes 0/O and 1/I: 5 bits a character. */
export const CERTIFICATE_CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
/** 16 characters: 80 bits of randomness (issue 11 §6 asks for at least 64). */
export const CERTIFICATE_CODE_LENGTH = 16;

export function newCertificateCode(): string {
  let code = "";
  for (let i = 0; i < CERTIFICATE_CODE_LENGTH; i++) code += CERTIFICATE_CODE_ALPHABET[randomInt(CERTIFICATE_CODE_ALPHABET.length)];
  return code;
}

/** "ABCD-EFGH-JKLM-NPQR": how a code is printed and shown. */
export function formatCertificateCode(code: string): string {
  return code.match(/.{1,4}/g)?.join("-") ?? code;
}

/**
 * A code as typed (spaces, dashes, lower case) in its stored form, or null when it cannot be one: checked before
 * any lookup, so junk never reaches the database.
 */
export function normalizeCertificateCode(input: string | null | undefined): string | null {
  if (typeof input !== "string") return null;
  const code = input.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== CERTIFICATE_CODE_LENGTH) return null;
  for (const ch of code) if (!CERTIFICATE_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

const CERTIFIED_TYPES = new Set(["editing", "translation", "formatting"]);

/**
 * Issues (or, when it exists, re-issues with the current files) the certificate of a completed order. One
 * transaction: the certificate row, a `certificate-ready` history row and the researcher's mail.
 * Errors: `not-found`, `not-completed` (409), `no-deliverables` (409).
 */
export async function issueCertificate(
  app: AppContext,
  actor: Actor,
  orderId: number,
): Promise<Result<{ code: string; reissued: boolean }>> {
  return app.db.transaction().execute(async (trx) => {
    const order = await trx
      .selectFrom("orders as o")
      .innerJoin("users as u", "u.id", "o.user_id")
      .select(["o.id", "o.status", "o.title", "o.line_items", "u.language"])
      .where("o.id", "=", orderId)
      .forUpdate("o")
      .executeTakeFirst();
    if (!order) return fail("not-found");
    if (order.status !== "completed" && order.status !== "reedit-requested") return fail("not-completed");
    const files = await listDeliverables(trx, orderId);
    if (files.length === 0) return fail("no-deliverables");
    const lines = (typeof order.line_items === "string" ? JSON.parse(order.line_items) : order.line_items) as {
      nameKey?: string;
      type?: string;
    }[];
    const services = lines.filter((l) => l.nameKey && (!l.type || CERTIFIED_TYPES.has(l.type))).map((l) => l.nameKey!);
    const certified = JSON.stringify(files.map((f) => ({ name: f.name, sizeBytes: f.sizeBytes, sha256: f.sha256 })));
    const existing = await trx.selectFrom("certificates").select("code").where("order_id", "=", orderId).executeTakeFirst();
    let code: string;
    if (existing) {
      code = existing.code;
      await trx
        .updateTable("certificates")
        .set({ files: certified, services: JSON.stringify(services), updated_at: new Date() })
        .where("order_id", "=", orderId)
        .execute();
    } else {
      code = newCertificateCode();
      await trx
        .insertInto("certificates")
        .values({
          order_id: orderId,
          code,
          title: order.title,
          services: JSON.stringify(services),
          files: certified,
          lang: order.language,
          issued_by: actor.userId,
        })
        .execute();
    }
    const status = order.status as OrderStatus;
    const historyId = await recordHistory(trx, orderId, "certificate-ready", status, status, actor, {
      data: { code, files: files.length, reissued: Boolean(existing) },
    });
    if (!existing) await orderNotificationJob.enqueue(trx, { historyId });
    return ok({ code, reissued: Boolean(existing) });
  });
}
