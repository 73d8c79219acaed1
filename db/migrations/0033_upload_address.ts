import { sql, type Kysely } from "kysely";

// The anonymous storage quota holds per address as well as per draft (issue 20 §5, ADR 049): a new draft cookie
// is free, an address is not. An anonymous file records the address group it came from: the IPv4 address, or the
// IPv6 /64 (one host can rotate through its whole /64). Nothing else about addresses is kept: only anonymous files
// carry it (the check), it is cleared when a user claims the file, and the hourly expiry job clears it from
// removed files once they no longer count towards the daily cap (24 hours).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("files").addColumn("uploader_address", "text").execute();
  await db.schema
    .alterTable("files")
    .addCheckConstraint("files_uploader_address_anonymous", sql`uploader_address is null or owner_user_id is null`)
    .execute();
  await db.schema
    .createIndex("files_uploader_address_idx")
    .on("files")
    .columns(["uploader_address", "created_at"])
    .where(sql.ref("uploader_address"), "is not", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("files_uploader_address_idx").execute();
  await db.schema.alterTable("files").dropConstraint("files_uploader_address_anonymous").execute();
  await db.schema.alterTable("files").dropColumn("uploader_address").execute();
}
