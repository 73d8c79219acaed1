// npm run check:db-types: migrates a fresh in-memory database and compares the migrated schema with the
// hand-written kysely types (db/check-types.ts). Exits 1 and lists every difference on drift.
import { openPglite, migrateToLatest } from "#server/db";
import { checkDatabaseTypes } from "../db/check-types";

const database = await openPglite({});
let drift: string[];
try {
  await migrateToLatest(database.db);
  drift = await checkDatabaseTypes(database.db);
} finally {
  await database.close();
}
if (drift.length) {
  process.stderr.write(`db/types*.ts and the migrations disagree (${drift.length}):\n${drift.map((d) => `  ${d}`).join("\n")}\n`);
  // Explicitly: a process.exitCode set earlier did not survive closing PGlite.
  process.exit(1);
}
process.stdout.write("db/types*.ts match the migrated schema.\n");
