import type { Kysely } from "kysely";

// Account area: addresses and account fields (filled in with the account capability).
export async function up(_db: Kysely<any>): Promise<void> {}
export async function down(_db: Kysely<any>): Promise<void> {}
