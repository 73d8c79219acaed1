// Files of abandoned anonymous drafts expire (issue 10 §6): the storage a visitor who never signs in can hold
// is bounded in time as well as by the quotas of storage.ts.
import { sql } from "kysely";
import type { AppContext } from "../context";
import { storedKey } from "./files";
/** How long an anonymous visitor's files are kept after their draft was last touched (issue 10 §6). */
export const ANONYMOUS_FILES_DAYS = 14;

/**
 * Removes the files of abandoned anonymous drafts: never claimed by a signed-in user, and on no form touched
 * (or, without a form, uploaded) in the last `days` days. Rows are marked deleted and the content leaves the
 * disk, like deleteFile. Returns how many files went. Run hourly by the expire-anonymous-files job.
 * Removed anonymous files forget their uploader's address once they no longer count towards the daily cap (ADR 049).
 */
export async function expireAnonymousFiles(ctx: AppContext, days = ANONYMOUS_FILES_DAYS, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 24 * 3600_000);
  await ctx.db
    .updateTable("files")
    .set({ uploader_address: null })
    .where("uploader_address", "is not", null)
    .where("deleted_at", "is not", null)
    .where("created_at", "<=", new Date(now.getTime() - 24 * 3600_000))
    .execute();
  const rows = await ctx.db
    .updateTable("files")
    .set({ deleted_at: sql<Date>`now()`, uploader_address: null })
    .where("owner_user_id", "is", null)
    .where("deleted_at", "is", null)
    .where("created_at", "<", cutoff)
    .where((eb) =>
      eb.or([
        eb("order_form_id", "is", null),
        eb.not(
          eb.exists(
            eb
              .selectFrom("order_forms as f")
              .select("f.id")
              .whereRef("f.id", "=", "files.order_form_id")
              .where((inner) => inner.or([inner("f.updated_at", ">=", cutoff), inner("f.user_id", "is not", null)])),
          ),
        ),
      ]),
    )
    .returning("stored_name")
    .execute();
  for (const row of rows)
    await ctx.storage
      .delete(storedKey(row.stored_name))
      .catch((error) => ctx.logger.error({ err: error }, "could not remove an expired file"));
  return rows.length;
}
